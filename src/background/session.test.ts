import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { applyRetentionDaily } from './retention';
import { browserSession } from './session';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

beforeEach(() => fakeBrowser.reset());

describe('the browser session', () => {
  it('is one id for the whole run of the browser, even asked for twice at once', async () => {
    const [a, b] = await Promise.all([browserSession(), browserSession()]);
    expect(a).toBe(b);
    expect(await browserSession()).toBe(a);
  });

  it('is another one after a browser restart (storage.session emptied)', async () => {
    const before = await browserSession();
    await fakeBrowser.storage.session.clear();
    expect(await browserSession()).not.toBe(before);
  });
});

describe('retention', () => {
  it('is applied at most once a day', async () => {
    const writer = { applyRetention: vi.fn(async () => ({ removed: 0, rewritten: 0 })) };
    const day = 24 * 60 * 60_000;
    const t0 = 1_800_000_000_000;
    const apply = (now: number) => applyRetentionDaily(writer as never, now);
    await apply(t0);
    await apply(t0);
    await apply(t0 + day - 1);
    expect(writer.applyRetention).toHaveBeenCalledTimes(1);
    await apply(t0 + day);
    expect(writer.applyRetention).toHaveBeenCalledTimes(2);
    expect(writer.applyRetention).toHaveBeenLastCalledWith(t0 + day, new Set());
    // A clock set back does not postpone it for good.
    await apply(t0);
    expect(writer.applyRetention).toHaveBeenCalledTimes(3);
  });

  it('is told which notebooks the tabs show, so that only scratch notebooks no tab shows go', async () => {
    const writer = { applyRetention: vi.fn(async () => ({ removed: 0, rewritten: 0 })) };
    await fakeBrowser.storage.session.set({ 'tab:3': 'scratch:3-abc', 'tab:4': 'drive:x', 'title:3': 'empty.ipynb' });
    await applyRetentionDaily(writer as never, 1_800_000_000_000);
    expect(writer.applyRetention).toHaveBeenCalledWith(1_800_000_000_000, new Set(['scratch:3-abc', 'drive:x']));
  });
});
