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
