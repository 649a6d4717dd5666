import { describe, expect, it } from 'vitest';
import {
  COLAB_MATCHES,
  COLAB_ORIGINS,
  expandColabPages,
  isColabOrigin,
  isColabUrl,
  isOutputFrameOrigin,
} from './origins';

// Written from REFERENCE.md §12.1 (the three hosts) and §4.2, §11 (output frames on googleusercontent.com), not from
// the list the module builds on.
const HOSTS = ['colab.research.google.com', 'colab.google.com', 'colab.sandbox.google.com'];

describe('Colab origins and match patterns', () => {
  it('names each of the three hosts as an https origin and a match pattern of all its pages', () => {
    expect([...COLAB_ORIGINS].sort()).toEqual(HOSTS.map((host) => `https://${host}`).sort());
    expect([...COLAB_MATCHES].sort()).toEqual(HOSTS.map((host) => `https://${host}/*`).sort());
  });

  it('accepts exactly the three origins: not http, a port, a path, a lookalike or a subdomain', () => {
    for (const host of HOSTS) expect(isColabOrigin(`https://${host}`)).toBe(true);
    for (const origin of [
      'http://colab.research.google.com',
      'https://colab.research.google.com:8443',
      'https://colab.research.google.com/',
      'https://colab.research.google.com.evil.example',
      'https://evil.colab.google.com',
      'https://research.google.com',
      '',
    ]) {
      expect(isColabOrigin(origin), origin).toBe(false);
    }
  });
});

describe('isColabUrl: a page of Colab on any of its hosts, whatever it shows', () => {
  it('accepts the address forms of §12.2 on each host', () => {
    for (const host of HOSTS) {
      for (const path of [
        '/drive/1AbC_d-E?authuser=1',
        '/github/owner/repo/blob/main/train.ipynb',
        '/gist/user/0123abcd/notebook.ipynb',
        '/notebooks/empty.ipynb#create=true',
        '/?hl=de',
        '/',
      ]) {
        expect(isColabUrl(`https://${host}${path}`), `${host}${path}`).toBe(true);
      }
    }
  });

  it('refuses no address, an unparsable one, plain http, other hosts and output frames', () => {
    for (const url of [
      undefined,
      '',
      'colab.research.google.com/drive/x',
      'not a url',
      'http://colab.research.google.com/drive/x',
      'https://colab.research.google.com.evil.example/drive/x',
      'https://drive.google.com/drive/x',
      'https://abc-0-colab.googleusercontent.com/outputframe.html',
      'chrome-extension://abcdefghijklmnop/src/popup/index.html',
    ]) {
      expect(isColabUrl(url), String(url)).toBe(false);
    }
  });
});

describe('isOutputFrameOrigin: the cross-origin output frames', () => {
  it('accepts the frame host forms seen on Colab (2019-2023 and 2025)', () => {
    expect(isOutputFrameOrigin('https://abc123-0-colab.googleusercontent.com')).toBe(true);
    expect(isOutputFrameOrigin('https://3sp2f9wz6cq-496ff2e9c6d22116-0-colab.googleusercontent.com')).toBe(true);
    expect(isOutputFrameOrigin('https://a.b.googleusercontent.com')).toBe(true);
  });

  it('refuses http, the bare domain, lookalikes, upper case, and other sites', () => {
    for (const origin of [
      'http://abc-0-colab.googleusercontent.com',
      'https://googleusercontent.com',
      'https://.googleusercontent.com',
      'https://abc-0-colab.googleusercontent.com.evil.example',
      'https://abc-0-colab.googleusercontentXcom',
      'https://abc_0.googleusercontent.com',
      'https://ABC-0-colab.googleusercontent.com',
      'https://evil.example/abc.googleusercontent.com',
      'ftp://abc.googleusercontent.com',
      'xhttps://abc.googleusercontent.com',
      'https://colab.research.google.com',
      '',
    ]) {
      expect(isOutputFrameOrigin(origin), origin).toBe(false);
    }
  });
});

describe('expandColabPages: the manifest placeholder', () => {
  it('puts the three hosts where the manifest writes <colab-pages>, keeping the other patterns in order', () => {
    expect(expandColabPages(['https://a.example/*', '<colab-pages>', 'https://b.example/*'])).toEqual([
      'https://a.example/*',
      ...HOSTS.map((host) => `https://${host}/*`),
      'https://b.example/*',
    ]);
  });

  it('throws, naming what it got, when the placeholder is missing', () => {
    expect(() => expandColabPages(['https://a.example/*', 'https://b.example/*'])).toThrow(
      /<colab-pages>.*https:\/\/a\.example\/\*, https:\/\/b\.example\/\*/,
    );
  });
});
