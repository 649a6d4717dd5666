import type { ActionOptions, ActionResult, awaitReconnect, reconnect, restartAndRunAll, runAll } from '../colab';
import type { ClaimReply } from '../messaging/protocol';
import { type Failed, fail } from '../state/failed-step';
import type { PageCapture } from '../state/page-capture';
import type { ReconnectEnd } from '../state/policy';
import type { NotebookRecord, RestartAction, Status } from '../state/schema';
import type { Why } from '../state/why';

/**
 * Follows the notebook's record: when this tab owns a pending restart it waits for the deadline the record holds (the
 * worker starts a countdown carried into a new page again, so it is always seen), claims the restart from the service
 * worker (granted once) and performs it through Colab's UI,
 * then reports how it went. A failed step is never retried: it stops the guard until the user re-arms it. Only a
 * refused claim is, a few times, while the record still gives this tab the countdown.
 */
export interface RunnerDeps {
  doc: Document;
  tabId: number;
  /** The notebook's session: its end cancels the countdown; a restart already under way still reports its result. */
  signal: AbortSignal;
  /** `key` is the attempt's notebook, which the tab may have left meanwhile. */
  claim(key: string, attempt: string): Promise<ClaimReply>;
  result(key: string, attempt: string, outcome: Outcome): Promise<void>;
  /** Called just before the action: from then on, outputs on the page belong to the old run. */
  beforeAction(): void;
  /** Called once the result was recorded (reports held during the action may go out now). */
  afterAction(): void;
  /** Every claim was refused though the countdown is still this tab's: nothing restarts unless the user acts. */
  unclaimed(why: Why): void;
  /** At the deadline, a person at the keyboard is asked instead (page/question.ts): true when the question stands. */
  askFirst(key: string, attempt: string): Promise<boolean>;
  /** Keeps what the action met in Colab's page (its menu, its dialog), for "Copy diagnostics". */
  capture(capture: PageCapture): void;
  /** The actions in Colab's page (colab/actions.ts), passed in so that tests drive the runner without Colab. */
  colab: ColabActions;
}

export interface ColabActions {
  restartAndRunAll: typeof restartAndRunAll;
  runAll: typeof runAll;
  reconnect: typeof reconnect;
  awaitReconnect: typeof awaitReconnect;
}

export interface RestartRunner {
  follow(record: NotebookRecord): void;
  /** A restart granted otherwise than by a claim (the person's Restart now). */
  perform(key: string, attempt: string, action: RestartAction): void;
  readonly busy: boolean;
}

/**
 * How the action went; a failure names the step and what it saw, for the user. `runtime`: a reconnect that found
 * Colab unable to connect, or nothing to reconnect, which is no UI problem (the policy decides what follows).
 */
export type Outcome = { ok: true } | (Failed & { runtime?: ReconnectEnd });

/**
 * A claim refused while the record still says this tab should claim is a passing refusal (the worker threw and gave
 * no answer, the wall clock stepped back: "too early"), so it is tried again, a few times.
 */
const CLAIM_RETRIES = 3;
const CLAIM_RETRY_MS = 5000;

type Pending = Extract<Status, { kind: 'pending' }>;

export function createRestartRunner(deps: RunnerDeps): RestartRunner {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scheduled: string | null = null;
  /** The record last followed: what a refused claim is checked against. */
  let current: NotebookRecord | null = null;
  /** An attempt is claimed once: a late or repeated storage event must not schedule it again. */
  const fired = new Set<string>();
  let busy = false;

  const clear = () => {
    clearTimeout(timer);
    timer = undefined;
    scheduled = null;
  };

  const claimAt = (key: string, attempt: string, at: number, retriesLeft: number) => {
    clear();
    scheduled = attempt;
    // Background tabs run timers late, never early; the claim tolerates a little earliness the other way.
    timer = setTimeout(() => void fire(key, attempt, retriesLeft), Math.max(0, at - Date.now()));
  };

  async function fire(key: string, attempt: string, retriesLeft: number) {
    scheduled = null;
    fired.add(attempt);
    if (await deps.askFirst(key, attempt)) return;
    const reply = await deps.claim(key, attempt);
    if (reply.granted) return act(key, attempt, reply.action);
    const countdown = ownCountdown(current, deps.tabId);
    if (countdown?.attempt !== attempt) return;
    if (retriesLeft === 0) return deps.unclaimed(reply.why);
    claimAt(key, attempt, Math.max(Date.now() + CLAIM_RETRY_MS, countdown.restartAt), retriesLeft - 1);
  }

  async function act(key: string, attempt: string, action: RestartAction) {
    busy = true;
    try {
      deps.beforeAction();
      await deps.result(key, attempt, await performReporting(deps.colab, deps.doc, action, { capture: deps.capture }));
    } finally {
      busy = false;
      deps.afterAction();
    }
  }

  deps.signal.addEventListener('abort', () => {
    current = null;
    clear();
  });

  return {
    follow(record) {
      if (deps.signal.aborted) return;
      current = record;
      const countdown = ownCountdown(record, deps.tabId);
      // A question waits for the person's answer, not for a deadline.
      if (!countdown || countdown.askedAt !== undefined) return clear();
      if (scheduled === countdown.attempt || fired.has(countdown.attempt)) return;
      claimAt(record.key, countdown.attempt, countdown.restartAt, CLAIM_RETRIES);
    },
    perform(key, attempt, action) {
      if (busy || deps.signal.aborted) return;
      fired.add(attempt);
      void act(key, attempt, action);
    },
    get busy() {
      return busy;
    },
  };
}

/** The pending restart this tab is to claim, if the record gives it one. */
function ownCountdown(record: NotebookRecord | null, tabId: number): Pending | null {
  if (!record?.enabled) return null;
  const { status } = record;
  return status.kind === 'pending' && status.ownerTab === tabId ? status : null;
}

/** An exception is reported like a failed step: a restart left "in progress" would block the notebook until timeout. */
async function performReporting(
  colab: ColabActions,
  doc: Document,
  action: RestartAction,
  opts: ActionOptions,
): Promise<Outcome> {
  try {
    return await perform(colab, doc, action, opts);
  } catch (error) {
    return fail('exception', 'threw', String(error));
  }
}

async function perform(
  colab: ColabActions,
  doc: Document,
  action: RestartAction,
  opts: ActionOptions,
): Promise<Outcome> {
  switch (action) {
    case 'restart-and-run-all':
      return outcomeOf(await colab.restartAndRunAll(doc, opts));
    case 'run-all':
      return outcomeOf(await colab.runAll(doc, opts));
    case 'reconnect-and-run-all':
      return reconnectAndRunAll(colab, doc, opts);
  }
}

/**
 * Reconnect as a person would (the dialog's Reconnect, else the connect button showing "Reconnect"), wait until the
 * runtime is connected, then Runtime → Run all. Colab unable to connect ends the attempt (the policy counts it and
 * may try once more after a back-off); a runtime already connected or connecting again needs nothing.
 */
async function reconnectAndRunAll(colab: ColabActions, doc: Document, opts: ActionOptions): Promise<Outcome> {
  const started = await colab.reconnect(doc);
  if (!started.ok) return reconnectFailed(started);
  const connected = await colab.awaitReconnect(doc, started.before);
  if (!connected.ok) return reconnectFailed(connected);
  return outcomeOf(await colab.runAll(doc, opts));
}

/** Colab unable to connect, or nothing to reconnect, is no UI problem: the policy decides what follows. */
function reconnectFailed(failure: Failed<'reconnect'>): Outcome {
  const { reason } = failure.failed;
  return reason === 'not-needed' || reason === 'unable-to-connect' ? { ...failure, runtime: reason } : failure;
}

function outcomeOf(result: ActionResult): Outcome {
  if (result.ok) return { ok: true };
  return result;
}
