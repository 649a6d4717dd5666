import { describe, expect, it } from 'vitest';
import { failedStepText } from './failed-step';
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

describe('a notebook key', () => {
  it("is at most 2,048 characters long, as the stored record's schema has it", () => {
    expect(isNotebookKey(`drive:${'x'.repeat(2042)}`)).toBe(true);
    expect(isNotebookKey(`drive:${'x'.repeat(2043)}`)).toBe(false);
  });
});
