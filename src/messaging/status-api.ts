import type { NotebookStatus } from '../state/status-shape';

/**
 * The notebook status API: public, stable, versioned. Code in a Colab output frame (typically run through
 * `google.colab.output.eval_js`) posts `{ colabOomGuard: 'status?', id }` to its own window; the output-frame script
 * answers on that window with `{ colabOomGuard: 'status', id, status }`. Checked by hand, not with valibot: the
 * output-frame script must stay small. Changing a field's meaning needs a new `v`; `python/colab_oom_guard.py`
 * reads version 1.
 */

export const STATUS_REQUEST = 'status?';
export const STATUS_ANSWER = 'status';

// What the answer holds is the state's (state/status-shape.ts, built by notebook-status.ts); this is its envelope.
export { type GuardedStatus, type NotebookStatus, STATUS_API_VERSION } from '../state/status-shape';

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
  // Any value: a primitive has neither field, null and undefined stop at `?.`.
  const request = data as Partial<Record<keyof StatusRequest, unknown>> | null | undefined;
  return (
    typeof request?.id === 'string' &&
    request.id.length <= MAX_STATUS_ID_CHARS &&
    request.colabOomGuard === STATUS_REQUEST
  );
}
