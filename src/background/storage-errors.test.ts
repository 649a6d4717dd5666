import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_ERRORS_KEY } from '../state/schema';
import { clearStorageErrors, recordStorageError } from './storage-errors';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const listed = async () =>
  ((await fakeBrowser.storage.session.get(STORAGE_ERRORS_KEY))[STORAGE_ERRORS_KEY] ?? []) as Array<{ lost: string }>;

describe('writes the browser refused, listed for the popup', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps the last 20, in order, even recorded all at once, until dismissed', async () => {
    await Promise.all(Array.from({ length: 23 }, (_, i) => recordStorageError('it is full', `lost ${i}`, i)));
    const kept = await listed();
    expect(kept.map((e) => e.lost)).toEqual(Array.from({ length: 20 }, (_, i) => `lost ${i + 3}`));
    await clearStorageErrors();
    expect(await listed()).toEqual([]);
  });

  it('cuts what it keeps to what the popup shows', async () => {
    await recordStorageError('m'.repeat(3000), 'l'.repeat(3000), 1);
    const [entry] = (await listed()) as Array<{ message: string; lost: string; at: number }>;
    expect(entry).toMatchObject({ at: 1 });
    expect(entry!.message).toHaveLength(2000);
    expect(entry!.lost).toHaveLength(1000);
  });
});
