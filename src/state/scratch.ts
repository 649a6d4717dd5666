import { notebookKeyFromUrl, notebookOfUrl, SCRATCH_PREFIX } from './notebook-key';

/**
 * Scratch notebooks (notebook-key.ts says which addresses show one): their keys are `scratch:<tabId>-<pageId>`, made
 * by the service worker from the tab and the page document that shows one.
 */

/** Whether the address shows a scratch notebook (a new one each time it is opened). */
export function isScratchUrl(url: string): boolean {
  return notebookOfUrl(url) === SCRATCH_PREFIX;
}

export function isScratchKey(key: string): boolean {
  return key.startsWith(SCRATCH_PREFIX);
}

/** Whether the address can show the notebook `key`: its own address, or any scratch address for a scratch key. */
export function urlShowsNotebook(url: string, key: string): boolean {
  return isScratchKey(key) ? isScratchUrl(url) : notebookKeyFromUrl(url) === key;
}
