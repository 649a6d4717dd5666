import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { injectIntoOpenTabs } from './reinject';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const manifest = {
  content_scripts: [
    { matches: ['https://colab.research.google.com/*'], js: ['assets/colab-page-loader.js'] },
    { matches: ['https://*.googleusercontent.com/*'], js: ['src/content/output-frame.js'], all_frames: true },
  ],
};

describe('injecting into Colab tabs opened before an install or update', () => {
  const executeScript = vi.fn(async () => []);

  beforeEach(() => {
    fakeBrowser.reset();
    executeScript.mockClear();
    Object.assign(fakeBrowser, { scripting: { executeScript } });
    vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue(manifest as never);
  });

  it('injects the page script into the top frame and the frame script into all frames of each Colab tab', async () => {
    const colab = await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/abc' });
    await fakeBrowser.tabs.create({ url: 'https://example.com/' });
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([colab] as never);
    expect(await injectIntoOpenTabs()).toBe(2);
    expect(executeScript).toHaveBeenCalledWith({
      target: { tabId: colab.id, allFrames: false },
      files: ['assets/colab-page-loader.js'],
    });
    expect(executeScript).toHaveBeenCalledWith({
      target: { tabId: colab.id, allFrames: true },
      files: ['src/content/output-frame.js'],
    });
  });

  it('goes on past a tab it cannot inject into', async () => {
    const first = await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/a' });
    const second = await fakeBrowser.tabs.create({ url: 'https://colab.research.google.com/drive/b' });
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([first, second] as never);
    executeScript
      .mockRejectedValueOnce(new Error('Frame with ID 0 is showing error page'))
      .mockRejectedValueOnce(new Error('x'));
    expect(await injectIntoOpenTabs()).toBe(2);
  });
});
