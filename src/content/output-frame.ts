import { outputText } from '../colab/cells';
import { isColabOutputFrame, observeOutputFrame } from '../colab/output-frame-reader';
import { compileParts, findMarkerLine } from '../detector/markers';
import { FRAME_CHANNEL } from '../messaging/frame-channel';
import type { FrameHelloReply, FrameReport } from '../messaging/protocol';
import { COLAB_ORIGIN } from '../messaging/sender';
import { sendToWorker } from './send';

/**
 * Runs inside Colab's cross-origin output frames: hands error outputs (and the user's marker lines) to the Colab page
 * above, which alone decides. Posts only to Colab's origin, tagged with the tab's token.
 */
async function main() {
  if (window.top === window || !isColabOutputFrame(location)) return;
  const reply = await sendToWorker<FrameHelloReply>({ type: 'frame-hello' });
  const markers = compileParts(reply.markers);
  const token = reply.token;
  const post = (report: FrameReport['report']) =>
    window.parent.postMessage({ channel: FRAME_CHANNEL, token, report }, COLAB_ORIGIN);
  const marker = (text: string) => {
    const match = findMarkerLine(text, markers);
    if (match) post({ kind: 'marker', pattern: match.pattern, line: match.line });
  };
  const wantMarkers = markers.length > 0;
  observeOutputFrame(
    document,
    {
      outputAdded(kind, element) {
        const text = outputText(element);
        if (kind === 'error') post({ kind: 'error-output', text });
        if (wantMarkers) marker(text);
      },
      streamText: marker,
    },
    { wantStreamText: wantMarkers },
  );
}

void main().catch(() => undefined);
