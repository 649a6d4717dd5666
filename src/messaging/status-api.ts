/**
 * The notebook status API: public, stable, versioned. Code in a Colab output frame (typically run through
 * `google.colab.output.eval_js`) posts `{ colabOomGuard: 'status?', id }` to its own window; the output-frame script
 * answers on that window with `{ colabOomGuard: 'status', id, status }`. Checked by hand, not with valibot: the
 * output-frame script must stay small. Changing a field's meaning needs a new `v`; `python/colab_oom_guard.py`
 * reads version 1.
 */

export const STATUS_API_VERSION = 1;
export const STATUS_REQUEST = 'status?';
export const STATUS_ANSWER = 'status';

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

/** A request's `id` is echoed in its answer: a longer one is refused (no answer), so nobody makes the frame copy it. */
export const MAX_STATUS_ID_CHARS = 200;

export interface StatusRequest {
  colabOomGuard: typeof STATUS_REQUEST;
  id: string;
}

export interface StatusAnswer {
  colabOomGuard: typeof STATUS_ANSWER;
  id: string;
  status: NotebookStatus;
}

export function isStatusRequest(data: unknown): data is StatusRequest {
  if (typeof data !== 'object' || data === null) return false;
  const { colabOomGuard, id } = data as Partial<Record<keyof StatusRequest, unknown>>;
  return colabOomGuard === STATUS_REQUEST && typeof id === 'string' && id.length <= MAX_STATUS_ID_CHARS;
}
