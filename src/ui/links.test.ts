import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINKS, REPO } from './links';

describe('LINKS', () => {
  it("are pages of the repository's own files on the main branch, and those files exist", () => {
    for (const link of Object.values(LINKS)) {
      expect(link.startsWith(`${REPO}/blob/main/`), link).toBe(true);
      const path = link.slice(`${REPO}/blob/main/`.length);
      expect(existsSync(resolve(import.meta.dirname, '../..', path)), path).toBe(true);
    }
  });
});
