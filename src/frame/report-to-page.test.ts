// @vitest-environment happy-dom
import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tick } from '../../test/support/colab-dom';
import { FRAME_CHANNEL, FRAMES_CHANGED } from '../messaging/frame-channel';
import type { FrameHelloReply, FrameMessage } from '../messaging/protocol';
import { frameArrivals } from './arrivals';
import { reportWhileGuarded } from './report-to-page';

vi.mock('./browser-runtime', async () => ({
  runtime: (await import('@webext-core/fake-browser')).fakeBrowser.runtime,
}));

const COLAB = 'https://colab.research.google.com';
const TRACEBACK = 'OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB';

/** The frame's document as Colab builds it: outputs under #output-body (REFERENCE §4.2). */
function addOutput(kind: 'error' | 'stream', text: string): Element {
  const output = document.createElement('div');
  output.className = `${kind} output-id-${document.querySelectorAll('#output-body > div').length + 1}`;
  output.innerHTML = `<div class="output_subarea output_text"><pre></pre></div>`;
  output.querySelector('pre')!.textContent = text;
  document.getElementById('output-body')!.append(output);
  return output;
}

describe("an output frame's reports to the Colab page", () => {
  let lifetime: AbortController;
  let posted: Array<{ data: { token: string; report: { kind: string; text: string } }; origin: string; ports: number }>;
  let answers: FrameHelloReply[];
  let asked: FrameMessage[];
  const parent = {
    postMessage: (data: never, origin: string, transfer: MessagePort[] = []) =>
      posted.push({ data, origin, ports: transfer.length }),
  } as unknown as Window;

  /** The worker's answer to the next frame-hello (each hello takes the next one). */
  const ask = async <R>(message: FrameMessage): Promise<R | undefined> => {
    asked.push(message);
    return answers.shift() as R | undefined;
  };
  /** A runtime message reaching the frame's script from `sender`. */
  const message = (data: object, sender: object) =>
    fakeBrowser.runtime.onMessage.trigger(data, sender, () => undefined);
  /** The worker tells the tab's frames that what they may post changed. */
  const workerSaysChanged = async () => {
    await message({ type: FRAMES_CHANGED }, { id: fakeBrowser.runtime.id });
    await tick();
  };
  const reports = () => posted.map(({ data }) => `${data.token}:${data.report.kind}:${data.report.text}`);

  beforeEach(() => {
    fakeBrowser.reset();
    document.body.innerHTML = '<div id="output-area"><div id="output-body"></div></div>';
    lifetime = new AbortController();
    posted = [];
    answers = [];
    asked = [];
  });

  afterEach(() => lifetime.abort());

  async function start(...first: FrameHelloReply[]) {
    answers.push(...first);
    reportWhileGuarded(document, parent, ask, frameArrivals(), lifetime.signal);
    await tick();
  }

  it('posts nothing while the guard is off; once switched on, what the frame holds, to Colab only', async () => {
    await start(null);
    addOutput('error', TRACEBACK);
    await tick();
    expect(posted).toEqual([]);
    answers.push({ token: 't1', markers: false, origin: COLAB });
    await workerSaysChanged();
    expect(posted).toEqual([
      {
        origin: 'https://colab.research.google.com',
        data: {
          channel: FRAME_CHANNEL,
          token: 't1',
          // Held before the frame watched: when it came is not known (only since the frame was made).
          report: { kind: 'error-output', text: TRACEBACK, index: 0, id: 1, at: expect.any(Number), exact: false },
        },
        // The port marks the guard's messages for the page's receiver (page/receive-frame-reports.ts).
        ports: 1,
      },
    ]);
  });

  it('posts to the Colab origin the worker names for the page above (colab.google.com too)', async () => {
    await start({ token: 't1', markers: false, origin: 'https://colab.google.com' });
    addOutput('error', TRACEBACK);
    await tick();
    expect(posted.map(({ origin }) => origin)).toEqual(['https://colab.google.com']);
  });

  it("tags reports with the page document's current token, and sends stream text only with markers", async () => {
    await start({ token: 't1', markers: false, origin: COLAB });
    addOutput('stream', 'epoch 1 done\n');
    await tick();
    answers.push({ token: 't2', markers: false, origin: COLAB });
    await workerSaysChanged();
    addOutput('error', TRACEBACK);
    await tick();
    expect(reports()).toEqual([`t2:error-output:${TRACEBACK}`]);
    answers.push({ token: 't2', markers: true, origin: COLAB });
    await workerSaysChanged();
    addOutput('stream', 'RESTART_ME\n');
    await tick();
    expect(reports()).toContain('t2:output-text:RESTART_ME\n');
  });

  it('posts what it holds again under a new token: a new page document above has seen none of it', async () => {
    await start({ token: 't1', markers: false, origin: COLAB });
    addOutput('error', TRACEBACK);
    await tick();
    answers.push({ token: 't2', markers: false, origin: COLAB });
    await workerSaysChanged();
    expect(reports()).toEqual([`t1:error-output:${TRACEBACK}`, `t2:error-output:${TRACEBACK}`]);
    // The same answer again (a rename, the guard switched for another notebook) posts nothing new.
    answers.push({ token: 't2', markers: false, origin: COLAB });
    await workerSaysChanged();
    expect(reports()).toHaveLength(2);
  });

  it('stops posting when the guard is switched off, and when its lifetime ends', async () => {
    await start({ token: 't1', markers: false, origin: COLAB });
    answers.push(null);
    await workerSaysChanged();
    addOutput('error', TRACEBACK);
    await tick();
    expect(posted).toEqual([]);
    answers.push({ token: 't1', markers: false, origin: COLAB });
    await workerSaysChanged();
    expect(posted).toHaveLength(1);
    lifetime.abort();
    addOutput('error', `${TRACEBACK} (again)`);
    await workerSaysChanged();
    expect(posted).toHaveLength(1);
    expect(asked).toHaveLength(3);
  });

  it('stops observing once the extension is gone from under it (an orphaned script)', async () => {
    await start({ token: 't1', markers: false, origin: COLAB });
    const id = fakeBrowser.runtime.id;
    try {
      Object.assign(fakeBrowser.runtime, { id: undefined });
      addOutput('error', TRACEBACK);
      await tick();
      Object.assign(fakeBrowser.runtime, { id });
      addOutput('error', `${TRACEBACK} (again)`);
      await tick();
      expect(posted).toEqual([]);
    } finally {
      Object.assign(fakeBrowser.runtime, { id });
    }
  });

  it('acts on the answer to its latest question only', async () => {
    let answerFirst: (reply: FrameHelloReply) => void = () => undefined;
    const slow = new Promise<FrameHelloReply>((resolve) => {
      answerFirst = resolve;
    });
    const replies: Array<Promise<FrameHelloReply>> = [slow, Promise.resolve(null)];
    const arrivals = frameArrivals();
    reportWhileGuarded(document, parent, async <R>() => (await replies.shift()) as R, arrivals, lifetime.signal);
    await workerSaysChanged();
    // The first answer (from before the guard was switched off) arrives last.
    answerFirst({ token: 'stale', markers: false, origin: COLAB });
    addOutput('error', TRACEBACK);
    await tick();
    expect(posted).toEqual([]);
  });

  it('asks again only when the service worker says so, not a page or another extension', async () => {
    await start(null);
    await message({ type: FRAMES_CHANGED }, { id: 'another-extension' });
    await message({ type: FRAMES_CHANGED }, { id: fakeBrowser.runtime.id, tab: { id: 3 } });
    await message({ type: 'check-ui' }, { id: fakeBrowser.runtime.id });
    expect(asked).toEqual([{ type: 'frame-hello' }]);
  });

  describe('stream tails asked by the page when a cell stops', () => {
    /** The page above asks (or a stranger, from another window). */
    const request = (id: number, from: { source?: unknown } = {}) =>
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { channel: FRAME_CHANNEL, ask: 'stream-tail', id },
          origin: COLAB,
          source: (from.source ?? parent) as never,
        }),
      );
    const tails = () => posted.filter(({ data }) => data.report.kind === 'stream-tail').map(({ data }) => data);

    it('answers a request that came before the first hello, once the hello says the notebook is guarded', async () => {
      let answer: (reply: FrameHelloReply) => void = () => undefined;
      const hello = new Promise<FrameHelloReply>((resolve) => {
        answer = resolve;
      });
      const arrivals = frameArrivals();
      reportWhileGuarded(document, parent, async <R>() => (await hello) as R, arrivals, lifetime.signal);
      addOutput('stream', 'Traceback (most recent call last):\nKilled\n');
      request(7);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(tails()).toEqual([]);
      answer({ token: 't1', markers: false, origin: COLAB });
      await vi.waitFor(() =>
        expect(tails()).toEqual([
          {
            channel: FRAME_CHANNEL,
            token: 't1',
            report: {
              kind: 'stream-tail',
              id: 7,
              text: expect.any(String),
              error: false,
              count: 1,
              ids: [1],
              at: expect.any(Number),
              exact: false,
            },
          },
        ]),
      );
      expect(tails()[0]?.report.text).toMatch(/Killed\n?$/);
    });

    it('posts the error outputs it holds before its answer, which says whether the last output is one', async () => {
      await start({ token: 't1', markers: false, origin: COLAB });
      addOutput('error', TRACEBACK);
      request(5);
      await vi.waitFor(() => expect(tails()).toHaveLength(1));
      expect(posted.map(({ data }) => data.report.kind)).toEqual(['error-output', 'stream-tail']);
      expect(tails()[0]?.report).toMatchObject({ id: 5, error: true });
      addOutput('stream', 'retrying with batch_size=32\n');
      request(6);
      await vi.waitFor(() => expect(tails()).toHaveLength(2));
      expect(tails()[1]?.report).toMatchObject({ id: 6, error: false, text: 'retrying with batch_size=32\n' });
      expect(tails()[1]?.report).toMatchObject({ count: 2, ids: [1, 2] });
      // An error output after others: its place among them, and Colab's number.
      addOutput('error', 'KeyboardInterrupt: ');
      await vi.waitFor(() => expect(posted).toHaveLength(4));
      expect(posted.map(({ data }) => data.report)).toEqual([
        expect.objectContaining({ kind: 'error-output', index: 0, id: 1 }),
        expect.objectContaining({ kind: 'stream-tail' }),
        expect.objectContaining({ kind: 'stream-tail' }),
        { kind: 'error-output', text: 'KeyboardInterrupt: ', index: 2, id: 3, at: expect.any(Number), exact: false },
      ]);
    });

    it('answers nothing for a notebook that is not guarded, nor to anyone but the page above', async () => {
      await start({ token: 't1', markers: false, origin: COLAB });
      addOutput('stream', 'epoch 1 done\n');
      request(1, { source: window });
      request(3);
      await vi.waitFor(() => expect(tails().map((tail) => tail.report)).toEqual([expect.objectContaining({ id: 3 })]));
      answers.push(null);
      await workerSaysChanged();
      request(4);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(tails()).toHaveLength(1);
    });
  });
});
