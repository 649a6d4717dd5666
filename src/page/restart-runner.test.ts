import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultNotebook, type NotebookRecord } from '../state/schema';
import type { Why } from '../state/why';
import { createRestartRunner, type RunnerDeps } from './restart-runner';

/** Colab's actions, as the runner is given them: each test says how they go. */
const colab = {
  restartAndRunAll: vi.fn(),
  runAll: vi.fn(),
  reconnect: vi.fn(),
  awaitReconnect: vi.fn(),
};

const TAB = 4;
const T0 = 1_000_000;
const verdict = {
  category: 'gpu-oom' as const,
  rule: 'r',
  description: 'CUDA out of memory',
  line: 'OutOfMemoryError',
};

function pending(
  attempt = 'a1',
  ownerTab = TAB,
  restartAt = T0 + 5000,
  action: 'restart-and-run-all' | 'run-all' = 'restart-and-run-all',
): NotebookRecord {
  return {
    ...defaultNotebook('drive:x'),
    enabled: true,
    status: { kind: 'pending', reason: 'failure', action, restartAt, attempt, ownerTab, detectedAt: T0, verdict },
  };
}

function deps(overrides: Partial<RunnerDeps> = {}) {
  const calls: string[] = [];
  const d: RunnerDeps = {
    doc: {} as Document,
    signal: new AbortController().signal,
    tabId: TAB,
    claim: vi.fn(async (_key: string, attempt: string) => {
      calls.push(`claim ${attempt}`);
      return { granted: true as const, action: 'restart-and-run-all' as const };
    }),
    result: vi.fn(async (_key: string, attempt: string, outcome) => {
      calls.push(`result ${attempt} ${outcome.ok ? 'ok' : JSON.stringify(outcome.failed)}`);
    }),
    beforeAction: () => calls.push('before'),
    afterAction: () => calls.push('after'),
    unclaimed: (why) => calls.push(`unclaimed ${why.kind}`),
    askFirst: async () => false,
    capture: () => undefined,
    colab,
    ...overrides,
  };
  return { d, calls };
}

describe('restart runner', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    colab.restartAndRunAll.mockResolvedValue({
      ok: true,
      path: 'menu',
      via: 'command',
      dialog: 'confirmed',
      evidence: 'cells pending',
    });
    colab.runAll.mockResolvedValue({
      ok: true,
      path: 'menu',
      via: 'command',
      dialog: 'none',
      evidence: 'cells pending',
    });
  });
  afterEach(() => vi.useRealTimers());

  it('claims at the deadline, performs the granted action once, then reports', async () => {
    const { d, calls } = deps();
    const runner = createRestartRunner(d);
    runner.follow(pending());
    runner.follow(pending());
    await vi.advanceTimersByTimeAsync(4999);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['claim a1', 'before', 'result a1 ok', 'after']);
    expect(colab.restartAndRunAll).toHaveBeenCalledTimes(1);
  });

  it('does nothing for a countdown another tab owns, or when the guard is off', async () => {
    const { d, calls } = deps();
    const runner = createRestartRunner(d);
    runner.follow(pending('a1', TAB + 1));
    runner.follow({ ...pending('a2'), enabled: false });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual([]);
  });

  it('a cancelled countdown never fires', async () => {
    const { d, calls } = deps();
    const runner = createRestartRunner(d);
    runner.follow(pending());
    runner.follow({ ...pending(), status: { kind: 'watching' } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual([]);
  });

  it(
    'acts on nothing when the claim is refused, and claims no more once the record gives the countdown to another ' +
      'tab',
    async () => {
      const claim = vi.fn(async () => ({ granted: false as const, why: { kind: 'other-owner' as const } }));
      const { d, calls } = deps({ claim });
      const runner = createRestartRunner(d);
      runner.follow(pending());
      await vi.advanceTimersByTimeAsync(5000);
      runner.follow(pending('a1', TAB + 1));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(claim).toHaveBeenCalledTimes(1);
      expect(calls).toEqual([]);
      expect(colab.restartAndRunAll).not.toHaveBeenCalled();
    },
  );

  it('claims again, 5 s apart, when a claim is refused while the countdown is still its own', async () => {
    const refusals: Why[] = [{ kind: 'no-answer' }, { kind: 'too-early', seconds: 2 }];
    const claim = vi.fn(async (_key: string, _attempt: string) => {
      const why = refusals.shift();
      return why ? { granted: false as const, why } : { granted: true as const, action: 'run-all' as const };
    });
    const { d, calls } = deps({ claim });
    createRestartRunner(d).follow(pending());
    await vi.advanceTimersByTimeAsync(5000);
    expect(claim).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4999);
    expect(claim).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(claim).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(claim).toHaveBeenCalledTimes(3);
    expect(claim).toHaveBeenLastCalledWith('drive:x', 'a1');
    expect(calls).toEqual(['before', 'result a1 ok', 'after']);
    expect(colab.runAll).toHaveBeenCalledTimes(1);
  });

  it('retries a refused claim no earlier than the deadline when the clock stepped back', async () => {
    const claim = vi.fn(async () => {
      vi.setSystemTime(Date.now() - 20_000);
      return { granted: false as const, why: { kind: 'too-early' as const, seconds: 20 } };
    });
    const { d } = deps({ claim });
    createRestartRunner(d).follow(pending('a1', TAB, T0 + 1000));
    await vi.advanceTimersByTimeAsync(1000);
    expect(claim).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(19_999);
    expect(claim).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(claim).toHaveBeenCalledTimes(2);
  });

  it('says the restart could not be started after the last refused retry, and claims no more', async () => {
    const claim = vi.fn(async () => ({ granted: false as const, why: { kind: 'no-answer' as const } }));
    const { d, calls } = deps({ claim });
    createRestartRunner(d).follow(pending());
    await vi.advanceTimersByTimeAsync(5000 + 3 * 5000);
    expect(claim).toHaveBeenCalledTimes(4);
    expect(calls).toEqual(['unclaimed no-answer']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(claim).toHaveBeenCalledTimes(4);
  });

  it("stops retrying when the countdown is cancelled or the notebook's session ends", async () => {
    const claim = vi.fn(async () => ({ granted: false as const, why: { kind: 'no-answer' as const } }));
    const cancelled = createRestartRunner(deps({ claim }).d);
    cancelled.follow(pending());
    await vi.advanceTimersByTimeAsync(5000);
    cancelled.follow({ ...pending(), status: { kind: 'watching' } });
    const session = new AbortController();
    const stopped = createRestartRunner(deps({ claim, signal: session.signal }).d);
    stopped.follow(pending('a2'));
    await vi.advanceTimersByTimeAsync(0);
    session.abort();
    await vi.advanceTimersByTimeAsync(60_000);
    stopped.follow(pending('a3', TAB, T0));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(claim).toHaveBeenCalledTimes(2);
  });

  it('reports the failed step and what it saw, and does not retry', async () => {
    colab.restartAndRunAll.mockResolvedValue({
      ok: false,
      failed: { step: 'find-item', reason: 'item-missing', saw: 'items: Run all, Interrupt' },
    });
    const { d, calls } = deps();
    const runner = createRestartRunner(d);
    runner.follow(pending());
    await vi.advanceTimersByTimeAsync(5000);
    runner.follow(pending());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual([
      'claim a1',
      'before',
      'result a1 {"step":"find-item","reason":"item-missing","saw":"items: Run all, Interrupt"}',
      'after',
    ]);
  });

  it('reports an exception in the action as a failed step, so the restart does not stay in progress', async () => {
    colab.restartAndRunAll.mockRejectedValue(new TypeError('menu is null'));
    const { d, calls } = deps();
    const runner = createRestartRunner(d);
    runner.follow(pending());
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual([
      'claim a1',
      'before',
      'result a1 {"step":"exception","reason":"threw","saw":"TypeError: menu is null"}',
      'after',
    ]);
    expect(runner.busy).toBe(false);
  });

  it('is busy while the action runs, so reports can wait for the result', async () => {
    let finish: (value: unknown) => void = () => {};
    colab.restartAndRunAll.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    const { d } = deps();
    const runner = createRestartRunner(d);
    runner.follow(pending());
    await vi.advanceTimersByTimeAsync(5000);
    expect(runner.busy).toBe(true);
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'confirmed', evidence: '' });
    await vi.advanceTimersByTimeAsync(0);
    expect(runner.busy).toBe(false);
  });

  describe('reconnect and run all', () => {
    const granted = async () => ({ granted: true as const, action: 'reconnect-and-run-all' as const });
    const outcomes: unknown[] = [];
    const run = async () => {
      outcomes.length = 0;
      const { d, calls } = deps({
        claim: granted,
        result: vi.fn(async (_key: string, _attempt: string, outcome) => void outcomes.push(outcome)),
      });
      createRestartRunner(d).follow(pending());
      await vi.advanceTimersByTimeAsync(5000);
      return calls;
    };
    const before = { dialogs: new Set(), toasts: new Set() };

    it('reconnects, waits for the runtime, then runs all', async () => {
      colab.reconnect.mockResolvedValue({ ok: true, via: 'dialog', before });
      colab.awaitReconnect.mockResolvedValue({ ok: true });
      expect(await run()).toEqual(['before', 'after']);
      expect(outcomes).toEqual([{ ok: true }]);
      expect(colab.awaitReconnect).toHaveBeenCalledWith({}, before);
      expect(colab.runAll).toHaveBeenCalledTimes(1);
    });

    it('Colab unable to connect ends the attempt, as no UI problem, and runs nothing', async () => {
      colab.reconnect.mockResolvedValue({ ok: true, via: 'connect-button', before });
      colab.awaitReconnect.mockResolvedValue({
        ok: false,
        failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'Unable to connect' },
      });
      await run();
      expect(outcomes).toEqual([
        {
          ok: false,
          failed: { step: 'reconnect', reason: 'unable-to-connect', saw: 'Unable to connect' },
          runtime: 'unable-to-connect',
        },
      ]);
      expect(colab.runAll).not.toHaveBeenCalled();
    });

    it('a runtime connected again needs nothing', async () => {
      colab.reconnect.mockResolvedValue({
        ok: false,
        failed: { step: 'reconnect', reason: 'not-needed', saw: 'runtime busy' },
      });
      await run();
      expect(outcomes).toEqual([
        {
          ok: false,
          failed: { step: 'reconnect', reason: 'not-needed', saw: 'runtime busy' },
          runtime: 'not-needed',
        },
      ]);
      expect(colab.awaitReconnect).not.toHaveBeenCalled();
      expect(colab.runAll).not.toHaveBeenCalled();
    });

    it('anything else is a failed step: a dialog the guard leaves alone stops it', async () => {
      colab.reconnect.mockResolvedValue({
        ok: false,
        failed: { step: 'reconnect', reason: 'dialog-open', saw: 'disconnected (disallowed-code)' },
      });
      await run();
      expect(outcomes).toEqual([
        { ok: false, failed: { step: 'reconnect', reason: 'dialog-open', saw: 'disconnected (disallowed-code)' } },
      ]);
      expect(colab.runAll).not.toHaveBeenCalled();
    });
  });

  it('runs a deadline already past at once (a reload during the back-off resumes it)', async () => {
    const { d, calls } = deps({ claim: vi.fn(async () => ({ granted: true as const, action: 'run-all' as const })) });
    createRestartRunner(d).follow(pending('a1', TAB, T0 - 1000, 'run-all'));
    await vi.advanceTimersByTimeAsync(0);
    expect(colab.runAll).toHaveBeenCalledTimes(1);
    expect(calls.at(-2)).toBe('result a1 ok');
  });

  it('at the deadline asks the person at the keyboard instead of claiming; a question schedules no claim', async () => {
    const { d, calls } = deps({
      askFirst: vi.fn(async (_key: string, attempt: string) => {
        calls.push(`ask ${attempt}`);
        return true;
      }),
    });
    const runner = createRestartRunner(d);
    runner.follow(pending());
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toEqual(['ask a1']);
    const asked = pending();
    if (asked.status.kind === 'pending') asked.status.askedAt = T0 + 5000;
    runner.follow(asked);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toEqual(['ask a1']);
    runner.perform('drive:x', 'a1', 'restart-and-run-all');
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['ask a1', 'before', 'result a1 ok', 'after']);
  });
});

describe('restart runner: what it leaves alone', () => {
  beforeEach(() => {
    vi.clearAllMocks();
    vi.useFakeTimers();
    vi.setSystemTime(T0);
    colab.restartAndRunAll.mockResolvedValue({ ok: true, path: 'menu', via: 'command', dialog: 'none', evidence: '' });
  });
  afterEach(() => vi.useRealTimers());

  it('a claim refused once the countdown is no longer its own (cancelled meanwhile) is not tried again', async () => {
    let runner: ReturnType<typeof createRestartRunner> | null = null;
    const claim = vi.fn(async () => {
      runner?.follow({ ...pending(), status: { kind: 'watching' } });
      return { granted: false as const, why: { kind: 'no-pending' as const } };
    });
    const { d, calls } = deps({ claim });
    runner = createRestartRunner(d);
    runner.follow(pending());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(claim).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([]);
  });

  it("a claim refused after the notebook's session ended is not tried again, and nothing is said", async () => {
    const session = new AbortController();
    const claim = vi.fn(async () => {
      session.abort();
      return { granted: false as const, why: { kind: 'no-answer' as const } };
    });
    const { d, calls } = deps({ claim, signal: session.signal });
    createRestartRunner(d).follow(pending());
    await vi.advanceTimersByTimeAsync(60_000);
    expect(claim).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([]);
  });

  it('a countdown that is a question already (its page asked) schedules no claim, however long it waits', async () => {
    const { d, calls } = deps();
    const asked = pending('a7');
    if (asked.status.kind === 'pending') asked.status.askedAt = T0;
    createRestartRunner(d).follow(asked);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(calls).toEqual([]);
  });

  it('a restart under way in its own tab (a page loaded mid-restart) is not claimed again', async () => {
    const { d, calls } = deps();
    const record: NotebookRecord = {
      ...defaultNotebook('drive:x'),
      enabled: true,
      status: {
        kind: 'restarting',
        reason: 'failure',
        action: 'restart-and-run-all',
        attempt: 'a1',
        ownerTab: TAB,
        startedAt: T0,
      },
    };
    createRestartRunner(d).follow(record);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(calls).toEqual([]);
  });

  it('Restart now while a restart runs, or after the session ended, performs nothing more', async () => {
    let finish: (value: unknown) => void = () => undefined;
    colab.restartAndRunAll.mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const session = new AbortController();
    const { d } = deps({ signal: session.signal });
    const runner = createRestartRunner(d);
    runner.perform('drive:x', 'a1', 'restart-and-run-all');
    runner.perform('drive:x', 'a2', 'restart-and-run-all');
    expect(colab.restartAndRunAll).toHaveBeenCalledTimes(1);
    finish({ ok: true, path: 'menu', via: 'command', dialog: 'none', evidence: '' });
    await vi.advanceTimersByTimeAsync(0);
    expect(runner.busy).toBe(false);
    session.abort();
    runner.perform('drive:x', 'a3', 'restart-and-run-all');
    expect(colab.restartAndRunAll).toHaveBeenCalledTimes(1);
  });
});
