import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeWithPython } from './python-env';

/**
 * The Python helper's own unit tests (python/test_colab_oom_guard.py: stubbed google.colab and IPython), and its
 * one-line install from python/pyproject.toml. In CI a missing python3 fails these; elsewhere they are skipped, saying
 * so (python/python-env.ts).
 */

const ENV = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };

describeWithPython('the notebook helper python/colab_oom_guard.py', [], (python) => {
  it('passes its unit tests (python3 -m unittest)', { timeout: 120_000 }, () => {
    const run = spawnSync(python, ['-m', 'unittest', '-v', 'test_colab_oom_guard'], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      env: ENV,
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stderr).toMatch(/Ran [1-9]\d* tests?/);
  });
});

describeWithPython('pip install of the helper (python/pyproject.toml)', ['pip', 'setuptools', 'wheel'], (python) => {
  const work = mkdtempSync(join(tmpdir(), 'oom-guard-pip-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs colab_oom_guard as the package version, from the folder the README names', { timeout: 120_000 }, () => {
    // What `pip install "git+https://…#subdirectory=python"` builds, offline: the folder's tracked files, copied so
    // that setuptools' build folders land outside the work tree.
    const source = join(work, 'source');
    const target = join(work, 'target');
    const tracked = spawnSync('git', ['ls-files', '.'], { cwd: import.meta.dirname, encoding: 'utf8' }).stdout;
    expect(tracked.split('\n')).toEqual(expect.arrayContaining(['pyproject.toml', 'colab_oom_guard.py']));
    for (const file of ['pyproject.toml', 'colab_oom_guard.py']) {
      mkdirSync(source, { recursive: true });
      copyFileSync(join(import.meta.dirname, file), join(source, file));
    }
    const install = spawnSync(
      python,
      ['-m', 'pip', 'install', '--no-build-isolation', '--no-deps', '--no-index', '--target', target, source],
      { cwd: work, encoding: 'utf8', env: { ...ENV, PIP_DISABLE_PIP_VERSION_CHECK: '1' } },
    );
    expect(install.status, `${install.stdout}${install.stderr}`).toBe(0);
    const imported = spawnSync(
      python,
      ['-c', 'import colab_oom_guard as g; print(g.__file__); print(g.__version__); print(callable(g.status))'],
      { cwd: tmpdir(), encoding: 'utf8', env: { ...ENV, PYTHONPATH: target } },
    );
    expect(imported.status, imported.stderr).toBe(0);
    const [file, version, callable] = imported.stdout.trim().split('\n');
    expect(file).toBe(join(target, 'colab_oom_guard.py'));
    const { version: packageVersion } = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(version).toBe(packageVersion);
    expect(callable).toBe('True');
  });
});
