import { DECLINED } from './declined';

/** A stored entry as read, before the schema checks it (as migrations.ts has it). */
type RawRecord = Record<string, unknown>;

/**
 * Version 3 and earlier wrote each history entry's details as an English sentence (`detail`); version 4 keeps them as
 * parameters the pages put in words. This reads the sentences those versions wrote back into parameters. A sentence
 * it does not recognise stays as it was, and is shown as it was: nothing is lost.
 */

type Params = Record<string, string | number | boolean | undefined>;
type Reader = (detail: string, entry: RawRecord) => Params | null;

const num = (text: string | undefined): number => Number(text);

/** Each pattern matches a whole sentence, as the policy of versions 1 to 3 wrote it. */
const READERS: Readonly<Record<string, Reader>> = {
  'restart-scheduled': (d) => {
    let m = /^Restart (\d+) of (\d+) in (\d+) s$/.exec(d);
    if (m) return { n: num(m[1]), max: num(m[2]), delaySec: num(m[3]) };
    m = /^Marker restart (\d+) of (\d+) today in (\d+) s$/.exec(d);
    if (m) return { why: 'marker', n: num(m[1]), max: num(m[2]), delaySec: num(m[3]) };
    m = /^Reconnect (\d+) of (\d+) in (\d+) s$/.exec(d);
    return m ? { why: 'reconnect', n: num(m[1]), max: num(m[2]), delaySec: num(m[3]) } : null;
  },
  restarted: (d) => {
    if (d === 'Marker restart done') return { why: 'marker' };
    const m = /^Restart (\d+) of (\d+) done$/.exec(d);
    return m ? { n: num(m[1]), max: num(m[2]) } : null;
  },
  interrupted: (d) => (d.startsWith('The restart was interrupted') ? {} : null),
  cancelled: (d) => (d === 'Restart cancelled by the user' ? {} : null),
  'gave-up': (d) => {
    let m = /^Gave up: (\d+) restarts? already \(limit (\d+)\) and it failed again$/.exec(d);
    if (m) return { why: 'failed-again', n: num(m[1]), max: num(m[2]) };
    m = /^Gave up: Colab could not connect to a runtime in (\d+) attempts? \(limit (\d+)\)/.exec(d);
    return m ? { why: 'unable-to-connect', n: num(m[1]), max: num(m[2]) } : null;
  },
  're-armed': (d) => (d.startsWith('Re-armed by the user') ? {} : null),
  'counter-reset': (d) => {
    const m = /^Counter reset by the user \(lifetime restarts: (\d+)\)$/.exec(d);
    return m ? { total: num(m[1]) } : null;
  },
  disabled: (d) => (d === 'The pending restart was cancelled' ? { cancelled: true } : null),
  'healthy-reset': (d) => {
    const m = /^Ran (\d+) min or more without a failure: crash-loop counter reset \(lifetime restarts: (\d+)\)$/.exec(
      d,
    );
    return m ? { minutes: num(m[1]), total: num(m[2]) } : null;
  },
  ignored: (d) => {
    const declined = Object.entries(DECLINED).find(([, words]) => words === d);
    if (declined) return { why: declined[0] };
    if (d.startsWith('Already handled:')) return { why: 'already-handled' };
    if (d.startsWith('Reconnect not needed:')) return { why: 'reconnect-not-needed' };
    const m = /^Restart marker ignored: (\d+) marker restarts is the daily limit/.exec(d);
    return m ? { why: 'marker-limit', max: num(m[1]) } : null;
  },
  resumed: (d) => {
    const delay = /: restarting in (\d+) s unless cancelled$/.exec(d);
    if (!delay) return null;
    const delaySec = num(delay[1]);
    const tab = /tab (-?\d+)/.exec(d);
    const at = tab ? { tab: num(tab[1]) } : {};
    if (d.startsWith('The countdown dates from before the browser restarted')) {
      return { why: 'browser-restarted', ...at, delaySec };
    }
    if (d.startsWith('The notebook was loaded again')) return { why: 'reloaded', ...at, delaySec };
    if (d.startsWith('The tab that owned the countdown is gone')) return { why: 'took-over', ...at, delaySec };
    const late = /^The countdown ended (\d+) min ago while its page was not running/.exec(d);
    return late ? { why: 'late', minutes: num(late[1]), ...at, delaySec } : null;
  },
  skipped: (d) => {
    const m = /^Restart skipped: the notebook was not open when it was due (\d+) min ago/.exec(d);
    return m ? { minutes: num(m[1]) } : null;
  },
  'left-to-person': (d, entry) => {
    const dialog = /^dialog-open: ([a-z-]+); saw: "([\s\S]*)"$/.exec(d);
    if (dialog) return { why: 'dialog', dialog: dialog[1] as string, saw: dialog[2] as string };
    const description = isVerdictLike(entry.verdict) ? entry.verdict.description : null;
    if (description === null) return null;
    if (d === `${description}: not reconnected`) return { why: 'disconnect' };
    if (d === `${description}: not reconnected; the pending restart was cancelled`) {
      return { why: 'disconnect', cancelled: true };
    }
    return null;
  },
};

/** One stored entry of version 3 as version 4 keeps it: its sentence as parameters, or the sentence unchanged. */
export function entryV3toV4(entry: unknown): unknown {
  if (!isRaw(entry) || typeof entry.detail !== 'string' || typeof entry.type !== 'string') return entry;
  const read = Object.hasOwn(READERS, entry.type) ? READERS[entry.type]?.(entry.detail, entry) : null;
  if (!read) return entry;
  const { detail: _, ...rest } = entry;
  return Object.keys(read).length === 0 ? rest : { ...rest, params: read };
}

function isRaw(value: unknown): value is RawRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isVerdictLike(value: unknown): value is { description: string } {
  return isRaw(value) && typeof value.description === 'string';
}
