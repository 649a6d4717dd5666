import { describe, expect, it } from 'vitest';
import manifest from '../../manifest.json' with { type: 'json' };
import { expandColabPages } from '../site/origins';
import { matchesPattern } from './match-pattern';

const [pageSource, framePatterns] = manifest.content_scripts.map((script) => script.matches);
// As the build writes them (vite.config.ts).
const pagePatterns = expandColabPages(pageSource ?? []);
const hostPermissions = expandColabPages(manifest.host_permissions);
const FRAME_HOST = 'https://2kkcb3ngq8o-496ff2e9c6d22116-0-colab.googleusercontent.com';

describe("the manifest's content-script matches", () => {
  const frames = (url: string) => (framePatterns ?? []).some((pattern) => matchesPattern(pattern, url));
  const pages = (url: string) => (pagePatterns ?? []).some((pattern) => matchesPattern(pattern, url));

  it("name Colab's output frames, with or without their query (REFERENCE §4.2, #16)", () => {
    expect(frames(`${FRAME_HOST}/outputframe.html?vrz=colab_20250909-060057_RC00_804958346`)).toBe(true);
    expect(frames('https://abc-0-colab.googleusercontent.com/outputframe.html')).toBe(true);
    expect(frames('https://abc.googleusercontent.com/outputframe.html#fragment')).toBe(true);
  });

  it('name no other Google user-content page: Apps Script sidebars, Sites embeds, Drive previews', () => {
    expect(frames('https://n-abc123-0lu-script.googleusercontent.com/userCodeAppPanel')).toBe(false);
    expect(frames('https://script.googleusercontent.com/macros/echo?user_content_key=abc')).toBe(false);
    expect(frames('https://doc-0s-9c-docs.googleusercontent.com/docs/securesc/abc/outputframe.html')).toBe(false);
    expect(frames('https://lh3.googleusercontent.com/outputframe.htm')).toBe(false);
    expect(frames('http://abc-0-colab.googleusercontent.com/outputframe.html')).toBe(false);
    expect(frames('https://googleusercontent.com.evil.test/outputframe.html')).toBe(false);
    expect(frames('https://evilgoogleusercontent.com/outputframe.html')).toBe(false);
    expect(frames('about:blank')).toBe(false);
  });

  it('name Colab pages on each of its domains for the page script, and nothing on the frame hosts', () => {
    expect(pages('https://colab.research.google.com/drive/abc?authuser=1#scrollTo=x')).toBe(true);
    expect(pages('https://colab.google.com/notebooks/empty.ipynb#mcpProxyToken=t&mcpProxyPort=8')).toBe(true);
    expect(pages('https://colab.sandbox.google.com/gist/someone/0123abc/nb.ipynb')).toBe(true);
    expect(pages('https://colab.google/drive/abc')).toBe(false);
    expect(pages('http://colab.google.com/drive/abc')).toBe(false);
    expect(pages('https://colab.research.google.com.evil.test/drive/abc')).toBe(false);
    expect(pages(`${FRAME_HOST}/outputframe.html`)).toBe(false);
  });
});

describe("the manifest's host permissions", () => {
  it("are Colab's pages on each of its domains and its output frames", () => {
    const allowed = (url: string) => hostPermissions.some((pattern) => matchesPattern(pattern, url));
    for (const host of ['colab.research.google.com', 'colab.google.com', 'colab.sandbox.google.com']) {
      expect(allowed(`https://${host}/drive/abc`)).toBe(true);
    }
    expect(allowed(`${FRAME_HOST}/outputframe.html?vrz=x`)).toBe(true);
    expect(allowed('https://colab.google/')).toBe(false);
  });
});

describe('matchesPattern', () => {
  it('reads scheme `*` as http and https, and `*.host` as the host and its subdomains', () => {
    expect(matchesPattern('*://*.example.com/*', 'http://example.com/')).toBe(true);
    expect(matchesPattern('*://*.example.com/*', 'https://a.b.example.com/x')).toBe(true);
    expect(matchesPattern('*://*.example.com/*', 'ftp://example.com/')).toBe(false);
    expect(matchesPattern('https://*/*', 'https://anything.test/')).toBe(true);
  });

  it('matches nothing for what it does not read', () => {
    expect(matchesPattern('<all_urls>', 'https://example.com/')).toBe(false);
    expect(matchesPattern('https://example.com/*', 'not a url')).toBe(false);
  });
});
