// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultNotebook, type NotebookRecord } from '../state/schema';
import { createNotice } from './notice';
import { noticeFor } from './notices';

vi.mock('../lib/i18n', () => ({ t: (key: string) => (key === 'noticeRestartIn' ? 'Restarting in {s} s.' : key) }));

const T0 = 1_000_000;

function pendingWithLine(line: string): NotebookRecord {
  const verdict = { category: 'custom' as const, rule: 'r', description: 'Out of memory', line };
  return {
    ...defaultNotebook('drive:x'),
    enabled: true,
    status: {
      kind: 'pending',
      reason: 'failure',
      action: 'restart-and-run-all',
      restartAt: T0 + 3000,
      attempt: 'a1',
      ownerTab: 1,
      detectedAt: T0,
      verdict,
    },
  };
}

describe('in-page notice', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(T0);
  });
  afterEach(() => {
    vi.useRealTimers();
    document.querySelector('colab-oom-guard-notice')?.remove();
  });

  it('counts down in its own line, leaving a "{s}" in the quoted output alone', () => {
    const content = noticeFor(pendingWithLine('print("{s} left")'), () => {});
    if (!content) throw new Error('a pending restart has a notice');
    createNotice(document, 'Dismiss').show(content);
    const body = document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelector('.body');
    expect(body?.firstChild?.textContent).toBe('Out of memory: print("{s} left")');
    expect(body?.querySelector('.countdown')?.textContent).toBe('Restarting in 3 s.');
    vi.advanceTimersByTime(1000);
    expect(body?.firstChild?.textContent).toBe('Out of memory: print("{s} left")');
    expect(body?.querySelector('.countdown')?.textContent).toBe('Restarting in 2 s.');
  });
});
