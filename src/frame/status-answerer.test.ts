// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tick } from '../../test/support/colab-dom';
import type { FrameMessage } from '../messaging/protocol';
import { MAX_STATUS_ID_CHARS, type NotebookStatus } from '../messaging/status-api';
import { answerStatusRequests } from './status-answerer';

const STATUS: NotebookStatus = {
  v: 1,
  guarded: true,
  restarts: 1,
  maxRestarts: 3,
  totalRestarts: 1,
  lastFailure: { kind: 'gpu-oom', line: 'torch.OutOfMemoryError: CUDA out of memory.', at: '2026-03-25T02:14:07.512Z' },
  lastRestartAt: '2026-03-25T02:14:13.020Z',
};

describe('the status API in an output frame', () => {
  let lifetime: AbortController;
  let asked: FrameMessage[];
  let replies: Promise<unknown>[];
  let status: NotebookStatus | null;
  let seen: unknown[];
  const record = (event: MessageEvent) => seen.push(event.data);

  beforeEach(() => {
    lifetime = new AbortController();
    asked = [];
    replies = [];
    status = STATUS;
    seen = [];
    window.addEventListener('message', record);
    answerStatusRequests(
      window,
      <R>(message: FrameMessage) => {
        asked.push(message);
        const reply = tick().then(() => status as R);
        replies.push(reply);
        return reply;
      },
      lifetime.signal,
    );
  });

  afterEach(() => {
    lifetime.abort();
    window.removeEventListener('message', record);
  });

  /** What notebook code does: `window.postMessage(request, '*')` in its own window, the event's source. */
  const request = (data: unknown) =>
    window.dispatchEvent(new MessageEvent('message', { data, source: window, origin: location.origin }));
  const answers = () => seen.filter((data) => (data as { colabOomGuard?: string }).colabOomGuard === 'status');
  /**
   * Every question asked so far answered, and whatever the answerer posted then delivered: its answer is posted in
   * the replies' microtasks, and delivered in a task queued then (happy-dom's postMessage), before a second task of
   * ours. Waits on that order, not on time.
   */
  const settled = async () => {
    await Promise.all(replies);
    await tick();
    await tick();
  };

  it("answers code in its own window on that window, with the request's id, from the worker", async () => {
    request({ colabOomGuard: 'status?', id: 'train-1' });
    await settled();
    expect(asked).toEqual([{ type: 'frame-status' }]);
    expect(answers()).toEqual([{ colabOomGuard: 'status', id: 'train-1', status: STATUS }]);
  });

  it('asks the worker once for requests arriving together, and answers each', async () => {
    request({ colabOomGuard: 'status?', id: 'a' });
    request({ colabOomGuard: 'status?', id: 'b' });
    await settled();
    expect(asked).toHaveLength(1);
    expect(answers().map((answer) => (answer as { id: string }).id)).toEqual(['a', 'b']);
  });

  it('gives no answer when the worker gives no status (the API switched off)', async () => {
    status = null;
    request({ colabOomGuard: 'status?', id: 'a' });
    await settled();
    expect(asked).toHaveLength(1);
    expect(answers()).toEqual([]);
  });

  it('ignores other windows (Colab above included), other shapes, and its own answers', async () => {
    const data = { colabOomGuard: 'status?', id: 'x' };
    const iframe = document.createElement('iframe');
    iframe.srcdoc = '<!doctype html><p>a widget</p>';
    document.body.append(iframe);
    // From another window (a frame nested in the output, or the page above), and from no window.
    window.dispatchEvent(new MessageEvent('message', { data, source: iframe.contentWindow }));
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'https://colab.research.google.com' }));
    request({ colabOomGuard: 'status?' });
    request({ colabOomGuard: 'status?', id: 7 });
    request({ colabOomGuard: 'status', id: 'x', status: STATUS });
    request('status?');
    await settled();
    expect(asked).toEqual([]);
  });

  it('of a notebook not guarded, answers that and nothing else', async () => {
    status = { v: 1, guarded: false };
    request({ colabOomGuard: 'status?', id: 'a' });
    await settled();
    expect(answers()).toEqual([{ colabOomGuard: 'status', id: 'a', status: { v: 1, guarded: false } }]);
  });

  it('refuses a request whose id is longer than the bound: no question, no answer', async () => {
    request({ colabOomGuard: 'status?', id: 'x'.repeat(MAX_STATUS_ID_CHARS + 1) });
    await settled();
    expect(asked).toEqual([]);
    request({ colabOomGuard: 'status?', id: 'x'.repeat(MAX_STATUS_ID_CHARS) });
    await settled();
    expect(answers()).toHaveLength(1);
  });

  it('answers nothing once its lifetime ended', async () => {
    request({ colabOomGuard: 'status?', id: 'a' });
    lifetime.abort();
    await settled();
    request({ colabOomGuard: 'status?', id: 'b' });
    await settled();
    expect(answers()).toEqual([]);
  });
});
