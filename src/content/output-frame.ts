import { outputText } from '../colab/cells';
import { isColabOutputFrame, observeOutputFrame } from '../colab/output-frame-reader';
import { tailOf } from '../detector/text';
import { FRAME_CHANNEL } from '../messaging/frame-channel';
import type { FrameHelloReply, FrameReport } from '../messaging/protocol';
import { COLAB_ORIGIN } from '../messaging/sender';
import { sendToWorker } from './send';

/**
 * Runs inside Colab's cross-origin output frames: hands error outputs (and, when the user has marker patterns, all
 * output text) to the Colab page above, which alone decides. Posts only to Colab's origin, tagged with the tab's
 * token. The frame matches nothing itself, so it carries neither the rules nor the pattern engine.
 */
async function main() {
  if (window.top === window || !isColabOutputFrame(location)) return;
  const reply = await sendToWorker<FrameHelloReply>({ type: 'frame-hello' });
  const token = reply.token;
  const post = (report: FrameReport['report']) =>
    window.parent.postMessage({ channel: FRAME_CHANNEL, token, report }, COLAB_ORIGIN);
  observeOutputFrame(
    document,
    {
      outputAdded(kind, element) {
        const text = outputText(element);
        if (kind === 'error') post({ kind: 'error-output', text });
        else if (reply.markers) post({ kind: 'output-text', text });
      },
      // Cut as the top frame reads it (outputText cuts the same way): the receiver refuses longer text.
      streamText: (text) => post({ kind: 'output-text', text: tailOf(text) }),
    },
    { wantStreamText: reply.markers },
  );
}

void main().catch(() => undefined);
