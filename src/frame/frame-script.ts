import { isColabOutputFrame } from '../colab/output-frame-reader';
import { isOrphaned } from '../lib/orphaned';
import type { FrameMessage, ReplyTo } from '../messaging/protocol';
import { watchArrivals } from './arrivals';
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
  const { parent } = window;
  if (parent === window || parent !== window.top || !isColabOutputFrame(location)) return;
  const context = new AbortController();
  const ask: AskWorker = async <M extends FrameMessage>(message: M) => {
    try {
      return (await runtime.sendMessage(message)) as ReplyTo<M>;
    } catch (error) {
      if (isOrphaned(runtime, error)) context.abort();
      return undefined;
    }
  };
  // Listens from the start: a message the frame gets while the guard's hello is on its way tells a delivery too.
  const arrivals = watchArrivals(window, context.signal);
  answerStatusRequests(window, ask, context.signal);
  reportWhileGuarded(document, parent, ask, arrivals, context.signal);
}

main();
