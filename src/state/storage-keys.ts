import { NOTEBOOK_KEY_MAX_LENGTH } from '../limits';

/** Where each notebook's record lives in `storage.local`: `nb:<notebook key>`. */
export const NOTEBOOK_PREFIX = 'nb:';

export function notebookStorageKey(key: string): string {
  return NOTEBOOK_PREFIX + key;
}

/** What a notebook key looks like. The schema's NotebookKeySchema is built from these. */
export const NOTEBOOK_KEY_PATTERN = /^(?:drive|github|gist|notebooks|url):./;

/** The same rule as NotebookKeySchema, without the validation library (the small Colab page script uses it). */
export function isNotebookKey(key: string): boolean {
  return key.length <= NOTEBOOK_KEY_MAX_LENGTH && NOTEBOOK_KEY_PATTERN.test(key);
}
