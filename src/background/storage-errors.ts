import browser from 'webextension-polyfill';
import { cut, STORAGE_ERRORS_LIMIT, TEXT_LIMITS } from '../limits';
import { parseStorageErrors, STORAGE_ERRORS_KEY } from '../state/schema';

/**
 * Writes the browser refused (storage full), kept for the popup and the options page to show until the user
 * dismisses them: overnight, a failure report that could not be saved must not vanish unseen. In storage.session,
 * which has its own quota, because storage.local is the one that is full.
 */

let chain: Promise<unknown> = Promise.resolve();

export function recordStorageError(message: string, lost: string, now = Date.now()): Promise<void> {
  const task = chain.then(async () => {
    const errors = parseStorageErrors((await browser.storage.session.get(STORAGE_ERRORS_KEY))[STORAGE_ERRORS_KEY]);
    const entry = { at: now, message: cut(message, TEXT_LIMITS.problem), lost: cut(lost, TEXT_LIMITS.detail) };
    await browser.storage.session.set({ [STORAGE_ERRORS_KEY]: [...errors, entry].slice(-STORAGE_ERRORS_LIMIT) });
  });
  chain = task.catch(() => undefined);
  return task;
}

export async function clearStorageErrors(): Promise<void> {
  await browser.storage.session.remove(STORAGE_ERRORS_KEY);
}
