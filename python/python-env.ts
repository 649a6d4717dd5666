import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Finding a Python for the tests of python/: Debian's /usr/bin/python3 first (where `apt-get install python3-torch`
 * puts its modules, python/requirements-debian.txt), then `python3` on PATH; $PYTHON3 overrides both. In CI a
 * missing interpreter or module fails the suite; elsewhere the suite is skipped, saying so.
 */

export const DEBIAN_PACKAGES = readFileSync(resolve(import.meta.dirname, 'requirements-debian.txt'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

const CANDIDATES = process.env.PYTHON3 ? [process.env.PYTHON3] : ['/usr/bin/python3', 'python3'];

/** The first candidate that is Python 3.8 or newer and imports every one of `modules`, or null. */
export function findPython(modules: readonly string[], candidates: readonly string[] = CANDIDATES): string | null {
  // find_spec, not import: importing pip before setuptools trips Debian's distutils shim.
  const check = `import sys, importlib.util as u; assert sys.version_info >= (3, 8)
assert all(u.find_spec(name) for name in ${JSON.stringify(modules)})`;
  return candidates.find((python) => spawnSync(python, ['-c', check]).status === 0) ?? null;
}

/** What a suite does without its Python: fail in CI, where nothing may skip silently; elsewhere skip, saying so. */
export function missingPython(modules: readonly string[], ci: boolean): { fail: boolean; message: string } {
  const need = `python3 (3.8 or newer)${modules.length > 0 ? ` with ${modules.join(', ')}` : ''}`;
  const install = `apt-get install ${DEBIAN_PACKAGES.join(' ')}`;
  return ci
    ? { fail: true, message: `${need} not found, and CI must run these tests: ${install}` }
    : { fail: false, message: `${need} not found: these tests are skipped outside CI (${install})` };
}

export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI !== 'false';
}

/** `describe(title)` with the Python that imports `modules`; without one, a failing test in CI, a skip elsewhere. */
export function describeWithPython(title: string, modules: readonly string[], body: (python: string) => void): void {
  const python = findPython(modules);
  if (python !== null) {
    describe(title, () => body(python));
    return;
  }
  const missing = missingPython(modules, isCi());
  if (missing.fail) {
    describe(title, () => {
      it('has the Python it needs', () => {
        throw new Error(missing.message);
      });
    });
    return;
  }
  console.warn(`${title}: ${missing.message}`);
  describe.skip(title, () => body(''));
}

/** Runs `python -m unittest -v <module>` in `cwd` and expects every test to run and pass, none skipped. */
export function expectUnittestPasses(python: string, module: string, cwd: string): string {
  const run = spawnSync(python, ['-m', 'unittest', '-v', module], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
  expect(run.stderr).toMatch(/Ran [1-9]\d* tests?/);
  expect(run.stderr).not.toMatch(/skipped/);
  return run.stderr;
}
