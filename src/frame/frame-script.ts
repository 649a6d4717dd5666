import { isOrphaned } from '../lib/orphaned';
import type { FrameMessage, ReplyTo } from '../messaging/protocol';
import { OUTPUT_FRAME_PATH } from '../site/origins';
import { frameArrivals } from './arrivals';
import { runtime } from './browser-runtime';
import { type AskWorker, reportWhileGuarded } from './report-to-page';
import { answerStatusRequests } from './status-answerer';

/**
 * Runs inside Colab's cross-origin output frames (the manifest injects it into `/outputframe.html` only):
 * - while the guard is on for the notebook, hands error outputs (and with marker patterns all output text) to the
 *   Colab page above, which alone decides (report-to-page.ts). The frame matches nothing itself, so it carries
 *   neither the rules nor the pattern engine.
 * - answers the notebook's own code asking for its status (status-answerer.ts).
 * Everything lives as long as `context`: an update or removal of the extension orphans the script and ends it.
 */
function main() {
  // Colab's own frames sit right under the notebook page; an output frame nested in an output is the notebook's.
  // The scheme and host are the manifest's match pattern (https, googleusercontent.com, reinject.ts uses it too):
  // only its `outputframe.html*` path is looser than Colab's.
  const { parent } = window;
  if (parent === window || parent !== window.top || location.pathname !== OUTPUT_FRAME_PATH) return;
  const context = new AbortController();
  const ask: AskWorker = async <M extends FrameMessage>(message: M) => {
    try {
      return (await runtime.sendMessage(message)) as ReplyTo<M>;
    } catch (error) {
      if (isOrphaned(runtime, error)) context.abort();
      return undefined;
    }
  };
  // Told from the start (the stream-tail answerer listens at once): a message the frame gets while the guard's hello
  // is on its way tells a delivery too.
  const arrivals = frameArrivals();
  answerStatusRequests(window, ask, context.signal);
  reportWhileGuarded(document, parent, ask, arrivals, context.signal);
}

main();
