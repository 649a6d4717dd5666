import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { differences, sourceBuildNotes } from './source-build.mjs';

describe('SOURCE-BUILD.md', () => {
  const notes = sourceBuildNotes({
    version: '0.2.0',
    commit: 'a1b2c3d',
    system: 'Debian GNU/Linux 12 (bookworm)',
    node: 'v20.20.2',
    npm: '10.8.2',
    dependencies: { valibot: '^1.5.0', preact: '11.2' },
  });

  it('names the version, the commit, and the system, Node.js and npm that built the release', () => {
    expect(notes).toMatch(/^# Building Colab OOM Guard 0\.2\.0 from this source/);
    expect(notes).toContain('git commit `a1b2c3d`');
    expect(notes).toContain('built on Debian GNU/Linux 12 (bookworm) with Node.js v20.20.2 and npm 10.8.2');
  });

  it('gives the steps and the comparison with the published Firefox package', () => {
    expect(notes).toContain('npm ci\nnpm run build:firefox');
    expect(notes).toContain('unzip -q ../colab-oom-guard-firefox-0.2.0.xpi');
    expect(notes).toContain('diff -r xpi dist-firefox');
  });

  it('lists the third-party libraries in the bundles, and the one change made to one', () => {
    expect(notes).toContain('`preact`, `valibot`');
    expect(notes).toContain('`noPreactHtmlSink` in `vite.config.ts`');
  });
});

describe('differences', () => {
  let root;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function tree(name, files) {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name, file)), { recursive: true });
      writeFileSync(path.join(root, name, file), text);
    }
    return path.join(root, name);
  }

  it('is empty for the same files, and names every file missing, extra or with other bytes', () => {
    root = mkdtempSync(path.join(tmpdir(), 'differences-'));
    const built = tree('built', { 'manifest.json': '{}', 'assets/a.js': 'a', 'assets/b.js': 'b' });
    expect(differences(built, tree('same', { 'manifest.json': '{}', 'assets/a.js': 'a', 'assets/b.js': 'b' }))).toEqual(
      [],
    );
    const rebuilt = tree('rebuilt', { 'manifest.json': '{}', 'assets/a.js': 'A', 'assets/c.js': 'c' });
    expect(differences(built, rebuilt)).toEqual(['assets/a.js', 'assets/b.js', 'assets/c.js']);
  });
});
