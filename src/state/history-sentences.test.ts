import { describe, expect, it } from 'vitest';
import { entryV3toV4 } from './history-sentences';

/** Sentences as versions 1 to 3 of the policy stored them, and the parameters version 4 keeps instead. */
const READ_BACK: [type: string, detail: string, params: Record<string, unknown> | null][] = [
  ['restart-scheduled', 'Restart 2 of 3 in 10 s', { n: 2, max: 3, delaySec: 10 }],
  ['restart-scheduled', 'Marker restart 1 of 5 today in 5 s', { why: 'marker', n: 1, max: 5, delaySec: 5 }],
  ['restart-scheduled', 'Reconnect 1 of 3 in 20 s', { why: 'reconnect', n: 1, max: 3, delaySec: 20 }],
  ['restarted', 'Restart 3 of 3 done', { n: 3, max: 3 }],
  ['restarted', 'Marker restart done', { why: 'marker' }],
  ['interrupted', 'The restart was interrupted by a reload', null],
  ['cancelled', 'Restart cancelled by the user', null],
  ['gave-up', 'Gave up: 1 restart already (limit 1) and it failed again', { why: 'failed-again', n: 1, max: 1 }],
  ['gave-up', 'Gave up: 3 restarts already (limit 3) and it failed again', { why: 'failed-again', n: 3, max: 3 }],
  [
    'gave-up',
    'Gave up: Colab could not connect to a runtime in 2 attempts (limit 2)',
    { why: 'unable-to-connect', n: 2, max: 2 },
  ],
  ['re-armed', 'Re-armed by the user after a Colab UI problem', null],
  ['counter-reset', 'Counter reset by the user (lifetime restarts: 7)', { total: 7 }],
  ['disabled', 'The pending restart was cancelled', { cancelled: true }],
  [
    'healthy-reset',
    'Ran 30 min or more without a failure: crash-loop counter reset (lifetime restarts: 4)',
    { minutes: 30, total: 4 },
  ],
  ['ignored', 'Already handled: restart 1 of 3 for this failure', { why: 'already-handled' }],
  ['ignored', 'Reconnect not needed: the runtime is connected', { why: 'reconnect-not-needed' }],
  ['ignored', 'Restart marker ignored: 5 marker restarts is the daily limit', { why: 'marker-limit', max: 5 }],
  [
    'resumed',
    'The notebook was loaded again in tab 12: restarting in 5 s unless cancelled',
    { why: 'reloaded', tab: 12, delaySec: 5 },
  ],
  [
    'resumed',
    'The tab that owned the countdown is gone; tab 3 takes over: restarting in 10 s unless cancelled',
    { why: 'took-over', tab: 3, delaySec: 10 },
  ],
  [
    'resumed',
    'The countdown dates from before the browser restarted: restarting in 5 s unless cancelled',
    { why: 'browser-restarted', delaySec: 5 },
  ],
  [
    'resumed',
    'The countdown ended 4 min ago while its page was not running (tab 9): restarting in 5 s unless cancelled',
    { why: 'late', minutes: 4, tab: 9, delaySec: 5 },
  ],
  ['skipped', 'Restart skipped: the notebook was not open when it was due 45 min ago', { minutes: 45 }],
  [
    'left-to-person',
    'dialog-open: usage-limit; saw: "You cannot currently connect to a GPU"',
    { why: 'dialog', dialog: 'usage-limit', saw: 'You cannot currently connect to a GPU' },
  ],
];

describe('history sentences of version 3 read back as parameters', () => {
  it.each(READ_BACK)('%s: "%s"', (type, detail, params) => {
    const entry = { at: 5, type, detail };
    const read = entryV3toV4(entry);
    expect(read).toEqual(params === null ? { at: 5, type } : { at: 5, type, params });
    expect(read).not.toHaveProperty('detail');
  });

  it('a disconnect left to the person is read by the verdict it quotes', () => {
    const verdict = { description: 'Runtime disconnected: usage limit' };
    const left = { at: 1, type: 'left-to-person', verdict };
    expect(entryV3toV4({ ...left, detail: 'Runtime disconnected: usage limit: not reconnected' })).toEqual({
      ...left,
      params: { why: 'disconnect' },
    });
    expect(
      entryV3toV4({
        ...left,
        detail: 'Runtime disconnected: usage limit: not reconnected; the pending restart was cancelled',
      }),
    ).toEqual({ ...left, params: { why: 'disconnect', cancelled: true } });
    const other = { ...left, detail: 'Runtime disconnected: idle: not reconnected' };
    expect(entryV3toV4(other)).toBe(other);
  });

  it('keep a sentence they do not recognise, and anything that is no entry, as it was: nothing is lost', () => {
    const entries = [
      { at: 1, type: 'restarted', detail: 'Restart 2 of 3 done, and more' },
      { at: 1, type: 'gave-up', detail: 'Gave up: 3 restarts already (limit 3)' },
      { at: 1, type: 'toString', detail: 'Restart 1 of 3 done' },
      { at: 1, type: 'resumed', detail: 'Something else: restarting in 5 s unless cancelled' },
      { at: 1, type: 'restarted' },
      'a string',
      null,
      [1, 2],
    ];
    for (const entry of entries) expect(entryV3toV4(entry)).toBe(entry);
  });
});

/** The same sentences with numbers of two and three digits, as long nights and large limits wrote them. */
const LARGER: [type: string, detail: string, params: Record<string, unknown>][] = [
  ['restart-scheduled', 'Restart 12 of 15 in 160 s', { n: 12, max: 15, delaySec: 160 }],
  ['restart-scheduled', 'Marker restart 11 of 20 today in 15 s', { why: 'marker', n: 11, max: 20, delaySec: 15 }],
  ['restart-scheduled', 'Reconnect 10 of 12 in 40 s', { why: 'reconnect', n: 10, max: 12, delaySec: 40 }],
  ['restarted', 'Restart 10 of 12 done', { n: 10, max: 12 }],
  ['gave-up', 'Gave up: 10 restarts already (limit 10) and it failed again', { why: 'failed-again', n: 10, max: 10 }],
  [
    'gave-up',
    'Gave up: Colab could not connect to a runtime in 10 attempts (limit 10)',
    { why: 'unable-to-connect', n: 10, max: 10 },
  ],
  ['counter-reset', 'Counter reset by the user (lifetime restarts: 17)', { total: 17 }],
  [
    'healthy-reset',
    'Ran 120 min or more without a failure: crash-loop counter reset (lifetime restarts: 14)',
    { minutes: 120, total: 14 },
  ],
  ['ignored', 'Restart marker ignored: 50 marker restarts is the daily limit', { why: 'marker-limit', max: 50 }],
  ['ignored', 'an earlier error output, not the one that ended the run', { why: 'earlier-error' }],
  [
    'gave-up',
    'Gave up: Colab could not connect to a runtime in 1 attempt (limit 1)',
    { why: 'unable-to-connect', n: 1, max: 1 },
  ],
  [
    'resumed',
    'The countdown ended 45 min ago while its page was not running (tab 19): restarting in 15 s unless cancelled',
    { why: 'late', minutes: 45, tab: 19, delaySec: 15 },
  ],
];

/** Readers that match a sentence's start only: what follows is free (older versions added to these sentences). */
const OPEN_ENDED = [
  'The restart was interrupted',
  'Re-armed by the user',
  'Gave up: Colab could not connect',
  'Restart skipped:',
  'Already handled:',
  'Reconnect not needed:',
  'Restart marker ignored:',
  'The countdown ended',
];

describe('history sentences, read whole or not at all', () => {
  it.each(LARGER)('%s: "%s"', (type, detail, params) => {
    expect(entryV3toV4({ at: 5, type, detail })).toEqual({ at: 5, type, params });
  });

  it('a sentence with words before it is no sentence of theirs: kept as it was', () => {
    for (const [type, detail] of [...READ_BACK, ...LARGER]) {
      const entry = { at: 1, type, detail: `Note: ${detail}` };
      expect(entryV3toV4(entry), detail).toBe(entry);
    }
  });

  it('a sentence with words after it is no sentence of theirs, unless its reader reads only the start', () => {
    for (const [type, detail] of [...READ_BACK, ...LARGER]) {
      if (OPEN_ENDED.some((start) => detail.startsWith(start))) continue;
      const entry = { at: 1, type, detail: `${detail} (and more)` };
      expect(entryV3toV4(entry), detail).toBe(entry);
    }
  });

  it('an unknown sentence of every type is kept, and so is an entry of no readable type or detail', () => {
    const entries = [
      { at: 1, type: 'interrupted', detail: 'Something else' },
      { at: 1, type: 're-armed', detail: 'Something else' },
      { at: 1, type: 'cancelled', detail: 'Something else' },
      { at: 1, type: 'disabled', detail: 'Something else' },
      { at: 1, type: 'ignored', detail: 'Something else' },
      { at: 1, type: 'resumed', detail: 'The notebook was loaded again in tab 1' },
      { at: 1, type: 'interrupted', detail: 5 },
      { at: 1, type: ['restarted'], detail: 'Marker restart done' },
      { at: 1, type: 'left-to-person', detail: 'null: not reconnected' },
      { at: 1, type: 'left-to-person', detail: 'undefined: not reconnected', verdict: {} },
    ];
    for (const entry of entries) expect(entryV3toV4(entry), JSON.stringify(entry)).toBe(entry);
  });
});
