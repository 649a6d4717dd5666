import browser from 'webextension-polyfill';
import { DAY_MS } from '../lib/units';
import type { NotebookWriter } from '../state/store';
import { notebooksIn } from '../state/tab-registry';

/**
 * Applies the retention rules (state/retention.ts) at most once a day, on the first page hello of the day: no timer
 * of its own, and a browser left open for weeks still gets it.
 */
const KEY = 'retentionAppliedAt';

export async function applyRetentionDaily(writer: NotebookWriter, now = Date.now()): Promise<void> {
  const session = await browser.storage.session.get(null);
  const last = session[KEY];
  if (typeof last === 'number' && now - last < DAY_MS && now >= last) return;
  await browser.storage.session.set({ [KEY]: now });
  await writer.applyRetention(now, notebooksIn(session));
}
