import browser from 'webextension-polyfill';
import { outputText } from '../colab/cells';
import { observeOutputFrame } from '../colab/output-frame-reader';
import { tailOf } from '../detector/text';
import { FRAME_CHANNEL, FRAMES_CHANGED } from '../messaging/frame-channel';
import type { FrameHelloReply, FrameMessage, FrameReport } from '../messaging/protocol';
import { COLAB_ORIGIN } from '../messaging/sender';
import { childLifetime } from './lifetime';
import { answerStreamTailRequests } from './stream-tail-answerer';

/** Asks the service worker; undefined when there was no answer (then nothing changes). */
export type AskWorker = <R>(message: FrameMessage) => Promise<R | undefined>;

/**
 * An output frame's reports to the Colab page above (its `parent`): error outputs, and with marker patterns all output
 * text, tagged with the token of the page's document. Asks the worker what it may post when it starts and whenever
 * the worker says that changed (a new page document, the guard or marker patterns switched); observes the outputs
 * only while the guard is on for the notebook, so a frame of a notebook the user never guarded posts nothing.
 */
export function reportWhileGuarded(doc: Document, parent: Window, ask: AskWorker, signal: AbortSignal): void {
  let asked = 0;
  let watching: { token: string; markers: boolean; lifetime: AbortController } | null = null;
  let post: ((report: FrameReport['report']) => void) | null = null;
  /** Stream tails answered before the first hello's answer: posted once it says the notebook is guarded. */
  let early: FrameReport['report'][] | null = [];
  answerStreamTailRequests(doc, parent, (report) => (post ? post(report) : early?.push(report)), signal);

  // A new token is a new page document above, which has seen nothing yet: what the frame holds is posted again.
  const follow = (reply: FrameHelloReply) => {
    if (watching && watching.token === reply?.token && watching.markers === reply.markers) return;
    watching?.lifetime.abort();
    watching = reply && { ...reply, lifetime: childLifetime(signal) };
    const held = early ?? [];
    early = null;
    post = null;
    if (!watching) return;
    const { token, lifetime } = watching;
    const guardedPost = (report: FrameReport['report']) => {
      // An update or removal of the extension orphans this script (Chrome): it has nothing valid to post any more.
      if (!browser.runtime.id) return lifetime.abort();
      parent.postMessage({ channel: FRAME_CHANNEL, token, report }, COLAB_ORIGIN);
    };
    post = guardedPost;
    lifetime.signal.addEventListener('abort', () => {
      if (post === guardedPost) post = null;
    });
    reportOutputs(doc, guardedPost, watching.markers, lifetime.signal);
    for (const report of held) guardedPost(report);
  };
  const hello = async () => {
    const seq = ++asked;
    const reply = await ask<FrameHelloReply>({ type: 'frame-hello' });
    // Only the answer to the latest question counts: an earlier one may arrive last.
    if (reply !== undefined && seq === asked && !signal.aborted) follow(reply);
  };

  const onMessage = (message: unknown, sender: browser.Runtime.MessageSender) => {
    const fromWorker = sender.id === browser.runtime.id && !sender.tab;
    if (fromWorker && (message as { type?: unknown } | null)?.type === FRAMES_CHANGED) void hello();
  };
  browser.runtime.onMessage.addListener(onMessage);
  signal.addEventListener('abort', () => {
    try {
      browser.runtime.onMessage.removeListener(onMessage);
    } catch {
      // An orphaned script's API may throw: its listener is dead already.
    }
  });
  void hello();
}

function reportOutputs(
  doc: Document,
  post: (report: FrameReport['report']) => void,
  markers: boolean,
  signal: AbortSignal,
): void {
  observeOutputFrame(
    doc,
    {
      outputAdded(kind, element) {
        const text = outputText(element);
        if (kind === 'error') post({ kind: 'error-output', text });
        else if (markers) post({ kind: 'output-text', text });
      },
      // Cut as the top frame reads it (outputText cuts the same way): the receiver refuses longer text.
      streamText: (text) => post({ kind: 'output-text', text: tailOf(text) }),
    },
    { wantStreamText: markers, signal },
  );
}
