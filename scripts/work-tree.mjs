// What the checks and the mutation scripts read of the repository: the files of its work tree that git knows or would
// take (tracked, and untracked but not ignored), leaving out a file deleted but not yet staged.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The work tree's files under `dir` (the whole repository by default), as paths from its root. */
export function workTreeFiles(dir = '.') {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', dir], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\0')
    .filter((file) => file && existsSync(path.join(ROOT, file)));
}
