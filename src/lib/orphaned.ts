/**
 * Whether a failed call to the extension's API means the extension was updated or removed under this page: the
 * script is orphaned and must stop acting. `runtime` is the caller's runtime API (the frame script takes its own).
 */
export function isOrphaned(runtime: { id?: string }, error: unknown): boolean {
  return !runtime.id || /context invalidated/i.test(String(error));
}

/** The extension was updated or removed under this page: this script is orphaned and must stop acting. */
export class OrphanedError extends Error {}
