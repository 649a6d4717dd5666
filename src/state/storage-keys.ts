/** Where each notebook's record lives in `storage.local`: `nb:<notebook key>`. */
export const NOTEBOOK_PREFIX = 'nb:';

export function notebookStorageKey(key: string): string {
  return NOTEBOOK_PREFIX + key;
}
