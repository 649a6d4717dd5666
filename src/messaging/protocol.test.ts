import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { pageEvent } from '../../test/support/page-events';
import { EVENT_EXAMPLES } from '../../test/support/policy';
import type { PageEvent } from '../state/policy';
import { FRAME_CHANNEL, isStreamTailRequest, streamTailRequest } from './frame-channel';
import { FrameReportSchema, PageMessageSchema } from './protocol';

/** README: a shell cell's "last 16 KiB" of output. */
const MAX_SHELL_TAIL_CHARS = 16 * 1024;

const KEY = 'drive:abc';
const marker = (fields = {}, key = KEY) =>
  pageEvent(key, { type: 'marker', detectedAt: 1000, pattern: 'RESTART', line: 'RESTART', ...fields });

/** Every kind of event a page reports: the compiler refuses a kind missing here, or one that is none. */
const PAGE_KINDS = Object.keys({
  failure: 1,
  declined: 1,
  marker: 1,
  disconnect: 1,
  dialog: 1,
  claim: 1,
  ask: 1,
  answer: 1,
  'restart-result': 1,
  sight: 1,
  run: 1,
  activity: 1,
  cancel: 1,
} satisfies Record<PageEvent['type'], 1>) as PageEvent['type'][];
const OTHER_KINDS = Object.keys(EVENT_EXAMPLES).filter((kind) => !(PAGE_KINDS as string[]).includes(kind));

/** The example of a kind of event, as its page sends it: without the tab, which the worker adds. */
function withoutTab(kind: keyof typeof EVENT_EXAMPLES): Record<string, unknown> {
  const { tabId: _, ...event } = EVENT_EXAMPLES[kind] as Record<string, unknown>;
  return event;
}

describe("a page's events", () => {
  it.each(PAGE_KINDS)('%s has its schema: the event crosses the wire whole', (kind) => {
    const event = withoutTab(kind);
    const parsed = v.safeParse(PageMessageSchema, pageEvent(KEY, event));
    expect(parsed.issues).toBeUndefined();
    expect(parsed.output).toEqual({ type: 'page-event', key: KEY, event });
  });

  it.each(OTHER_KINDS)('%s is no page event: a page sending it is refused', (kind) => {
    expect(v.is(PageMessageSchema, pageEvent(KEY, withoutTab(kind as keyof typeof EVENT_EXAMPLES)))).toBe(false);
  });
});

describe('page messages', () => {
  it('take only what a stored record accepts: a real notebook key and a time from the epoch on', () => {
    expect(v.is(PageMessageSchema, marker())).toBe(true);
    expect(v.is(PageMessageSchema, marker({}, 'not-a-notebook'))).toBe(false);
    expect(v.is(PageMessageSchema, marker({ detectedAt: -1 }))).toBe(false);
    const hello = {
      type: 'page-hello',
      url: 'https://colab.research.google.com/',
      page: 'm3x9.4',
      title: '',
      first: true,
    };
    expect(v.is(PageMessageSchema, hello)).toBe(true);
    expect(v.is(PageMessageSchema, { ...hello, page: '../x' })).toBe(false);
    expect(v.is(PageMessageSchema, { ...hello, url: 'x'.repeat(10_000) })).toBe(false);
  });

  it('a failure left alone names one of the known reasons, and the failure it saw', () => {
    const verdict = { category: 'gpu-oom', rule: 'torch-cuda-oom', description: 'CUDA OOM', line: 'OutOfMemoryError' };
    const declined = (fields: object) =>
      pageEvent(KEY, { type: 'declined', detectedAt: 1000, startedAt: 900, verdict, ...fields });
    expect(v.is(PageMessageSchema, declined({ reason: 'earlier-error' }))).toBe(true);
    expect(v.is(PageMessageSchema, declined({ reason: 'crash-without-run' }))).toBe(true);
    expect(v.is(PageMessageSchema, declined({ reason: 'ending-unclear' }))).toBe(true);
    expect(v.is(PageMessageSchema, declined({ reason: 'because I said so' }))).toBe(false);
    expect(v.is(PageMessageSchema, declined({ reason: 'earlier-error', verdict: undefined }))).toBe(false);
  });
});

describe('the frame channel: stream tails', () => {
  const report = (id: unknown, text: string) => ({
    channel: FRAME_CHANNEL,
    token: 'x'.repeat(32),
    report: { kind: 'stream-tail', id, text, error: false, count: 1, ids: [3], at: 1000, exact: true },
  });

  it('an answer carries its request id and at most the tail the detector reads', () => {
    expect(v.is(FrameReportSchema, report(7, 'x'.repeat(MAX_SHELL_TAIL_CHARS)))).toBe(true);
    expect(v.is(FrameReportSchema, report(7, 'x'.repeat(MAX_SHELL_TAIL_CHARS + 1)))).toBe(false);
    expect(v.is(FrameReportSchema, report(7.5, ''))).toBe(false);
    expect(v.is(FrameReportSchema, report('7', ''))).toBe(false);
    const { error: _, ...withoutError } = report(7, '').report;
    expect(v.is(FrameReportSchema, { ...report(7, ''), report: withoutError })).toBe(false);
  });

  it('a request is recognised by its channel, its question and an integer id, and carries nothing else', () => {
    expect(streamTailRequest(3)).toEqual({ channel: FRAME_CHANNEL, ask: 'stream-tail', id: 3 });
    expect(isStreamTailRequest(streamTailRequest(3))).toBe(true);
    expect(isStreamTailRequest({ ...streamTailRequest(3), channel: 'other' })).toBe(false);
    expect(isStreamTailRequest({ ...streamTailRequest(3), ask: 'everything' })).toBe(false);
    expect(isStreamTailRequest({ ...streamTailRequest(3), id: '3' })).toBe(false);
    expect(isStreamTailRequest(null)).toBe(false);
    expect(isStreamTailRequest('stream-tail')).toBe(false);
  });
});
