import browser from 'webextension-polyfill';
import type { AlertDataCategory } from '../state/alerts';

/**
 * Firefox's consent to the data an extension sends, by category (the manifest's optional
 * `data_collection_permissions`, asked for like a permission). Chrome has none: there the answer is always yes. Firefox
 * names `data_collection` in `permissions.getAll()`, which is how it is told apart.
 */
export async function asksDataConsent(): Promise<boolean> {
  return 'data_collection' in (await browser.permissions.getAll());
}

export async function hasDataConsent(categories: AlertDataCategory[]): Promise<boolean> {
  return !(await asksDataConsent()) || browser.permissions.contains({ data_collection: categories });
}

/** Consent no longer needed is given back, as a host permission is. */
export async function giveBackDataConsent(categories: AlertDataCategory[]): Promise<void> {
  if (!(await asksDataConsent())) return;
  await browser.permissions.remove({ data_collection: categories }).catch(() => undefined);
}
