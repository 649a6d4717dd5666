import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { COLAB_MATCHES } from '../site/origins';
import { injectIntoOpenTabs } from './reinject';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const manifest = {
  content_scripts: [
    { matches: COLAB_MATCHES, js: ['assets/page-script-loader.js'] },
    {
      matches: ['https://*.googleusercontent.com/outputframe.html*'],
      js: ['src/frame/frame-script.js'],
      all_frames: true,
    },
  ],
};

/** Chrome's match patterns, as tabs.query reads its `url` (the fake compares URLs for equality). */
function matches(pattern: string, url: string): boolean {
  const [, scheme, host, path] = /^(\*|https?):\/\/([^/]+)(\/.*)$/.exec(pattern) ?? [];
  if (!scheme || !host || !path) throw new Error(`not a match pattern: ${pattern}`);
  const glob = (text: string) =>
    text
      .split('*')
      .map((part) => part.replace(/[.?+^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
  const hostRe = host.startsWith('*.') ? `([^/]+\\.)?${glob(host.slice(2))}` : glob(host);
  return new RegExp(`^${scheme === '*' ? 'https?' : scheme}://${hostRe}${glob(path)}$`).test(url);
}

/** The frames of every Colab tab in these tests, as the probe (`func: () => location.href`) reads them. */
const FRAMES = [
  { frameId: 0, result: 'https://colab.research.google.com/drive/abc' },
  { frameId: 3, result: 'https://a1b2-0-colab.googleusercontent.com/outputframe.html?vrz=colab_20260325' },
  // A Google user-content page the notebook's own HTML embeds, and a frame its script wrote: not Colab's frames.
  { frameId: 4, result: 'https://script.googleusercontent.com/macros/echo?user_content_key=x' },
  { frameId: 5, result: 'about:blank' },
  { frameId: 6, result: 'https://a1b2-0-colab.googleusercontent.com/outputframe.html' },
];

describe('injecting into Colab tabs opened before an install or update', () => {
  const probeThenInject = async (details: { func?: () => unknown }) => (details.func ? FRAMES : []);
  const executeScript = vi.fn(probeThenInject);

  beforeEach(() => {
    fakeBrowser.reset();
    executeScript.mockReset();
    executeScript.mockImplementation(probeThenInject);
    Object.assign(fakeBrowser, { scripting: { executeScript } });
    vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue(manifest as never);
    // The fake's query compares URLs for equality; Chrome's reads `url` as a match pattern, which this filter is.
    const all = fakeBrowser.tabs.query.bind(fakeBrowser.tabs);
    vi.spyOn(fakeBrowser.tabs, 'query').mockImplementation((async (info: { url?: string | string[] }) => {
      const tabs = await all({});
      if (info.url === undefined) return tabs;
      const patterns = [info.url].flat();
      return tabs.filter((tab) => tab.url && patterns.some((pattern) => matches(pattern, tab.url!)));
    }) as never);
  });

  it('matches Colab notebooks only', () => {
    const colab = 'https://colab.research.google.com/*';
    expect(matches(colab, 'https://colab.research.google.com/drive/abc')).toBe(true);
    expect(matches(colab, 'https://colab.research.google.com.evil.example/drive/abc')).toBe(false);
    expect(matches(colab, 'https://x-0-colab.googleusercontent.com/outputframe.html')).toBe(false);
  });

  it("injects the page script into each Colab tab's top frame, the frame script into its output frames", async () => {
    const colab = await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/abc' });
    await fakeBrowser.tabs.create({ url: 'https://example.com/' });
    await fakeBrowser.tabs.create({ url: 'https://colab.google/notebooks' });
    expect(await injectIntoOpenTabs()).toBe(2);
    const files = executeScript.mock.calls.map(([details]) => details).filter((details) => !details.func);
    expect(files).toEqual([
      { target: { tabId: colab.id, allFrames: false }, files: ['assets/page-script-loader.js'] },
      { target: { tabId: colab.id, frameIds: [3, 6] }, files: ['src/frame/frame-script.js'] },
    ]);
  });

  it('injects into Colab tabs on each of its domains', async () => {
    const hosts = ['colab.research.google.com', 'colab.google.com', 'colab.sandbox.google.com'];
    const tabs = await Promise.all(hosts.map((host) => fakeBrowser.tabs.create({ url: `https://${host}/drive/a` })));
    executeScript.mockImplementation(async (details) => (details.func ? FRAMES.slice(0, 1) : []));
    expect(await injectIntoOpenTabs()).toBe(3);
    const injected = executeScript.mock.calls
      .map(([details]) => details as { func?: unknown; target?: unknown })
      .filter((details) => !details.func)
      .map((details) => details.target);
    expect(injected).toEqual(tabs.map((tab) => ({ tabId: tab.id, allFrames: false })));
  });

  it('injects the frame script nowhere in a tab without output frames', async () => {
    await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/abc' });
    executeScript.mockImplementation(async (details) => (details.func ? FRAMES.slice(0, 1) : []));
    expect(await injectIntoOpenTabs()).toBe(1);
    expect(executeScript.mock.calls.filter(([details]) => !details.func)).toHaveLength(1);
  });

  it('goes on past a tab it cannot inject into', async () => {
    await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/a' });
    await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/b' });
    executeScript
      .mockRejectedValueOnce(new Error('Frame with ID 0 is showing error page'))
      .mockRejectedValueOnce(new Error('x'));
    // Tab a: both scripts fail; tab b: both are injected.
    expect(await injectIntoOpenTabs()).toBe(2);
  });
});
