// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultNotebook, type NotebookRecord } from '../state/schema';
import { createNotice } from './notice-box';
import { noticeFor } from './notice-texts';

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
    createNotice(document, 'Dismiss', new AbortController().signal).show(content);
    const body = document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelector('.body');
    expect(body?.firstChild?.textContent).toBe('Out of memory: print("{s} left")');
    expect(body?.querySelector('.countdown')?.textContent).toBe('Restarting in 3 s.');
    vi.advanceTimersByTime(1000);
    expect(body?.firstChild?.textContent).toBe('Out of memory: print("{s} left")');
    expect(body?.querySelector('.countdown')?.textContent).toBe('Restarting in 2 s.');
  });

  /** A click as a person makes it: happy-dom dispatches every event untrusted. */
  const personClick = (button: Element) => {
    const click = new MouseEvent('click', { bubbles: true });
    Object.defineProperty(click, 'isTrusted', { value: true });
    button.dispatchEvent(click);
  };

  it("acts on a person's click only: a page script's .click() on Cancel leaves the countdown alone", () => {
    const cancel = vi.fn();
    const content = noticeFor(pendingWithLine('OutOfMemoryError'), cancel);
    if (!content) throw new Error('a pending restart has a notice');
    createNotice(document, 'Dismiss', new AbortController().signal).show(content);
    const root = document.querySelector('colab-oom-guard-notice')?.shadowRoot;
    const [close, cancelButton] = [...(root?.querySelectorAll('button') ?? [])];
    cancelButton?.click();
    close?.click();
    cancelButton?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(cancel).not.toHaveBeenCalled();
    expect(document.querySelector('colab-oom-guard-notice')).not.toBeNull();
    personClick(cancelButton!);
    expect(cancel).toHaveBeenCalledTimes(1);
    personClick(close!);
    expect(document.querySelector('colab-oom-guard-notice')).toBeNull();
  });

  it("goes away with its notebook's session, countdown included", () => {
    const session = new AbortController();
    const content = noticeFor(pendingWithLine('OutOfMemoryError'), () => {});
    if (!content) throw new Error('a pending restart has a notice');
    const notice = createNotice(document, 'Dismiss', session.signal);
    notice.show(content);
    session.abort();
    expect(document.querySelector('colab-oom-guard-notice')).toBeNull();
    notice.show(content);
    expect(document.querySelector('colab-oom-guard-notice')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});
