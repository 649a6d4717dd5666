import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * The Python helper's own unit tests (python/test_colab_oom_guard.py: a stubbed google.colab.output.eval_js), run
 * with `npm test` and `npx vitest run` wherever Python 3 is installed.
 */
const found = spawnSync('python3', ['-c', 'import sys; assert sys.version_info >= (3, 8)']).status === 0;
if (!found) console.warn('python3 (3.8 or newer) not found: the unit tests of python/colab_oom_guard.py are skipped');

describe.skipIf(!found)('the notebook helper python/colab_oom_guard.py', () => {
  it('passes its unit tests (python3 -m unittest)', () => {
    const run = spawnSync('python3', ['-m', 'unittest', '-v', 'test_colab_oom_guard'], {
      cwd: import.meta.dirname,
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    expect(run.stderr).toMatch(/Ran [1-9]\d* tests?/);
  });
});
