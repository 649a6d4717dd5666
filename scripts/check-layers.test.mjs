import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkLayers,
  developersProblems,
  folderCycles,
  importsOf,
  LAYERS,
  layersMarkdown,
  packageName,
  roomOf,
  tableProblems,
} from './check-layers.mjs';
import { workTreeFiles } from './work-tree.mjs';

const root = path.resolve(import.meta.dirname, '..');

describe("the repository's imports", () => {
  const files = Object.fromEntries(
    workTreeFiles('src').map((file) => [file, /\.tsx?$/.test(file) ? readFileSync(path.join(root, file), 'utf8') : '']),
  );
  const isFile = (file) =>
    file in files || (existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile());

  it('keep to the allow-list, with no known debt and no folder cycle', () => {
    const { problems, debt, cycles } = checkLayers(files, LAYERS, isFile);
    expect(problems).toEqual([]);
    expect(debt).toEqual([]);
    expect(cycles).toEqual([]);
  }, 30_000);

  it("agree with DEVELOPERS.md's Layout and generated Layers table", () => {
    expect(developersProblems(readFileSync(path.join(root, 'DEVELOPERS.md'), 'utf8'))).toEqual([]);
  });
});

const LAYERS_HERE = {
  'src/limits.ts': [],
  'src/lib/': [],
  'src/lib/i18n.ts': ['webextension-polyfill'],
  'src/state/': ['src/lib/', 'src/limits.ts', 'valibot', { to: 'src/colab/hosts.ts', debt: 'goes when hosts move' }],
  'src/state/store.ts': ['webextension-polyfill'],
  'src/colab/': ['src/state/', 'src/lib/'],
};
const check = (files) => checkLayers(files, LAYERS_HERE);

describe('checkLayers', () => {
  const base = {
    'src/limits.ts': 'export const MAX = 1;',
    'src/lib/units.ts': 'export const unit = 1;',
    'src/lib/i18n.ts': "import browser from 'webextension-polyfill';\nexport const t = browser;",
    'src/state/policy.ts':
      "import * as v from 'valibot';\nimport { MAX } from '../limits';\nexport const p = [v, MAX];",
    'src/state/notebook-key.ts': "import { isColabHost } from '../colab/hosts';\nexport const k = isColabHost;",
    'src/state/store.ts':
      "import browser from 'webextension-polyfill';\nimport { p } from './policy';\nexport { browser, p };",
    'src/colab/hosts.ts': 'export const isColabHost = () => true;',
    'src/colab/cells.ts': "import { p } from '../state/policy';\nexport const c = p;",
  };

  it('passes imports the rooms list, a file row importing its own folder, and reports the debt in use', () => {
    const { problems, debt, cycles } = check(base);
    expect(problems).toEqual([]);
    expect(debt).toEqual([
      {
        from: 'src/state/',
        to: 'src/colab/hosts.ts',
        why: 'goes when hosts move',
        users: ['src/state/notebook-key.ts'],
      },
    ]);
    expect(cycles).toEqual(['src/colab/ → src/state/ → src/colab/']);
  });

  it('fails on a file in no room: a new folder, a new top-level file', () => {
    const { problems } = check({ ...base, 'src/site/hosts.ts': '', 'src/extra.ts': '' });
    expect(problems).toEqual([
      'src/extra.ts is in no room: add its folder or file to LAYERS (scripts/check-layers.mjs)',
      'src/site/hosts.ts is in no room: add its folder or file to LAYERS (scripts/check-layers.mjs)',
    ]);
  });

  it('fails on an import the room does not list, type-only, dynamic, re-exported or required alike', () => {
    const { problems } = check({
      ...base,
      'src/lib/a.ts': "import type { p } from '../state/policy';",
      'src/lib/b.ts': "export const q = () => import('../state/policy');",
      'src/lib/c.ts': "export * from '../colab/cells';",
      'src/lib/d.ts': "type T = import('../limits').X;",
      'src/lib/e.ts': "const b = require('webextension-polyfill');",
    });
    expect(problems[0]).toBe(
      "src/lib/a.ts imports '../state/policy' (in src/state/): src/lib/ may import nothing (DEVELOPERS.md, Layers)",
    );
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      "src/lib/a.ts imports '../state/policy' (in src/state/)",
      "src/lib/b.ts imports '../state/policy' (in src/state/)",
      "src/lib/c.ts imports '../colab/cells' (in src/colab/)",
      "src/lib/d.ts imports '../limits' (in src/limits.ts)",
      "src/lib/e.ts imports 'webextension-polyfill' (the package webextension-polyfill)",
    ]);
  });

  it('holds a file row to its own rules: the adapter is not its folder, the browser API only where listed', () => {
    const { problems } = check({
      ...base,
      'src/colab/save.ts': "import { browser } from '../state/store';",
      'src/colab/t.ts': "import { t } from '../lib/i18n';",
      'src/state/key.ts': "import browser from 'webextension-polyfill';",
    });
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      "src/colab/save.ts imports '../state/store' (in src/state/store.ts)",
      "src/colab/t.ts imports '../lib/i18n' (in src/lib/i18n.ts)",
      "src/state/key.ts imports 'webextension-polyfill' (the package webextension-polyfill)",
    ]);
  });

  it('fails on an import of no file, a computed import, and a debt nothing uses any more', () => {
    const { problems, debt } = check({
      ...base,
      'src/state/notebook-key.ts': 'export const k = 1;\nexport const m = (x: string) => import(x);',
      'src/colab/gone.ts': "import { x } from './nowhere';",
    });
    expect(debt).toEqual([]);
    expect(problems).toEqual([
      "src/colab/gone.ts imports './nowhere', which is no file of the repository",
      'src/state/notebook-key.ts:2: an import whose module is computed cannot be checked',
      'src/state/ → src/colab/hosts.ts is listed as debt but nothing imports it: remove it from LAYERS',
    ]);
  });

  it('does not read tests, which may import what their subject needs', () => {
    expect(check({ ...base, 'src/lib/units.test.ts': "import { c } from '../colab/cells';" }).problems).toEqual([]);
  });
});

describe('tableProblems', () => {
  it('fails on two folders allowed each other and an entry naming no room; debt makes no cycle', () => {
    expect(
      tableProblems({
        'src/a/': ['src/b/x.ts'],
        'src/b/': ['src/a/', 'src/c/', 'preact'],
        'src/d/': [{ to: 'src/a/', debt: 'goes' }],
        'src/a/own.ts': ['src/d/'],
      }),
    ).toEqual([
      'LAYERS: src/b/ lists src/c/, which is in no room',
      'LAYERS: the allowances make a cycle: src/a/ → src/b/ → src/a/',
    ]);
  });
});

describe('folderCycles', () => {
  it('names each cycle once, from its first folder, and ignores a folder importing itself', () => {
    expect(
      folderCycles([
        ['src/b/', 'src/c/'],
        ['src/c/', 'src/a/'],
        ['src/a/', 'src/b/'],
        ['src/a/', 'src/a/'],
        ['src/d/', 'src/a/'],
      ]),
    ).toEqual(['src/a/ → src/b/ → src/c/ → src/a/']);
  });
});

describe('roomOf, packageName, importsOf', () => {
  it('finds the most specific room, and none outside the table', () => {
    expect(roomOf('src/state/store.ts', LAYERS_HERE)).toBe('src/state/store.ts');
    expect(roomOf('src/state/policy.ts', LAYERS_HERE)).toBe('src/state/');
    expect(roomOf('src/statefull/x.ts', LAYERS_HERE)).toBeUndefined();
  });

  it('names packages by their first part, or two for a scope', () => {
    expect([packageName('preact/hooks'), packageName('@webext-core/messaging/x'), packageName('valibot')]).toEqual([
      'preact',
      '@webext-core/messaging',
      'valibot',
    ]);
  });

  it('reads every kind of import once, and nothing in strings or comments', () => {
    const text = [
      "import a from './a';",
      "import type { B } from './b';",
      "export { c } from './c';",
      "// import d from './d';",
      'const s = "import e from \'./e\'";',
      "import './f.css';",
      'export const g = 1;',
    ].join('\n');
    expect(importsOf('x.ts', text)).toEqual({ specifiers: ['./a', './b', './c', './f.css'], unreadable: [] });
  });
});

describe('developersProblems', () => {
  const layout = (rows) => `# Dev\n\n## Layout\n\n| Path | What |\n| --- | --- |\n${rows}\n\n## Next\n`;

  it('passes the generated table and a Layout naming every folder and top-level file', () => {
    const rows = '| `src/lib/`, `src/limits.ts` | x |\n| `src/state/` | y |\n| `src/colab/` | z |';
    const markdown = `${layout(rows)}\n${layersMarkdown(LAYERS_HERE)}\n`;
    expect(developersProblems(markdown, LAYERS_HERE)).toEqual([]);
  });

  it('fails on a stale generated table, a room Layout lacks, and a Layout path that is no room', () => {
    const stale = layersMarkdown({ ...LAYERS_HERE, 'src/lib/': ['valibot'] });
    const markdown = `${layout('| `src/lib/`, `src/limits.ts` | x |\n| `src/state/`, `src/old/` | y |')}\n${stale}\n`;
    expect(developersProblems(markdown, LAYERS_HERE)).toEqual([
      'DEVELOPERS.md: the Layers table is not the allow-list: run node scripts/check-layers.mjs --write',
      'DEVELOPERS.md: Layout has no row for `src/colab/`',
      "DEVELOPERS.md: Layout's `src/old/` is no room",
    ]);
  });
});
