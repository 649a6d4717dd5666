import * as v from 'valibot';
import type { NotebookRecord, Settings } from './schema';

/**
 * Whether a guarded run goes on, derived from the stored records alone: what keeps the computer awake, what the
 * heartbeat pings for, and what makes a tab that goes without a word a loss. The service worker applies it
 * (background/night-watch.ts); nothing here reads a browser.
 *
 * A run goes on while the guard is on for the notebook and one of the tabs that show it now has cells under way, a
 * countdown (or the question that stands for one), or a restart on its way. A guard that gave up or met a Colab UI
 * problem waits for the person: nothing goes on. `tabs`: the tabs of this browser session that show the notebook.
 */
export function runGoing(record: NotebookRecord, session: string, tabs: readonly number[]): boolean {
  if (!record.enabled) return false;
  const { status } = record;
  switch (status.kind) {
    case 'gave-up':
    case 'ui-problem':
      return false;
    case 'pending':
      return status.session === session && tabs.includes(status.ownerTab);
    case 'restarting':
      return tabs.includes(status.ownerTab);
    case 'watching':
      return busyTabs(record, session).some((tab) => tabs.includes(tab));
  }
}

/** The tabs of this browser session in which a page saw cells under way (a tab of an earlier session is gone). */
function busyTabs(record: NotebookRecord, session: string): readonly number[] {
  const { activity } = record;
  return activity?.session === session ? activity.busyTabs : [];
}

/**
 * Whether `tab` carried the notebook's run: its cells were under way, or it owned the countdown or the restart. Read
 * on the record as it was before the tab went.
 */
export function tabCarriesRun(record: NotebookRecord, tab: number, session: string): boolean {
  if (!record.enabled) return false;
  const { status } = record;
  if (status.kind === 'gave-up' || status.kind === 'ui-problem') return false;
  if (status.kind === 'pending' || status.kind === 'restarting') return status.ownerTab === tab;
  return busyTabs(record, session).includes(tab);
}

/** The notebooks shown in this browser's tabs, each with its record and the tabs showing it. */
export interface ShownNotebook {
  record: NotebookRecord;
  tabs: readonly number[];
}

/** The keys of the notebooks with a guarded run going on, sorted (a stable value to store and compare). */
export function notebooksGoing(shown: readonly ShownNotebook[], session: string): string[] {
  return shown
    .filter(({ record, tabs }) => runGoing(record, session, tabs))
    .map(({ record }) => record.key)
    .sort();
}

/** The computer is kept awake while any guarded run goes on, unless the person switched it off. */
export function wantsKeepAwake(going: readonly string[], settings: Settings): boolean {
  return settings.keepAwake && going.length > 0;
}

/** The tabs not to be discarded automatically: every tab that shows a notebook the guard is on for. */
export function guardedTabs(shown: readonly ShownNotebook[]): number[] {
  return shown
    .filter(({ record }) => record.enabled)
    .flatMap(({ tabs }) => tabs)
    .sort((a, b) => a - b);
}

/**
 * What the service worker made of it last, in `storage.session` (gone when the browser quits, as the power request
 * and the tabs are): the notebooks whose run goes on, whether it asked the computer to stay awake and whether it can,
 * the tabs it made not discardable (to give back), and the heartbeat it keeps (state/heartbeat.ts). The popup reads it.
 */
export const NIGHT_WATCH_KEY = 'nightWatch';

const NightWatchSchema = v.object({
  going: v.optional(v.array(v.string()), () => []),
  awake: v.optional(v.boolean(), false),
  canKeepAwake: v.optional(v.boolean(), false),
  undiscardable: v.optional(v.array(v.number()), () => []),
  beat: v.optional(v.nullable(v.object({ url: v.string(), everyMinutes: v.number() })), null),
});
export type NightWatch = v.InferOutput<typeof NightWatchSchema>;

export function parseNightWatch(raw: unknown): NightWatch {
  const parsed = v.safeParse(NightWatchSchema, raw ?? {});
  return parsed.success ? parsed.output : v.parse(NightWatchSchema, {});
}
