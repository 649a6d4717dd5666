/**
 * What the notebook status API (messaging/status-api.ts) answers, made by notebook-status.ts: public and versioned
 * (`python/colab_oom_guard.py` reads version 1). Changing a field's meaning needs a new `v`.
 */
export const STATUS_API_VERSION = 1;

/**
 * What a notebook learns about itself. Of a notebook the guard is not on for, that and nothing else: no limits, no
 * settings (the user's choices stay the user's until the notebook is guarded).
 */
export type NotebookStatus = { v: typeof STATUS_API_VERSION; guarded: false } | GuardedStatus;

export interface GuardedStatus {
  v: typeof STATUS_API_VERSION;
  /** The guard is on for this notebook. */
  guarded: true;
  /** Restarts in the current crash loop (a healthy stretch resets it), and the limit the guard stops at. */
  restarts: number;
  maxRestarts: number;
  /** Every restart the guard made for this notebook while its record is kept. */
  totalRestarts: number;
  /** The last failure the guard acted on: its category as the options page names it, the matched line, when. */
  lastFailure: { kind: string; line: string; at: string } | null;
  /** ISO 8601, when the last restart was claimed. */
  lastRestartAt: string | null;
}
