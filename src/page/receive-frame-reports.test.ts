// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { MAX_TEXT_CHARS } from '../limits';
import { FRAME_CHANNEL } from '../messaging/frame-channel';
import { listenToOutputFrames } from './receive-frame-reports';

const TOKEN = 'a'.repeat(64);
const FRAME_ORIGIN = 'https://2kkcb3ngq8o-496ff2e9c6d22116-0-colab.googleusercontent.com';
const report = {
  kind: 'error-output',
  text: 'OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB',
  index: 0,
  id: 2,
  at: Date.UTC(2026, 11, 1, 22),
  exact: true,
};

const port = () => new MessageChannel().port1;

/** The window of a new iframe in `parent` (a srcdoc frame: happy-dom loads no URLs). */
function frameIn(parent: Element): Window {
  const iframe = parent.ownerDocument.createElement('iframe');
  iframe.srcdoc = '<!doctype html><div id="output-area"></div>';
  parent.append(iframe);
  if (!iframe.contentWindow) throw new Error('no frame window');
  return iframe.contentWindow;
}

describe("the top frame's receiver of output-frame reports", () => {
  let lifetime: AbortController;
  let token: string;
  let received: Array<{ cell: string; kind: string }>;
  let cell: Element;
  let cellFrame: Window;

  beforeEach(() => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cell = document.getElementById('cell-T2BNeFUZ1OGZ')!;
    cellFrame = frameIn(cell.querySelector('.output-iframe-sizer')!);
    lifetime = new AbortController();
    token = TOKEN;
    received = [];
    listenToOutputFrames(
      window,
      () => token,
      (from, { kind }, frame) => {
        expect(frame.contentWindow).toBe(cellFrame);
        received.push({ cell: from.id, kind });
      },
      lifetime.signal,
    );
  });

  afterEach(() => {
    lifetime.abort();
    document.body.innerHTML = '';
  });

  /** As the output frames' reporter posts: with a port, which marks the guard's messages. */
  const post = (data: unknown, source: Window | null = cellFrame, origin = FRAME_ORIGIN, ports = [port()]) =>
    window.dispatchEvent(new MessageEvent('message', { data, origin, source, ports }));
  const valid = (extra: object = {}) => ({ channel: FRAME_CHANNEL, token: TOKEN, report, ...extra });

  it("takes a report from a cell's output frame, on a googleusercontent origin, with the page's token", () => {
    post(valid());
    expect(received).toEqual([{ cell: 'cell-T2BNeFUZ1OGZ', kind: 'error-output' }]);
  });

  it("leaves a message without a port unread, as Colab's own messages are, and takes nothing from it", () => {
    let read = false;
    const data = {
      get channel() {
        read = true;
        return FRAME_CHANNEL;
      },
      token: TOKEN,
      report,
    };
    post(data, cellFrame, FRAME_ORIGIN, []);
    expect(read).toBe(false);
    expect(received).toEqual([]);
  });

  it('refuses a missing or wrong token, and the token of an earlier page document', () => {
    post({ channel: FRAME_CHANNEL, report });
    post(valid({ token: 'b'.repeat(64) }));
    post(valid({ token: '' }));
    post(valid({ token: null }));
    token = 'c'.repeat(64);
    post(valid());
    expect(received).toEqual([]);
  });

  it('refuses a foreign origin, Colab\u2019s own included', () => {
    post(valid(), cellFrame, 'https://evil.example');
    post(valid(), cellFrame, 'http://abc-0-colab.googleusercontent.com');
    post(valid(), cellFrame, 'https://googleusercontent.com.evil.test');
    post(valid(), cellFrame, 'https://colab.research.google.com');
    post(valid(), cellFrame, 'null');
    expect(received).toEqual([]);
  });

  it('refuses a frame outside a cell, a nested frame, the page itself and no source', () => {
    const outside = frameIn(document.body);
    post(valid(), outside);
    // A frame inside an output frame can post to the top window with a googleusercontent origin: its window is no
    // iframe of this document.
    const nested = frameIn(cellFrame.document.body);
    post(valid(), nested);
    post(valid(), window);
    post(valid(), null);
    expect(received).toEqual([]);
  });

  it('refuses reports of another shape: unknown kind, text over the bound, another channel', () => {
    post(valid({ report: { kind: 'verdict', text: 'gpu-oom' } }));
    post(valid({ report: { ...report, text: 'x'.repeat(MAX_TEXT_CHARS + 1) } }));
    post(valid({ channel: 'colab-oom-guard/other' }));
    post('OutOfMemoryError');
    // Where and when it showed: a position, Colab's number, a time, exact or not.
    post(valid({ report: { ...report, index: -1 } }));
    post(valid({ report: { ...report, id: 1.5 } }));
    post(valid({ report: { ...report, at: Number.NaN } }));
    post(valid({ report: { ...report, exact: 'yes' } }));
    const { index: _index, ...placeless } = report;
    post(valid({ report: placeless }));
    expect(received).toEqual([]);
  });

  it("takes a frame's answer with the numbers of its newest 200 outputs at most", () => {
    const answer = { kind: 'stream-tail', id: 1, text: '', error: false, count: 900, at: 1, exact: true };
    post(valid({ report: { ...answer, ids: Array.from({ length: 201 }, (_, i) => i + 700) } }));
    post(valid({ report: { ...answer, ids: [1, -2] } }));
    expect(received).toEqual([]);
    post(valid({ report: { ...answer, ids: Array.from({ length: 200 }, (_, i) => (i % 2 ? i + 700 : null)) } }));
    expect(received).toEqual([{ cell: 'cell-T2BNeFUZ1OGZ', kind: 'stream-tail' }]);
  });

  it('takes nothing once its lifetime ended (another notebook, an orphaned script)', () => {
    lifetime.abort();
    post(valid());
    expect(received).toEqual([]);
  });
});
