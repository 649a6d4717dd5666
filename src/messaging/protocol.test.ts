import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FRAME_CHANNEL, isStreamTailRequest, streamTailRequest } from './frame-channel';
import { FrameReportSchema, PageMessageSchema } from './protocol';

/** README: a shell cell's "last 16 KiB" of output. */
const MAX_SHELL_TAIL_CHARS = 16 * 1024;

const marker = { type: 'page-marker', key: 'drive:abc', detectedAt: 1000, pattern: 'RESTART', line: 'RESTART' };

describe('page messages', () => {
  it('take only what a stored record accepts: a real notebook key and a time from the epoch on', () => {
    expect(v.is(PageMessageSchema, marker)).toBe(true);
    expect(v.is(PageMessageSchema, { ...marker, key: 'not-a-notebook' })).toBe(false);
    expect(v.is(PageMessageSchema, { ...marker, detectedAt: -1 })).toBe(false);
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
    const declined = { type: 'page-declined', key: 'drive:abc', detectedAt: 1000, startedAt: 900, verdict };
    expect(v.is(PageMessageSchema, { ...declined, reason: 'earlier-error' })).toBe(true);
    expect(v.is(PageMessageSchema, { ...declined, reason: 'crash-without-run' })).toBe(true);
    expect(v.is(PageMessageSchema, { ...declined, reason: 'ending-unclear' })).toBe(true);
    expect(v.is(PageMessageSchema, { ...declined, reason: 'because I said so' })).toBe(false);
    expect(v.is(PageMessageSchema, { ...declined, reason: 'earlier-error', verdict: undefined })).toBe(false);
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
