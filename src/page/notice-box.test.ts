// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultNotebook, type NotebookRecord } from '../state/schema';
import { createNotice } from './notice-box';
import { noticeFor } from './notice-texts';

/** The question's buttons, which these notices do not show. */
const noChoice = () => {};

vi.mock('../lib/i18n', async () => {
  const { getMessage, translateCounted } = await import('../../test/support/messages');
  return { t: (key: string, ...subs: (string | number)[]) => getMessage(key, subs.map(String)), tn: translateCounted };
});

const T0 = 1_000_000;

function pendingWithLine(line: string): NotebookRecord {
  const verdict = { category: 'custom' as const, rule: 'r', description: 'Out of memory {s}', line };
  return {
    ...defaultNotebook('drive:x'),
    enabled: true,
    status: {
      kind: 'pending',
      reason: 'failure',
      action: 'restart-and-run-all',
      restartAt: T0 + 65_000,
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

  it('says what was found and what will happen, counting down in m:ss in its own line', () => {
    const content = noticeFor(pendingWithLine('print("{s} left") $1'), () => {}, noChoice);
    if (!content) throw new Error('a pending restart has a notice');
    createNotice(document, () => 'Dismiss', new AbortController().signal).show(content);
    const body = document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelector('.body');
    // The output line as it was, whatever placeholders it holds.
    expect(body?.firstChild?.textContent).toBe('print("{s} left") $1');
    expect(body?.querySelector('.countdown')?.textContent).toBe('Out of memory {s}: restart and run all in 1:05');
    vi.advanceTimersByTime(1000);
    expect(body?.firstChild?.textContent).toBe('print("{s} left") $1');
    expect(body?.querySelector('.countdown')?.textContent).toBe('Out of memory {s}: restart and run all in 1:04');
    vi.advanceTimersByTime(60_000);
    expect(body?.querySelector('.countdown')?.textContent).toBe('Out of memory {s}: restart and run all in 0:04');
  });

  it("after Colab's RAM crash: Run all in 0:05", () => {
    const record = pendingWithLine('Your session crashed after using all available RAM.');
    if (record.status.kind !== 'pending') throw new Error('pending');
    record.status = { ...record.status, reason: 'crash', action: 'run-all', restartAt: T0 + 5000 };
    const content = noticeFor(record, () => {}, noChoice);
    expect(content?.countdown?.line(5)).toBe('Run all in 0:05');
    expect(content?.body).toBe('Your session crashed after using all available RAM.');
  });

  it("carries the language of its words, whatever the page's", () => {
    document.documentElement.lang = 'en';
    const notice = createNotice(
      document,
      () => '閉じる',
      new AbortController().signal,
      () => 'ja',
    );
    notice.show({ tone: 'info', title: 'Colab OOM Guard: 再起動中', body: '', actions: [] });
    expect(document.querySelector('colab-oom-guard-notice')?.getAttribute('lang')).toBe('ja');
    notice.hide();
  });

  it('counts the restarts in a row it gave up after, in the right plural', () => {
    const gaveUp = (restarts: number): NotebookRecord => ({
      ...defaultNotebook('drive:x'),
      enabled: true,
      status: { kind: 'gave-up', at: T0, restarts },
    });
    expect(noticeFor(gaveUp(1), () => {}, noChoice)?.body).toMatch(
      /^It failed again after 1 restart in a row, so the guard stopped/,
    );
    expect(noticeFor(gaveUp(3), () => {}, noChoice)?.body).toMatch(
      /^It failed again after 3 restarts in a row, so the guard stopped/,
    );
  });

  it('a UI problem names the step in words; ids and what it saw in the page stay in Copy diagnostics', () => {
    const record: NotebookRecord = {
      ...defaultNotebook('drive:x'),
      enabled: true,
      status: {
        kind: 'ui-problem',
        at: T0,
        failed: { step: 'find-item', reason: 'item-missing', saw: 'items: Run all' },
      },
      history: [{ at: T0 - 6000, type: 'restart-scheduled', action: 'restart-and-run-all' }],
    };
    const content = noticeFor(record, () => {}, noChoice);
    expect(content?.tone).toBe('error');
    expect(content?.body.split('\n')).toEqual([
      'Could not find Runtime → Restart session and run all.',
      'Nothing else was clicked, and the guard stopped for this notebook until you choose Watch again in the popup.',
    ]);
    expect(`${content?.title} ${content?.body}`).not.toContain('find-item');
    expect(`${content?.title} ${content?.body}`).not.toContain('items:');
  });

  /** A click as a person makes it: happy-dom dispatches every event untrusted. */
  const personClick = (button: Element) => {
    const click = new MouseEvent('click', { bubbles: true });
    Object.defineProperty(click, 'isTrusted', { value: true });
    button.dispatchEvent(click);
  };

  it("acts on a person's click only: a page script's .click() on Cancel leaves the countdown alone", () => {
    const cancel = vi.fn();
    const content = noticeFor(pendingWithLine('OutOfMemoryError'), cancel, noChoice);
    if (!content) throw new Error('a pending restart has a notice');
    createNotice(document, () => 'Dismiss', new AbortController().signal).show(content);
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
    const content = noticeFor(pendingWithLine('OutOfMemoryError'), () => {}, noChoice);
    if (!content) throw new Error('a pending restart has a notice');
    const notice = createNotice(document, () => 'Dismiss', session.signal);
    notice.show(content);
    session.abort();
    expect(document.querySelector('colab-oom-guard-notice')).toBeNull();
    notice.show(content);
    expect(document.querySelector('colab-oom-guard-notice')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('reads its dismiss label when it shows, not before (the first i18n read costs a synchronous fetch)', () => {
    const content = noticeFor(pendingWithLine('OutOfMemoryError'), () => {}, noChoice);
    if (!content) throw new Error('a pending restart has a notice');
    const label = vi.fn(() => 'Dismiss');
    const notice = createNotice(document, label, new AbortController().signal);
    expect(label).not.toHaveBeenCalled();
    notice.show(content);
    const close = document.querySelector('colab-oom-guard-notice')?.shadowRoot?.querySelector('.close');
    expect(close?.getAttribute('aria-label')).toBe('Dismiss');
  });
});
