import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { notebookAddress } from './notebook-address';
import { notebookKeyFromUrl } from './notebook-key';

describe('notebook addresses', () => {
  it('open the notebook each kind of key names', () => {
    expect(notebookAddress('drive:1AbC_def-2')).toBe('https://colab.research.google.com/drive/1AbC_def-2');
    expect(notebookAddress('github:owner/repo/main/nbs/train')).toBe(
      'https://colab.research.google.com/github/owner/repo/blob/main/nbs/train.ipynb',
    );
    expect(notebookAddress('notebooks:intro')).toBe('https://colab.research.google.com/notebooks/intro.ipynb');
    expect(notebookAddress('url:https://example.org/a b.ipynb')).toBe(
      'https://colab.research.google.com/#fileId=https%3A%2F%2Fexample.org%2Fa%20b.ipynb',
    );
  });

  it('give none where the key keeps too little: a gist, a scratch notebook', () => {
    expect(notebookAddress('gist:abc123/train')).toBeNull();
    expect(notebookAddress('scratch:12-3.5')).toBeNull();
  });

  it('read back as the same key', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/).filter((s) => !['.', '..', 'empty'].includes(s));
    const keys = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).map((id) => `drive:${id}`),
      fc
        .tuple(segment, segment, fc.array(segment, { minLength: 2, maxLength: 4 }))
        .map(([o, r, p]) => `github:${o.toLowerCase()}/${r.toLowerCase()}/${p.join('/')}`),
      fc.array(segment, { minLength: 1, maxLength: 3 }).map((p) => `notebooks:${p.join('/')}`),
    );
    fc.assert(
      fc.property(keys, (key) => {
        const address = notebookAddress(key);
        return address !== null && notebookKeyFromUrl(address) === key;
      }),
    );
  });
});
