import { outputText } from '../colab/cells';
import { frameStreamTail, isColabOutputFrame, observeOutputFrame } from '../colab/output-frame-reader';
import { tailOf } from '../detector/text';
import { FRAME_CHANNEL, isStreamTailRequest } from '../messaging/frame-channel';
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
  const hello = sendToWorker<FrameHelloReply>({ type: 'frame-hello' });
  answerStreamTailRequests(hello);
  const reply = await hello;
  const token = reply.token;
  const post = (report: FrameReport['report']) => postReport(token, report);
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

function postReport(token: string, report: FrameReport['report']) {
  window.parent.postMessage({ channel: FRAME_CHANNEL, token, report }, COLAB_ORIGIN);
}

/**
 * When the frame's cell stops, the top frame asks for the end of the frame's stream output (issue 20). Only Colab's
 * page above may ask. Listens from the start, as the cell may stop while the hello is on its way.
 */
function answerStreamTailRequests(hello: Promise<FrameHelloReply>) {
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || event.origin !== COLAB_ORIGIN || !isStreamTailRequest(event.data)) return;
    const { id } = event.data;
    hello.then(
      ({ token }) => postReport(token, { kind: 'stream-tail', id, text: frameStreamTail(document) }),
      () => undefined,
    );
  });
}

void main().catch(() => undefined);
