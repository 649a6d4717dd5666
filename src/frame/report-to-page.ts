import { outputNumber, outputText } from '../colab/cells';
import { frameOutputs, observeOutputFrame } from '../colab/output-frame-reader';
import { tailOf } from '../detector/text';
import { FRAME_CHANNEL, FRAMES_CHANGED } from '../messaging/frame-channel';
import type { FrameHelloReply, FrameMessage, FrameReport, ReplyTo } from '../messaging/protocol';
import type { Arrivals } from './arrivals';
import { type MessageSender, runtime } from './browser-runtime';
import { answerStreamTailRequests } from './stream-tail-answerer';

/** Asks the service worker; undefined when there was no answer (then nothing changes). */
export type AskWorker = <M extends FrameMessage>(message: M) => Promise<ReplyTo<M> | undefined>;

type Report = FrameReport['report'];

/**
 * An output frame's reports to the Colab page above (its `parent`): error outputs, with their place among the frame's
 * outputs and when they arrived (`arrivals`), and with marker patterns all output text, tagged with the token of the
 * page's document. Asks the worker what it may post when it starts and whenever the worker says that changed (a new
 * page document, the guard or marker patterns switched); observes the outputs only while the guard is on for the
 * notebook, so a frame of a notebook the user never guarded posts nothing.
 */
export function reportWhileGuarded(
  doc: Document,
  parent: Window,
  ask: AskWorker,
  arrivals: Arrivals,
  signal: AbortSignal,
): void {
  let asked = 0;
  /** The latest answer (null: the guard is off), and the lifetime of what it started (it ends with `signal` too). */
  let guarded: FrameHelloReply = null;
  let lifetime = new AbortController();
  /** Stream tails answered before the first hello's answer: posted once it says the notebook is guarded. */
  let early: Report[] | null = [];

  const post = (report: Report) => {
    if (!guarded || lifetime.signal.aborted) return void early?.push(report);
    // An update or removal of the extension orphans this script (Chrome): it has nothing valid to post any more.
    if (!runtime.id) return lifetime.abort();
    parent.postMessage({ channel: FRAME_CHANNEL, token: guarded.token, report }, guarded.origin, [
      new MessageChannel().port1,
    ]);
  };
  answerStreamTailRequests(doc, parent, post, arrivals, signal);

  // A new token is a new page document above, which has seen nothing yet: what the frame holds is posted again.
  const follow = (reply: FrameHelloReply) => {
    // Another origin above is another page document: another token.
    if (guarded && guarded.token === reply?.token && guarded.markers === reply.markers) return;
    lifetime.abort();
    lifetime = new AbortController();
    guarded = reply;
    const held = early ?? [];
    early = null;
    if (!reply) return;
    reportOutputs(doc, post, reply.markers, arrivals, lifetime.signal);
    held.forEach(post);
  };
  const hello = async () => {
    const seq = ++asked;
    const reply = await ask({ type: 'frame-hello' });
    // Only the answer to the latest question counts: an earlier one may arrive last.
    if (reply !== undefined && seq === asked && !signal.aborted) follow(reply);
  };

  const onMessage = (message: unknown, sender: MessageSender) => {
    const fromWorker = sender.id === runtime.id && !sender.tab;
    if (fromWorker && (message as { type?: unknown } | null)?.type === FRAMES_CHANGED) void hello();
  };
  runtime.onMessage.addListener(onMessage);
  signal.addEventListener('abort', () => {
    lifetime.abort();
    try {
      runtime.onMessage.removeListener(onMessage);
    } catch {
      // An orphaned script's API may throw: its listener is dead already.
    }
  });
  void hello();
}

function reportOutputs(
  doc: Document,
  post: (report: Report) => void,
  markers: boolean,
  arrivals: Arrivals,
  signal: AbortSignal,
): void {
  // What the first look finds came before the observer watched.
  let watched = false;
  observeOutputFrame(
    doc,
    (kind, element) => {
      arrivals.seen(element, watched);
      // Other outputs are read only for marker patterns.
      if (kind === 'error') {
        const index = frameOutputs(doc).indexOf(element);
        post({
          kind: 'error-output',
          text: outputText(element),
          index,
          id: outputNumber(element),
          ...arrivals.of(element),
        });
      } else if (markers) post({ kind: 'output-text', text: outputText(element) });
    },
    // Cut as the top frame reads it (outputText cuts the same way): the receiver refuses longer text.
    markers ? (text) => post({ kind: 'output-text', text: tailOf(text) }) : null,
    signal,
  );
  watched = true;
}
