import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  type Answer,
  type During,
  describe as describeEvent,
  type Kind,
  type NightColab,
  type NightEvent,
} from '../../e2e/night/events';
import { type Expected, NightModel } from '../../e2e/night/model';
import type { PersonOnlyKind } from './dialogs';
import type { DisconnectKind } from './disconnect';
import { effectiveMaxRestarts, loopCountAt, type PolicyEvent, type ReplyFor, reduce } from './policy';
import { defaultNotebook, defaultSettings, type NotebookRecord, type Settings, type Verdict } from './schema';

/**
 * The restart policy against the night's model of README's promises (e2e/night/model.ts, the very model the
 * randomized night in real Chromium checks): fast-check draws sequences of the night's events, a driver plays each
 * one as the page and the worker would report it to the pure reducer (on a clock of its own), and after each event
 * the record must say what the model expects. Thousands of events a second, so `npm test` explores the policy far
 * beyond what a night in a browser can. A failure prints its seed and the shrunk sequence: replay it with
 * POLICY_MODEL_SEED=<seed>.
 */

const SEED = Number(process.env.POLICY_MODEL_SEED ?? 53);
const RUNS = Number(process.env.POLICY_MODEL_RUNS ?? 400);

const KEY = 'drive:1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const TAB = 1;
const SECOND_TAB = 2;
const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;

const VERDICTS: Record<'gpu-oom' | 'tf-oom' | 'jax-oom' | 'host-ram' | 'crash' | 'unknown-crash', Verdict> = {
  'gpu-oom': { category: 'gpu-oom', rule: 'torch-cuda-oom', description: 'CUDA OOM', line: 'CUDA out of memory' },
  'tf-oom': { category: 'tf-oom', rule: 'tf-resource-exhausted', description: 'TF OOM', line: 'OOM when allocating' },
  'jax-oom': {
    category: 'jax-oom',
    rule: 'jax-resource-exhausted',
    description: 'JAX OOM',
    line: 'RESOURCE_EXHAUSTED',
  },
  'host-ram': { category: 'host-ram', rule: 'memory-error', description: 'MemoryError', line: 'MemoryError' },
  crash: { category: 'colab-crash', rule: 'colab-ram-crash', description: 'RAM crash', line: 'all available RAM' },
  'unknown-crash': {
    category: 'colab-crash-unknown',
    rule: 'colab-crash',
    description: 'crash',
    line: 'unknown reason',
  },
};
const PRESET_VERDICT = {
  'cuda-oom': 'gpu-oom',
  'tf-oom': 'tf-oom',
  'jax-oom': 'jax-oom',
  'host-ram': 'host-ram',
} as const;
const PERSON_DIALOG_KIND: Record<Extract<NightEvent, { kind: 'dialog' }>['dialog'], PersonOnlyKind> = {
  'drive-permission': 'drive-permission',
  'usage-limit': 'usage-limit',
  'gpu-unavailable': 'gpu-quota',
  'disallowed-code': 'disallowed-code',
};

/**
 * One guarded notebook as the worker's reducer sees it: the page's reports, the person's popup and answers, the
 * owner tab claiming its countdown at the deadline and performing the restart. What the page performs is counted as
 * the night counts it in the simulator's log.
 */
class PolicyNight {
  record: NotebookRecord;
  readonly settings: Settings;
  now = new Date(2026, 0, 5, 22, 0, 0).getTime();
  readonly seen = { restarts: 0, crashRunAlls: 0, reconnects: 0 };
  #attempts = 0;
  /** The page's watch has seen a cell run since it started (an outage then has a run to bring back). */
  #pageRan = false;
  /** Colab cannot connect (an outage): a reconnect fails. */
  #outage = false;
  /** A "Runtime disconnected" dialog is open: a reconnect clicks its Reconnect. */
  #disconnectDialog = false;
  /** A second tab on the notebook, open until the next event. */
  #second = false;

  constructor(colab: Pick<NightColab, 'reconnectOnDisconnect' | 'askAtKeyboard'>) {
    this.settings = {
      ...defaultSettings(),
      // The night's settings: every countdown 1 s.
      backoffBaseSec: 1,
      backoffMaxSec: 1,
      reconnectOnDisconnect: colab.reconnectOnDisconnect,
      askAtKeyboard: colab.askAtKeyboard,
    };
    this.record = defaultNotebook(KEY);
    this.#send({ type: 'set-enabled', enabled: true });
  }

  #send<E extends PolicyEvent>(event: E): ReplyFor<E> {
    const ctx = { now: this.now, settings: this.settings, session: 's', newAttemptId: () => `a${++this.#attempts}` };
    const { record, reply } = reduce(this.record, event, ctx);
    this.record = record;
    return reply;
  }

  play(event: NightEvent): void {
    if (this.#second) {
      this.#second = false;
      this.#send({ type: 'tab-closed', tabId: SECOND_TAB, gone: 'closed', othersShow: true });
    }
    this.#perform(event);
    // The night reads the popup after every event: a page showing the record (state/idle-end.ts).
    this.now += SEC;
    this.#send({ type: 'settle' });
  }

  #perform(event: NightEvent): void {
    switch (event.kind) {
      case 'run-ok':
      case 'other-error':
      case 'caught-oom':
      case 'old-log':
        this.#run();
        return;
      case 'typing':
      case 'worker-stop':
        return;
      case 'stop':
        this.#run('stopped');
        return;
      case 'oom':
        this.#oom(event);
        return;
      case 'shell-oom':
        this.#fails(VERDICTS['gpu-oom']);
        return;
      case 'ram-crash':
        this.#fails(VERDICTS.crash, 'crash-toast');
        return;
      case 'unknown-crash':
        this.#fails(VERDICTS['unknown-crash'], 'crash-toast');
        return;
      case 'hidden':
        // Nobody at the keyboard of a hidden tab: never asked.
        if (event.fails) {
          this.#fails(VERDICTS['gpu-oom']);
          return;
        }
        this.#run();
        return;
      case 'second-tab':
        this.#secondTab(event.late);
        return;
      case 'healthy-stretch':
        this.now += 31 * MIN;
        return;
      case 'asleep':
        this.now += event.hours * HOUR;
        return;
      case 'disconnect':
        this.#disconnect(event.reason);
        return;
      case 'outage':
        this.#outageEvent();
        return;
      case 'reload':
      case 'update':
      case 'other-notebook':
        // The same as when they land in a countdown.
        this.#during(event.kind);
        return;
      case 'dialog':
        if (this.record.enabled) {
          this.#send({
            type: 'dialog',
            tabId: TAB,
            detectedAt: this.now,
            kind: PERSON_DIALOG_KIND[event.dialog],
            text: 'x',
          });
        }
        return;
      case 'switch':
        // Switched on, the page's watch starts afresh; the switch already on changes nothing.
        if (event.on && !this.record.enabled) this.#pageRan = false;
        this.#send({ type: 'set-enabled', enabled: event.on });
        return;
      case 'limit':
        this.#send({ type: 'set-max-restarts', value: event.max });
        return;
    }
  }

  /** The person's Run all: cells under way, then done; the run stopped by the person when `stopped`. */
  #run(end?: 'stopped'): number {
    const startedAt = this.now;
    this.#send({ type: 'activity', tabId: TAB, busy: true });
    this.#send({ type: 'run', tabId: TAB, detectedAt: this.now, what: 'started' });
    if (this.record.enabled) this.#pageRan = true;
    this.now += 10 * SEC;
    this.#send({ type: 'activity', tabId: TAB, busy: false });
    if (end) this.#send({ type: 'run', tabId: TAB, detectedAt: this.now, what: end, line: 'KeyboardInterrupt' });
    return startedAt;
  }

  /** A run that ends in `verdict`, reported by the page; the countdown carried out (or asked about) when one starts. */
  #failure(verdict: Verdict, source: 'error-output' | 'crash-toast' = 'error-output', asked = false): boolean {
    const startedAt = this.#run();
    const reply = this.#send({ type: 'failure', tabId: TAB, detectedAt: this.now, startedAt, verdict, source });
    if (reply.outcome !== 'scheduled') return false;
    if (asked) this.#send({ type: 'ask', tabId: TAB, attempt: reply.attempt });
    return true;
  }

  /** A failure, and its countdown carried out. */
  #fails(verdict: Verdict, source: 'error-output' | 'crash-toast' = 'error-output'): void {
    if (this.#failure(verdict, source)) this.#countdown('restart');
  }

  /**
   * An OOM after the person's Run all: asked about when the question is on (the person just clicked). An event meant
   * for its countdown lands in it; the person answers where the page that asked is still there.
   */
  #oom(event: Extract<NightEvent, { kind: 'oom' }>): void {
    const asked = this.settings.askAtKeyboard;
    if (!this.#failure(VERDICTS[PRESET_VERDICT[event.preset]], 'error-output', asked)) return;
    if (event.during) this.#during(event.during);
    const answer = !event.during || event.during === 'worker-stop' ? (event.answer ?? 'restart') : 'restart';
    this.#countdown(answer);
  }

  #during(during: During): void {
    switch (during) {
      case 'reload':
      case 'update':
        this.#arrive();
        return;
      case 'other-notebook':
        this.#leave();
        this.#arrive();
        return;
      case 'switch-off':
        this.#send({ type: 'set-enabled', enabled: false });
        return;
      case 'asleep':
        this.now += 2 * HOUR;
        return;
      case 'disconnect':
        this.#disconnect('zero-units');
        return;
      case 'worker-stop':
        return;
    }
  }

  /** A page arrives on the notebook in the tab (a reload, an update's new script, the tab back): its watch afresh. */
  #arrive(): void {
    this.#pageRan = false;
    const { status } = this.record;
    const owner = status.kind === 'pending' || status.kind === 'restarting' ? status.ownerTab : null;
    this.#send({ type: 'adopt', tabId: TAB, ownerAlive: owner === SECOND_TAB && this.#second });
    this.#countdown('restart');
  }

  /** The tab shows another notebook: the worker hands this one over (router.ts). */
  #leave(): void {
    this.#send({ type: 'tab-closed', tabId: TAB, gone: 'navigated', othersShow: this.#second });
  }

  /**
   * The owner page carries out what is pending: a question is answered `answer` (Restart now for one the night does
   * not follow), a countdown is claimed at its deadline, and what is granted is performed and reported.
   */
  #countdown(answer: Answer): void {
    for (let guard = 0; guard < 10; guard++) {
      const { status } = this.record;
      if (!this.record.enabled || status.kind !== 'pending') return;
      const { attempt, ownerTab, action } = status;
      if (status.askedAt !== undefined) {
        if (answer === 'away') this.now += 2 * MIN;
        const reply = this.#send({ type: 'answer', tabId: ownerTab, attempt, choice: answer });
        if (reply.granted) this.#carryOut(action, attempt, ownerTab);
        answer = 'restart';
        continue;
      }
      this.now = Math.max(this.now, status.restartAt);
      const reply = this.#send({ type: 'claim', tabId: ownerTab, attempt });
      if (reply.granted) this.#carryOut(action, attempt, ownerTab);
    }
    throw new Error('the countdown never ended');
  }

  /** Performs a granted restart, as the page's runner does, and reports how it went. */
  #carryOut(action: string, attempt: string, tabId: number): void {
    this.now += 5 * SEC;
    if (action === 'reconnect-and-run-all' && this.#outage) {
      const failed = { step: 'reconnect', reason: 'unable-to-connect', saw: 'Unable to connect' } as const;
      this.#send({ type: 'restart-result', tabId, attempt, ok: false, failed, runtime: 'unable-to-connect' });
      // The person sees Colab back after the guard's first reconnect failed.
      this.#outage = false;
      return;
    }
    if (action === 'restart-and-run-all') this.seen.restarts++;
    else this.seen.crashRunAlls++;
    if (action === 'reconnect-and-run-all' && this.#disconnectDialog) this.seen.reconnects++;
    this.#disconnectDialog = false;
    this.#pageRan = true;
    this.#send({ type: 'restart-result', tabId, attempt, ok: true });
  }

  #disconnect(reason: 'idle' | 'disallowed-code' | 'zero-units'): void {
    this.#disconnectDialog = true;
    const kind: DisconnectKind = reason;
    if (this.record.enabled) this.#send({ type: 'disconnect', tabId: TAB, detectedAt: this.now, kind, line: reason });
    this.#countdown('restart');
    // Whatever the guard did not answer, the person closes and connects again.
    this.#disconnectDialog = false;
  }

  /** Colab cannot connect; a page that saw a run reports it (settings.md), and its reconnects are carried out. */
  #outageEvent(): void {
    this.#outage = true;
    if (this.record.enabled && this.#pageRan) {
      this.#send({ type: 'disconnect', tabId: TAB, detectedAt: this.now, kind: 'unable-to-connect', line: 'x' });
      this.#countdown('restart');
    }
    this.#outage = false;
  }

  /** A second tab on the notebook: the same failure reported there too, at once or after the restart. */
  #secondTab(late: boolean): void {
    this.#second = true;
    this.#send({ type: 'adopt', tabId: SECOND_TAB, ownerAlive: false });
    const startedAt = this.now;
    if (!this.#failure(VERDICTS['gpu-oom'])) return;
    const report = { type: 'failure', tabId: SECOND_TAB, startedAt, verdict: VERDICTS['gpu-oom'] } as const;
    if (!late) this.#send({ ...report, detectedAt: this.now, source: 'error-output' });
    this.#countdown('restart');
    if (late) this.#send({ ...report, detectedAt: this.now, source: 'error-output' });
  }
}

/**
 * What the night checks after each event, on the record instead of the popup and the simulator's log. Plain
 * comparisons (vitest's `expect` costs more than the policy itself at this rate): each broken invariant is named.
 */
function check(want: Expected, night: PolicyNight): void {
  const { record, seen, settings, now } = night;
  const history = record.history;
  const count = (type: string, choice?: string) =>
    history.filter((e) => e.type === type && (choice === undefined || e.params?.choice === choice)).length;
  const broken: string[] = [];
  const same = (what: string, got: unknown, expected: unknown) => {
    if (got !== expected) broken.push(`${what}: ${String(got)}, the model says ${String(expected)}`);
  };
  same('restarts', seen.restarts, want.restarts);
  same("crash Run alls (a RAM crash's, a reconnect's)", seen.crashRunAlls, want.crashRunAlls);
  same('reconnects in the disconnect dialog', seen.reconnects, want.reconnects);
  same('the guard on', record.enabled, want.enabled);
  if (history.length > 200) broken.push(`history unbounded: ${history.length} entries`);
  if (history.length < 200) {
    same('give-ups recorded', count('gave-up'), want.giveUps);
    same('Not now left to you', count('asked', 'not-now'), want.leftToYou);
  }
  if (!want.enabled && record.status.kind === 'pending') broken.push('a countdown pending with the guard off');
  if (want.enabled) {
    same('status', record.status.kind, want.gaveUp ? 'gave-up' : 'watching');
    same('the limit', effectiveMaxRestarts(record, settings), want.limit);
    if (!want.gaveUp) same('crash-loop restarts used', loopCountAt(record, settings, now), want.loop);
  }
  if (broken.length) throw new Error(broken.join('; '));
}

class Play implements fc.Command<NightModel, PolicyNight> {
  constructor(readonly event: NightEvent) {}
  check(): boolean {
    return true;
  }
  run(model: NightModel, night: PolicyNight): void {
    night.play(this.event);
    model.apply(this.event);
    check(model.expected(), night);
  }
  toString(): string {
    return describeEvent(this.event);
  }
}

const DURINGS: During[] = ['reload', 'switch-off', 'worker-stop', 'other-notebook', 'update', 'asleep', 'disconnect'];

/** Every kind of the night's events (a new kind fails to compile here until the driver plays it). */
const EVENTS: Record<Kind, fc.Arbitrary<NightEvent>> = {
  'run-ok': fc.constant({ kind: 'run-ok' }),
  oom: fc.record(
    {
      kind: fc.constant('oom' as const),
      preset: fc.constantFrom('cuda-oom', 'tf-oom', 'jax-oom', 'host-ram'),
      place: fc.constantFrom('frame', 'main'),
      during: fc.constantFrom(...DURINGS),
      answer: fc.constantFrom('restart', 'not-now', 'away'),
    },
    { requiredKeys: ['kind', 'preset', 'place'] },
  ),
  'ram-crash': fc.constant({ kind: 'ram-crash' }),
  'unknown-crash': fc.constant({ kind: 'unknown-crash' }),
  'other-error': fc.constant({ kind: 'other-error' }),
  'caught-oom': fc.constant({ kind: 'caught-oom' }),
  stop: fc.constant({ kind: 'stop' }),
  'shell-oom': fc.constant({ kind: 'shell-oom' }),
  'old-log': fc.constant({ kind: 'old-log' }),
  'healthy-stretch': fc.constant({ kind: 'healthy-stretch' }),
  asleep: fc.record({ kind: fc.constant('asleep' as const), hours: fc.constantFrom(2 as const, 13 as const) }),
  disconnect: fc.record({
    kind: fc.constant('disconnect' as const),
    reason: fc.constantFrom('idle' as const, 'disallowed-code' as const, 'zero-units' as const),
  }),
  outage: fc.constant({ kind: 'outage' }),
  reload: fc.constant({ kind: 'reload' }),
  'other-notebook': fc.constant({ kind: 'other-notebook' }),
  'worker-stop': fc.constant({ kind: 'worker-stop' }),
  update: fc.constant({ kind: 'update' }),
  dialog: fc.record({
    kind: fc.constant('dialog' as const),
    dialog: fc.constantFrom('drive-permission', 'usage-limit', 'gpu-unavailable', 'disallowed-code' as const),
  }),
  switch: fc.record({ kind: fc.constant('switch' as const), on: fc.boolean() }),
  limit: fc.record({ kind: fc.constant('limit' as const), max: fc.integer({ min: 0, max: 4 }) }),
  typing: fc.constant({ kind: 'typing' }),
  'second-tab': fc.record({ kind: fc.constant('second-tab' as const), late: fc.boolean() }),
  hidden: fc.record({ kind: fc.constant('hidden' as const), fails: fc.boolean() }),
};

const commands = fc.commands(
  Object.values(EVENTS).map((arbitrary) => arbitrary.map((event) => new Play(event))),
  { maxCommands: 80, size: 'large' },
);
const colabs = fc.record({ reconnectOnDisconnect: fc.boolean(), askAtKeyboard: fc.boolean() });

describe("the restart policy against the night's model of README's promises", () => {
  // About a second alone; the bound is for a loaded machine and for mutation testing's instrumented code.
  it(`holds every invariant after every event of ${RUNS} random nights (fast-check seed ${SEED})`, {
    timeout: 120_000,
  }, () => {
    let events = 0;
    const started = performance.now();
    fc.assert(
      fc.property(colabs, commands, (colab, cmds) => {
        events += [...cmds].length;
        fc.modelRun(() => ({ model: new NightModel(colab), real: new PolicyNight(colab) }), cmds);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    const seconds = (performance.now() - started) / 1000;
    console.info(
      `policy model: ${RUNS} nights, ${events} events in ${seconds.toFixed(2)} s ` +
        `(${Math.round(events / seconds)} events a second), fast-check seed ${SEED}`,
    );
  });
});
