import { isColabOutputFrame, observeOutputFrame, outputText } from '../colab';
import { createDetector, DEFAULT_CATEGORIES } from '../detector';
import { COLAB_ORIGIN } from '../messaging/sender';
import { FRAME_CHANNEL, type FrameReport } from '../messaging/protocol';
import { loadSettings } from '../state/store';
import { sendToWorker } from './send';

/**
 * Runs inside Colab's cross-origin output frames: hands error outputs (and the user's marker lines) to the Colab page
 * above, which alone decides. Posts only to Colab's origin, tagged with the tab's token.
 */
async function main() {
  if (window.top === window || !isColabOutputFrame(location)) return;
  const [{ token }, settings] = await Promise.all([sendToWorker<{ token: string }>({ type: 'frame-hello' }), loadSettings()]);
  const markers = createDetector({ categories: DEFAULT_CATEGORIES, failurePatterns: [], markerPatterns: settings.markerPatterns });
  const post = (report: FrameReport['report']) => window.parent.postMessage({ channel: FRAME_CHANNEL, token, report }, COLAB_ORIGIN);
  const marker = (text: string) => {
    const match = markers.findMarker(text);
    if (match) post({ kind: 'marker', pattern: match.pattern, line: match.line });
  };
  observeOutputFrame(document, {
    outputAdded(kind, element) {
      const text = outputText(element);
      if (kind === 'error') post({ kind: 'error-output', text });
      if (markers.hasMarkers) marker(text);
    },
    streamText: marker,
  }, { wantStreamText: markers.hasMarkers });
}

void main().catch(() => undefined);
