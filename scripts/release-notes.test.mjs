import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseNotes } from './release-notes.mjs';

const CHANGELOG = `# Changelog

## [Unreleased]

- Not yet.

## [0.2.0] - 2027-01-15

### Added

- Updating keeps the notebooks.

## [0.1.0] - 2026-12-01

- The first release.

[0.2.0]: https://example.org/compare/v0.1.0...v0.2.0
[0.1.0]: https://example.org/releases/tag/v0.1.0
`;

describe('releaseNotes', () => {
  it("is the version's section, without its heading, up to the next version", () => {
    expect(releaseNotes(CHANGELOG, '0.2.0')).toBe('### Added\n\n- Updating keeps the notebooks.');
  });

  it('leaves out the link references at the end of the file', () => {
    expect(releaseNotes(CHANGELOG, '0.1.0')).toBe('- The first release.');
  });

  it('is undefined for a version the changelog does not have (no prefix match either)', () => {
    expect(releaseNotes(CHANGELOG, '0.3.0')).toBeUndefined();
    expect(releaseNotes(CHANGELOG, '0.1')).toBeUndefined();
  });
});

describe("the repository's CHANGELOG.md", () => {
  const changelog = readFileSync(path.join(import.meta.dirname, '..', 'CHANGELOG.md'), 'utf8');
  const versions = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((match) => match[1]);

  it('has a section per version, newest first, each dated once released, in the shape release-notes.mjs reads', () => {
    expect(versions[0]).toBe('Unreleased');
    for (const heading of changelog.split('\n').filter((line) => line.startsWith('## '))) {
      expect(heading).toMatch(/^## \[(Unreleased|\d+\.\d+\.\d+)\]( - \d{4}-\d{2}-\d{2})?$/);
    }
  });

  it("gives every version's notes, for people: what changed for them, not how it was built", () => {
    for (const version of versions) {
      const notes = releaseNotes(changelog, version) ?? '';
      expect(notes.length, version).toBeGreaterThan(200);
      // A development log names tests, benches and code; the notes of a version name what a person sees.
      expect(notes, version).not.toMatch(/\bnpm run (bench|test:mutation)\b|\bStryker\b|\bissue \d+\b|\bsrc\//);
    }
  });
});
