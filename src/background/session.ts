import browser from 'webextension-polyfill';

/**
 * An id for this run of the browser, in storage.session, which the browser empties when it quits (and when the
 * extension is updated or reloaded: its pages get new scripts then, so they are new pages too). A countdown carries
 * the session that scheduled it, so that after a browser restart no restored tab, whatever its id, passes for the page
 * that owned it.
 */
const KEY = 'browserSession';
let creating: Promise<string> | null = null;

export async function browserSession(): Promise<string> {
  const stored = (await browser.storage.session.get(KEY))[KEY];
  if (typeof stored === 'string') return stored;
  // Two first events at once must not each create an id.
  creating ??= create().finally(() => {
    creating = null;
  });
  return creating;
}

async function create(): Promise<string> {
  const stored = (await browser.storage.session.get(KEY))[KEY];
  if (typeof stored === 'string') return stored;
  const id = crypto.randomUUID();
  await browser.storage.session.set({ [KEY]: id });
  return id;
}
