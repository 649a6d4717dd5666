import { describe, expect, it } from 'vitest';
import { clipFailed, fail, failedStepText, seeing } from './failed-step';
import { isNotebookKey } from './storage-keys';

describe("a failed step's details line", () => {
  it('names the dialog a precheck met, then what it saw', () => {
    expect(failedStepText({ step: 'precheck', reason: 'usage-limit', saw: 'You cannot connect' })).toBe(
      'dialog-open: usage-limit; saw: You cannot connect',
    );
  });

  it('gives any other step its reason, and what it saw only when it saw something', () => {
    expect(failedStepText({ step: 'verify', reason: 'no-run-started', saw: '' })).toBe('no-run-started');
    expect(failedStepText({ step: 'open-menu', reason: 'header-collapsed', saw: 'no menu' })).toBe(
      'header-collapsed; saw: no menu',
    );
  });
});

describe('a failed step as the guard makes it', () => {
  it('keeps what it saw to 1,000 characters, having seen more or not, and its reason whole', () => {
    const failed = fail('find-item', 'item-missing', `items: ${'x'.repeat(2000)}`);
    expect(failed).toEqual({
      ok: false,
      failed: { step: 'find-item', reason: 'item-missing', saw: expect.any(String) },
    });
    expect(failed.failed.saw).toBe(`items: ${'x'.repeat(993)}`);
    const more = seeing(fail('open-menu', 'menubar-missing', 'no menu'), `no menu; ${'t'.repeat(1000)}`);
    expect(more.failed).toEqual({ step: 'open-menu', reason: 'menubar-missing', saw: `no menu; ${'t'.repeat(991)}` });
  });

  it('is sent and stored within what a record keeps: a 100-character reason, 1,000 characters seen', () => {
    expect(clipFailed({ step: 'unknown-frame-host', reason: 'h'.repeat(300), saw: 's'.repeat(3000) })).toEqual({
      step: 'unknown-frame-host',
      reason: 'h'.repeat(100),
      saw: 's'.repeat(1000),
    });
  });
});

describe('a notebook key', () => {
  it("is at most 2,048 characters long, as the stored record's schema has it", () => {
    expect(isNotebookKey(`drive:${'x'.repeat(2042)}`)).toBe(true);
    expect(isNotebookKey(`drive:${'x'.repeat(2043)}`)).toBe(false);
  });
});
