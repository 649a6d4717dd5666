import { describe, expect, it } from 'vitest';
import { DEBIAN_PACKAGES, findPython, isCi, missingPython } from './python-env';

describe("the Python tests' interpreter", () => {
  it('fails in CI when Python or a module is missing, naming what to install', () => {
    const missing = missingPython(['torch'], true);
    expect(missing.fail).toBe(true);
    expect(missing.message).toContain('python3 (3.8 or newer) with torch not found');
    expect(missing.message).toContain('apt-get install python3 ');
    expect(missing.message).toContain('python3-torch');
  });

  it('skips only outside CI, saying so', () => {
    expect(missingPython([], false)).toEqual({
      fail: false,
      message: expect.stringMatching(/^python3 \(3\.8 or newer\) not found: these tests are skipped outside CI/),
    });
  });

  it('reads CI as CI runners set it', () => {
    expect(isCi({ CI: 'true' })).toBe(true);
    expect(isCi({ CI: '1' })).toBe(true);
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: '' })).toBe(false);
    expect(isCi({ CI: 'false' })).toBe(false);
  });

  it('finds no interpreter that does not exist, nor one lacking a module', () => {
    expect(findPython([], ['/nonexistent/python3'])).toBeNull();
    expect(findPython(['no_such_module_colab_oom_guard'])).toBeNull();
    // One Python started per candidate: on a loaded 2-core machine that took 7 s.
  }, 60_000);

  it('lists python3 itself among the Debian packages CI installs', () => {
    expect(DEBIAN_PACKAGES).toContain('python3');
    expect(DEBIAN_PACKAGES).toContain('python3-torch');
  });
});
