import { it } from 'vitest';
import { describeWithPython, expectUnittestPasses } from './python-env';

/**
 * Every Python snippet of README.md and docs/ runs (python/test_doc_snippets.py): each page's blocks as the cells of
 * one notebook, against python/colab_oom_guard.py and the recipes, with google.colab faked; the status snippets once
 * per answer the extension can give (guarded, off, none). A snippet that raises, a KeyError in a doc included, fails.
 */

describeWithPython('the Python snippets in README.md and docs/', ['numpy', 'torch'], (python) => {
  it('run as notebook cells, whatever the extension answers', { timeout: 900_000 }, () => {
    expectUnittestPasses(python, 'test_doc_snippets', import.meta.dirname);
  });
});
