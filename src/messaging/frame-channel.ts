/**
 * Output frames report to their parent over postMessage, tagged with this channel name and the tab's token, and
 * carrying a port (frame-reporter.ts). Its own module so that the output-frame script does not carry the message
 * schemas (and their validator).
 */
export const FRAME_CHANNEL = 'colab-oom-guard/output-frame';

/**
 * Sent by the service worker to a tab's frames (`tabs.sendMessage`, out of reach of page scripts) when what its
 * output frames may post changed: a new top-frame document (new token), the guard or marker patterns switched. The
 * output frames ask again (`frame-hello`).
 */
export const FRAMES_CHANGED = 'colab-oom-guard/frames-changed';

/**
 * The top frame asks an output frame for the end of its stream output when the frame's cell stops. The
 * request carries no secret (scripts in the frame see messages to it); the answer is a report, token and all.
 */
export interface StreamTailRequest {
  channel: typeof FRAME_CHANNEL;
  ask: 'stream-tail';
  /** Echoed in the answer, so the top frame knows which request (which frame, which execution) it answers. */
  id: number;
}

export function streamTailRequest(id: number): StreamTailRequest {
  return { channel: FRAME_CHANNEL, ask: 'stream-tail', id };
}

export function isStreamTailRequest(data: unknown): data is StreamTailRequest {
  // Any value: a primitive has no `channel`, null and undefined stop at `?.`.
  const request = data as Partial<StreamTailRequest> | null | undefined;
  return request?.channel === FRAME_CHANNEL && request.ask === 'stream-tail' && Number.isSafeInteger(request.id);
}
