/**
 * Output frames report to their parent over postMessage, tagged with this channel name and the tab's token. Its own
 * module so that the output-frame script does not carry the message schemas (and their validator).
 */
export const FRAME_CHANNEL = 'colab-oom-guard/output-frame';

/**
 * Sent by the service worker to a tab's frames (`tabs.sendMessage`, out of reach of page scripts) when what its
 * output frames may post changed: a new top-frame document (new token), the guard or marker patterns switched. The
 * output frames ask again (`frame-hello`).
 */
export const FRAMES_CHANGED = 'colab-oom-guard/frames-changed';
