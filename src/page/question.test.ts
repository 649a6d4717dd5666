// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultNotebook, type NotebookRecord, type Verdict } from '../state/schema';
import { watchPresence } from './presence';
import { createQuestion, type QuestionDeps } from './question';

const T0 = new Date(2025, 2, 10, 12, 0, 0).getTime();
const TAB = 7;
const verdict: Verdict = { category: 'gpu-oom', rule: 'torch-cuda-oom', description: 'CUDA OOM', line: 'OOM' };

function countdown(askedAt?: number, ownerTab = TAB): NotebookRecord {
  const status = {
    kind: 'pending' as const,
    reason: 'failure' as const,
    action: 'restart-and-run-all' as const,
    restartAt: T0 + 5000,
    attempt: 'a1',
    ownerTab,
    detectedAt: T0,
    verdict,
    ...(askedAt === undefined ? {} : { askedAt }),
  };
  return { ...defaultNotebook('drive:x'), enabled: true, status };
}

/** A trusted-looking key press: happy-dom's dispatched events are untrusted, a person's are not. */
function press(): void {
  const event = new KeyboardEvent('keydown', { key: 'a' });
  Object.defineProperty(event, 'isTrusted', { value: true });
  window.dispatchEvent(event);
}

function setup(overrides: Partial<QuestionDeps> = {}) {
  const calls: string[] = [];
  const lifetime = new AbortController();
  const presence = watchPresence(window, lifetime.signal, () => question.arrived());
  const question = createQuestion({
    tabId: TAB,
    signal: lifetime.signal,
    presence,
    enabled: () => true,
    ask: vi.fn(async (_key: string, attempt: string) => {
      calls.push(`ask ${attempt}`);
      return true;
    }),
    answer: vi.fn(async (_key: string, attempt: string, choice: string) => {
      calls.push(`answer ${attempt} ${choice}`);
      return choice === 'restart' ? { granted: true as const, action: 'restart-and-run-all' as const } : null;
    }),
    perform: (_key, attempt, action) => calls.push(`perform ${attempt} ${action}`),
    refused: () => calls.push('refused'),
    ...overrides,
  });
  return { calls, question, lifetime };
}

describe('the question to a person at the keyboard', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('asks at once when a countdown starts with a person typing in the focused tab', async () => {
    const { calls, question } = setup();
    press();
    question.follow(countdown());
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['ask a1']);
  });

  it('says while its question is on the way, and says so when the worker does not take it', async () => {
    let reply: (took: boolean) => void = () => undefined;
    const ask = () => new Promise<boolean>((resolve) => (reply = resolve));
    const { calls, question } = setup({ ask });
    press();
    question.follow(countdown());
    expect(question.asking('a1')).toBe(true);
    expect(question.asking('a2')).toBe(false);
    reply(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(question.asking('a1')).toBe(false);
    expect(calls).toEqual(['refused']);
  });

  it('a question the worker took is not refused, and is on its way no more', async () => {
    const { calls, question } = setup();
    press();
    question.follow(countdown());
    await vi.advanceTimersByTimeAsync(0);
    expect(question.asking('a1')).toBe(false);
    expect(calls).toEqual(['ask a1']);
  });

  it('asks nobody away from the keyboard, after 2 minutes without input, or in a tab without focus', async () => {
    // At the countdown's end (the runner asks first): nobody has touched the tab yet.
    const { calls, question } = setup();
    expect(await question.askFirst('drive:x', 'a1')).toBe(false);
    press();
    await vi.advanceTimersByTimeAsync(2 * 60_000);
    expect(await question.askFirst('drive:x', 'a1')).toBe(false);
    press();
    vi.mocked(document.hasFocus).mockReturnValue(false);
    expect(await question.askFirst('drive:x', 'a1')).toBe(false);
    expect(calls).toEqual([]);
    vi.mocked(document.hasFocus).mockReturnValue(true);
    expect(await question.askFirst('drive:x', 'a1')).toBe(true);
  });

  it('takes no script-made input for a person', async () => {
    const { calls, question } = setup();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
    question.follow(countdown());
    expect(await question.askFirst('drive:x', 'a1')).toBe(false);
    expect(calls).toEqual([]);
  });

  it('asks when the person comes back during the countdown, once per attempt', async () => {
    const { calls, question } = setup();
    question.follow(countdown());
    press();
    press();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['ask a1']);
    expect(await question.askFirst('drive:x', 'a1')).toBe(false);
  });

  it('asks nothing with the setting off, nor about another tab’s countdown', async () => {
    const off = setup({ enabled: () => false });
    press();
    off.question.follow(countdown());
    const other = setup();
    other.question.follow(countdown(undefined, TAB + 1));
    await vi.advanceTimersByTimeAsync(0);
    expect([...off.calls, ...other.calls]).toEqual([]);
  });

  it('Restart now performs the restart the answer grants; Not now performs nothing', async () => {
    const { calls, question } = setup();
    question.follow(countdown(T0));
    question.choose('not-now');
    question.choose('restart');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['answer a1 not-now', 'answer a1 restart', 'perform a1 restart-and-run-all']);
  });

  it('says the person went away once 2 minutes pass without input, counted from their last input', async () => {
    const { calls, question } = setup();
    press();
    question.follow(countdown(T0));
    await vi.advanceTimersByTimeAsync(90_000);
    press();
    await vi.advanceTimersByTimeAsync(119_000);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual(['answer a1 away']);
  });

  it('ends its timer with the session', async () => {
    const { calls, question, lifetime } = setup();
    press();
    question.follow(countdown(T0));
    lifetime.abort();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls).toEqual([]);
  });
});
