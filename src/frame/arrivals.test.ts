// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRAME_CHANNEL } from '../messaging/frame-channel';
import { frameArrivals } from './arrivals';
import { answerStreamTailRequests } from './stream-tail-answerer';

/** README and docs/what-triggers-a-restart.md: an output frame delivers what it held while loading within a second. */
const SETTLED_MS = 1000;
const T0 = Date.UTC(2026, 11, 1, 22);

let lifetime: AbortController;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(T0);
  lifetime = new AbortController();
});
afterEach(() => {
  lifetime.abort();
  vi.useRealTimers();
});

/** The frame's arrivals, told of the window's messages by their one listener (the stream-tail answerer's). */
function watchArrivals(win: Window, signal: AbortSignal) {
  const arrivals = frameArrivals();
  answerStreamTailRequests(win.document, win.parent, () => {}, arrivals, signal);
  return arrivals;
}

const output = () => document.createElement('div');
const later = (ms: number) => vi.setSystemTime(Date.now() + ms);
/** A message to the frame's window from `source`. */
const message = (data: unknown, source: unknown = window.parent) =>
  window.dispatchEvent(new MessageEvent('message', { data, source: source as never }));

describe("when an output frame's outputs arrived", () => {
  it('what comes a second after the first delivery, while watched, arrived when it was seen', () => {
    const arrivals = watchArrivals(window, lifetime.signal);
    const first = output();
    arrivals.seen(first, true);
    later(SETTLED_MS - 1);
    const burst = output();
    arrivals.seen(burst, true);
    later(1);
    const live = output();
    arrivals.seen(live, true);
    expect(arrivals.of(first)).toEqual({ at: T0, exact: false });
    expect(arrivals.of(burst)).toEqual({ at: T0 + SETTLED_MS - 1, exact: false });
    expect(arrivals.of(live)).toEqual({ at: T0 + SETTLED_MS, exact: true });
  });

  it("a message before any output is a delivery (eval_js, the status helper's request), not the page's ask", () => {
    const arrivals = watchArrivals(window, lifetime.signal);
    message({ channel: FRAME_CHANNEL, ask: 'stream-tail', id: 1 });
    later(5000);
    const afterQuestion = output();
    arrivals.seen(afterQuestion, true);
    expect(arrivals.of(afterQuestion).exact).toBe(false);

    const other = watchArrivals(window, lifetime.signal);
    message({ colabOomGuard: 'status?', id: 'a' }, window);
    later(SETTLED_MS);
    const oom = output();
    other.seen(oom, true);
    expect(other.of(oom)).toEqual({ at: Date.now(), exact: true });
  });

  it("an output found at the observer's first look came before it watched: not exact, whenever seen", () => {
    const arrivals = watchArrivals(window, lifetime.signal);
    message('colab: render');
    later(60_000);
    const held = output();
    arrivals.seen(held, false);
    expect(arrivals.of(held)).toEqual({ at: Date.now(), exact: false });
  });

  it('keeps the first sighting: a new token makes the observer look again at what it holds', () => {
    const arrivals = watchArrivals(window, lifetime.signal);
    message('colab: render');
    later(SETTLED_MS);
    const oom = output();
    arrivals.seen(oom, true);
    later(30_000);
    arrivals.seen(oom, false);
    expect(arrivals.of(oom)).toEqual({ at: T0 + SETTLED_MS, exact: true });
    // One never seen: now, not exact.
    expect(arrivals.of(undefined)).toEqual({ at: Date.now(), exact: false });
    expect(arrivals.of(output())).toEqual({ at: Date.now(), exact: false });
  });

  it('stops listening with its lifetime', () => {
    const arrivals = watchArrivals(window, lifetime.signal);
    lifetime.abort();
    message('colab: render');
    later(5000);
    const first = output();
    arrivals.seen(first, true);
    expect(arrivals.of(first).exact).toBe(false);
  });
});
