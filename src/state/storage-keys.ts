import { NOTEBOOK_KEY_MAX_LENGTH } from '../limits';

/** Where each notebook's record lives in `storage.local`: `nb:<notebook key>`. */
export const NOTEBOOK_PREFIX = 'nb:';

export function notebookStorageKey(key: string): string {
  return NOTEBOOK_PREFIX + key;
}

/** What a notebook key looks like. The schema's NotebookKeySchema is built from these. */
export const NOTEBOOK_KEY_PATTERN = /^(?:drive|github|gist|notebooks|url|scratch):./;

/**
 * Characters that can make shown text lie about itself: C0 and C1 controls, line and paragraph separators, and the
 * bidirectional marks, embeddings, overrides and isolates (an override can show "gnp.ipynb" for "bnpi.png").
 */
const UNSAFE_TEXT = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/u;
const ALL_UNSAFE_TEXT = new RegExp(UNSAFE_TEXT.source, 'gu');

export function hasUnsafeText(text: string): boolean {
  return UNSAFE_TEXT.test(text);
}

/** Titles are only shown, so the unsafe characters are removed; keys name storage, so they are refused instead. */
export function withoutUnsafeText(text: string): string {
  return text.replace(ALL_UNSAFE_TEXT, '');
}

/** The same rule as NotebookKeySchema, without the validation library (the small Colab page script uses it). */
export function isNotebookKey(key: string): boolean {
  return key.length <= NOTEBOOK_KEY_MAX_LENGTH && NOTEBOOK_KEY_PATTERN.test(key) && !hasUnsafeText(key);
}
