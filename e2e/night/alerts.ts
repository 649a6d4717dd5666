import { expect } from '@playwright/test';
import { type AlertReceiver, startAlertReceiver } from '../harness/alert-receiver';
import { ALERT_EVENT_NAMES, type AlertEventName, type NightAlerts } from './events';
import type { Expected } from './model';

/**
 * The night's alerts, observed at a local receiver (docs/alerts.md's generic JSON shape, whose `event` names what
 * happened). Each night posts to its own path, so that a retry left over from an earlier night in the same browser is
 * not counted in this one.
 *
 * docs/alerts.md: only the chosen events alert; a give-up alerts; each restart alerts when chosen; a failed delivery is
 * tried again (10 s, 1 min and 5 min later: at most 4 posts of one alert); "a restart never waits for one". The guard's
 * own 12-hour end is not an alert event. A stopped run, a finished run and Colab waiting for the person are not counted
 * by the model (it does not follow Colab's run-by-run reports): they are only checked to come when chosen or never.
 * A tab gone during a run (issue 52) is on by default and not drawn, so that a seed keeps the night it had: it is
 * allowed, never counted (the night's other notebook, opened in the Colab tab during a run, is one).
 */
export const MAX_POSTS_PER_ALERT = 4;

/** What the model counts, by alert event: the others are allowed when chosen, never counted. */
function counted(want: Expected): Partial<Record<AlertEventName, number>> {
  return { 'gave-up': want.giveUps, restarted: want.restarts + want.crashRunAlls, 'ui-problem': 0 };
}

export class NightAlertWatch {
  #path = '';
  #config: NightAlerts | null = null;

  private constructor(private readonly receiver: AlertReceiver) {}

  static async start(): Promise<NightAlertWatch> {
    return new NightAlertWatch(await startAlertReceiver());
  }

  async stop(): Promise<void> {
    await this.receiver.stop();
  }

  /** The alerts setting for a night named `name` (stored under `alerts`), or null when the night has none. */
  begin(name: string, config: NightAlerts | null): Record<string, unknown> | null {
    this.#config = config;
    this.#path = `/night/${name}`;
    if (!config) return null;
    this.receiver.answer(config.receiver === 'ok' ? 200 : config.receiver === 'fails' ? 503 : 'hang');
    return { v: 1, url: this.receiver.url(this.#path), kind: 'json', events: config.events };
  }

  /** The events posted to this night's path, one entry per post. */
  posted(): string[] {
    return this.receiver.received
      .filter((r) => r.path === this.#path)
      .map((r) => {
        try {
          return String((JSON.parse(r.body) as { event?: unknown }).event);
        } catch {
          return `unreadable: ${r.body.slice(0, 60)}`;
        }
      });
  }

  /**
   * After an event has settled: every counted alert has arrived (delivery is the worker's, after the restart: waited
   * for, briefly), exactly once when the receiver answers 200, and nothing else came.
   */
  async check(want: Expected, check: (ok: boolean, signature: string, detail?: string) => void): Promise<void> {
    const config = this.#config;
    const drawn = ALERT_EVENT_NAMES.filter((name) => config?.events[name]);
    const chosen = new Set<string>(config ? [...drawn, 'tab-gone'] : drawn);
    const expected = Object.entries(counted(want)).filter(([name]) => chosen.has(name as AlertEventName)) as Array<
      [AlertEventName, number]
    >;
    const count = (name: string) => this.posted().filter((e) => e === name).length;
    await expect
      .poll(() => expected.every(([name, n]) => count(name) >= n), { timeout: 20_000 })
      .toBe(true)
      .catch(() => undefined);
    const posted = this.posted();
    const unchosen = posted.filter((e) => !chosen.has(e as AlertEventName));
    check(unchosen.length === 0, 'alerts not chosen', unchosen.join(', '));
    for (const [name, n] of expected) {
      const got = count(name);
      const ok = config?.receiver === 'ok' ? got === n : got >= n && got <= n * MAX_POSTS_PER_ALERT;
      check(ok, `${name} alerts`, `${got} posted, ${n} expected (receiver ${config?.receiver})`);
    }
  }
}
