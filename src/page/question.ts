import type { ClaimReply } from '../messaging/protocol';
import type { AskChoice, NotebookRecord, RestartAction, Status } from '../state/schema';
import type { Presence } from './presence';

/**
 * A person at the keyboard is never surprised: while they work in the tab that owns a countdown, the countdown
 * becomes the notice's question ("Restart session and run all?") and nothing acts until they click. When they stop
 * (no input for `PRESENT_MS`, or the tab left), the page says so and the policy shows the countdown again.
 */
export interface QuestionDeps {
  tabId: number;
  signal: AbortSignal;
  presence: Presence;
  /** The user's setting: ask first at all. */
  enabled(): boolean;
  ask(key: string, attempt: string): Promise<boolean>;
  /** The worker did not take a question: the countdown it would have replaced is to be shown after all. */
  refused(): void;
  answer(key: string, attempt: string, choice: AskChoice): Promise<ClaimReply | null>;
  /** Restart now was granted: perform the restart as at a countdown's end. */
  perform(key: string, attempt: string, action: RestartAction): void;
}

export interface Question {
  follow(record: NotebookRecord): void;
  /** A person came back to the tab: a countdown under way asks them. */
  arrived(): void;
  /** At a countdown's end: asks instead of acting when a person is there; whether the worker took the question. */
  askFirst(key: string, attempt: string): Promise<boolean>;
  /** A question about this countdown is on its way to the worker. */
  asking(attempt: string): boolean;
  /** The notice's buttons. */
  choose(choice: Extract<AskChoice, 'restart' | 'not-now'>): void;
}

type Pending = Extract<Status, { kind: 'pending' }>;

export function createQuestion(deps: QuestionDeps): Question {
  let current: { key: string; countdown: Pending } | null = null;
  let lapse: ReturnType<typeof setTimeout> | undefined;
  /** An attempt is asked about once from here: a refused ask must not be sent at every input. */
  const asked = new Set<string>();

  const onTheWay = new Set<string>();

  const askFirst = async (key: string, attempt: string) => {
    if (!deps.enabled() || !deps.presence.present() || asked.has(attempt)) return false;
    asked.add(attempt);
    onTheWay.add(attempt);
    const took = await deps.ask(key, attempt).finally(() => onTheWay.delete(attempt));
    if (!took) deps.refused();
    return took;
  };

  // Checked when the person would stop counting as present; their input since moves it on.
  const watchLapse = (key: string, attempt: string) => {
    clearTimeout(lapse);
    lapse = setTimeout(
      () => {
        if (deps.presence.present()) watchLapse(key, attempt);
        else void deps.answer(key, attempt, 'away');
      },
      Math.max(1000, deps.presence.until() - Date.now()),
    );
  };

  deps.signal.addEventListener('abort', () => clearTimeout(lapse));

  return {
    follow(record) {
      clearTimeout(lapse);
      const { status } = record;
      const own = record.enabled && status.kind === 'pending' && status.ownerTab === deps.tabId;
      current = own ? { key: record.key, countdown: status } : null;
      if (!current || deps.signal.aborted) return;
      const { attempt, askedAt } = current.countdown;
      if (askedAt === undefined) void askFirst(record.key, attempt);
      else watchLapse(record.key, attempt);
    },
    arrived() {
      if (current && current.countdown.askedAt === undefined) void askFirst(current.key, current.countdown.attempt);
    },
    askFirst,
    asking: (attempt) => onTheWay.has(attempt),
    choose(choice) {
      if (current?.countdown.askedAt === undefined) return;
      const { key, countdown } = current;
      void deps.answer(key, countdown.attempt, choice).then((reply) => {
        if (reply?.granted) deps.perform(key, countdown.attempt, reply.action);
      });
    },
  };
}
