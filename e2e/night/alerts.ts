import { expect } from '@playwright/test';
import { type AlertReceiver, startAlertReceiver } from '../harness/alert-receiver';
import { ALERT_EVENT_NAMES, type AlertEventName, type NightAlerts } from './events';
import type { Expected } from './model';

/**
 * The night's alerts, observed at a local receiver (docs/alerts.md's generic JSON shape, whose `event` names what
 * happened). Each night posts to its own path, so that a retry left over from an earlier night in the same browser is
 * not counted in this one.
 *
 * docs/alerts.md: only the chosen events alert; a give-up alerts; each restart alerts when chosen; at most one alert
 * of a kind per notebook in 5 minutes, the next one saying how many were held back (`heldBack`), the ones held since
 * counted in the alert log; a failed delivery is tried again (10 s, 1 min and 5 min later: at most 4 posts of one
 * alert); "a restart never waits for one". The guard's own 12-hour end is not an alert event. A stopped run, a finished
 * run and Colab waiting for the person are not counted by the model (it does not follow Colab's run-by-run reports):
 * they are only checked to come when chosen or never. A tab gone during a run is on by default and not
 * drawn, so that a seed keeps the night it had: it is allowed, never counted (the night's other notebook, opened in the
 * Colab tab during a run, is one).
 */
export const MAX_POSTS_PER_ALERT = 4;

/** What the model counts, by alert event: the others are allowed when chosen, never counted. */
function counted(want: Expected): Partial<Record<AlertEventName, number>> {
  return { 'gave-up': want.giveUps, restarted: want.restarts + want.crashRunAlls, 'ui-problem': 0 };
}

/** One post, as the generic JSON shape has it. */
interface Posted {
  event: string;
  time: string;
  heldBack: number;
}

/** How many alerts of each kind the worker holds back now (alertLog.recent, docs/alerts.md). */
export type HeldNow = () => Promise<Record<string, number>>;

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
    return { v: 2, url: this.receiver.url(this.#path), kind: 'json', events: config.events };
  }

  /** The posts to this night's path, one entry per post (a retry is another post of the same alert). */
  posted(): Posted[] {
    return this.receiver.received
      .filter((r) => r.path === this.#path)
      .map((r) => {
        try {
          const { event, time, heldBack } = JSON.parse(r.body) as Partial<Posted>;
          return { event: String(event), time: String(time), heldBack: Number(heldBack ?? 0) };
        } catch {
          return { event: `unreadable: ${r.body.slice(0, 60)}`, time: '', heldBack: 0 };
        }
      });
  }

  /**
   * After an event has settled: every counted alert has arrived or is held back (delivery is the worker's, after the
   * restart: waited for, briefly), each alert posted exactly once when the receiver answers 200, and nothing else came.
   * An event of a counted kind is one alert sent, or one held back: said by a later alert's `heldBack`, or still
   * counted in the worker's log.
   */
  async check(
    want: Expected,
    heldNow: HeldNow,
    check: (ok: boolean, signature: string, detail?: string) => void,
  ): Promise<void> {
    const config = this.#config;
    const drawn = ALERT_EVENT_NAMES.filter((name) => config?.events[name]);
    const chosen = new Set<string>(config ? [...drawn, 'tab-gone'] : drawn);
    const expected = Object.entries(counted(want)).filter(([name]) => chosen.has(name as AlertEventName)) as Array<
      [AlertEventName, number]
    >;
    const told = async (name: string) => {
      const alerts = distinct(this.posted().filter((p) => p.event === name));
      const held = (await heldNow())[name] ?? 0;
      return { alerts: alerts.length, accounted: alerts.reduce((sum, a) => sum + 1 + a.heldBack, held) };
    };
    await expect
      .poll(
        async () =>
          (await Promise.all(expected.map(async ([name, n]) => (await told(name)).accounted >= n))).every(Boolean),
        {
          timeout: 20_000,
        },
      )
      .toBe(true)
      .catch(() => undefined);
    const posted = this.posted();
    const unchosen = posted.filter((p) => !chosen.has(p.event as AlertEventName)).map((p) => p.event);
    check(unchosen.length === 0, 'alerts not chosen', unchosen.join(', '));
    for (const [name, n] of expected) {
      const { alerts, accounted } = await told(name);
      const posts = posted.filter((p) => p.event === name).length;
      const once = config?.receiver === 'ok' ? posts === alerts : posts <= alerts * MAX_POSTS_PER_ALERT;
      check(
        accounted === n && once,
        `${name} alerts`,
        `${posts} posted of ${alerts} alerts, ${accounted} accounted, ${n} expected (receiver ${config?.receiver})`,
      );
    }
  }
}

/** The alerts among posts: a retry carries the same time, written when the alert was made. */
function distinct(posts: Posted[]): Posted[] {
  return [...new Map(posts.map((p) => [`${p.event} ${p.time}`, p])).values()];
}
