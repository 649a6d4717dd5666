import { outputText } from '../colab/cells';
import { frameStreamTail, isColabOutputFrame, observeOutputFrame } from '../colab/output-frame-reader';
import { tailOf } from '../detector/text';
import { STREAM_TAIL_MAX_WAIT_MS, STREAM_TAIL_QUIET_MS } from '../limits';
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
 * page above may ask. Listens from the start, as the cell may stop while the hello is on its way, and answers once
 * the frame has been still for a moment: a frame created as its cell stopped may still be receiving its outputs.
 */
function answerStreamTailRequests(hello: Promise<FrameHelloReply>) {
  let ids: number[] = [];
  let deadline = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const answer = () => {
    changes.disconnect();
    const text = frameStreamTail(document);
    const answered = ids;
    ids = [];
    hello.then(
      ({ token }) => {
        for (const id of answered) postReport(token, { kind: 'stream-tail', id, text });
      },
      () => undefined,
    );
  };
  const settle = () => {
    clearTimeout(timer);
    timer = setTimeout(answer, Math.min(STREAM_TAIL_QUIET_MS, deadline - Date.now()));
  };
  const changes = new MutationObserver(settle);
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || event.origin !== COLAB_ORIGIN || !isStreamTailRequest(event.data)) return;
    if (!ids.length) {
      deadline = Date.now() + STREAM_TAIL_MAX_WAIT_MS;
      changes.observe(document, { childList: true, subtree: true, characterData: true });
    }
    ids.push(event.data.id);
    settle();
  });
}

void main().catch(() => undefined);
