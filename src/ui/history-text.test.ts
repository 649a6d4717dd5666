import { describe, expect, it, vi } from 'vitest';
import { type HistoryEntry, parseNotebook } from '../state/schema';
import { historyDetail } from './history-text';

vi.mock('../lib/i18n', async () => {
  const { translate, translateCounted } = await import('../../test/support/messages');
  return { t: translate, tn: translateCounted };
});

const disallowed = {
  category: 'colab-crash',
  rule: 'disconnected-disallowed',
  description: 'Runtime disconnected: disallowed code',
  line: 'Your runtime has been disconnected',
} as const;

/**
 * What a sentence says now: the step's id, its machine reason and what it saw in Colab's page stay out of the history
 * (Copy diagnostics has them), and the words people do not use are gone (docs/words.md).
 */
const SAID_NOW: Record<string, string | undefined> = {
  'find-item: item-missing; saw: items: Run all': undefined,
  'Restart cancelled by the user': 'You cancelled the restart',
  'Gave up: 1 restart already (limit 1) and it failed again':
    'Gave up: it failed again after 1 restart in a row (limit 1)',
  'Gave up: 3 restarts already (limit 3) and it failed again':
    'Gave up: it failed again after 3 restarts in a row (limit 3)',
  'Re-armed by the user: crash-loop counter reset': 'You chose Watch again: restarts in a row back to 0',
  'Counter reset by the user (lifetime restarts: 8)':
    'You reset the counter: restarts in a row back to 0 (8 restarts in all)',
  'Ran 30 min or more without a failure: crash-loop counter reset (lifetime restarts: 2)':
    'Ran 30 min or more without a failure: restarts in a row back to 0 (2 restarts in all)',
};

/** Sentences version 3 stored, each with its type: what the morning's reader saw then, and sees now. */
const V3_SENTENCES: [HistoryEntry['type'], string, object?][] = [
  ['restart-scheduled', 'Restart 2 of 3 in 10 s'],
  ['restart-scheduled', 'Marker restart 4 of 100 today in 5 s'],
  ['restart-scheduled', 'Reconnect 2 of 3 in 10 s'],
  ['restarted', 'Restart 1 of 3 done'],
  ['restarted', 'Marker restart done'],
  ['restart-failed', 'find-item: item-missing; saw: items: Run all'],
  [
    'interrupted',
    'The restart was interrupted (its tab closed, reloaded or stopped answering). Its outcome is unknown, so it ' +
      'counts as done and is not retried.',
  ],
  ['cancelled', 'Restart cancelled by the user'],
  ['gave-up', 'Gave up: 1 restart already (limit 1) and it failed again'],
  ['gave-up', 'Gave up: 3 restarts already (limit 3) and it failed again'],
  [
    'gave-up',
    'Gave up: Colab could not connect to a runtime in 2 attempts (limit 2); reconnect yourself once Colab works again',
  ],
  ['re-armed', 'Re-armed by the user: crash-loop counter reset'],
  ['counter-reset', 'Counter reset by the user (lifetime restarts: 8)'],
  ['disabled', 'The pending restart was cancelled'],
  ['healthy-reset', 'Ran 30 min or more without a failure: crash-loop counter reset (lifetime restarts: 2)'],
  ['ignored', 'an earlier error output, not the one that ended the run'],
  ['ignored', "the cell's code could not be read, to tell whether it launched a program"],
  [
    'ignored',
    'Already handled: this failure ended a run that started before the last restart (reported late, or by another ' +
      'tab on the same notebook)',
  ],
  ['ignored', 'Restart marker ignored: 100 marker restarts is the daily limit; markers resume tomorrow.'],
  ['ignored', 'Reconnect not needed: the runtime was connected or connecting again when it was due'],
  [
    'skipped',
    'Restart skipped: the notebook was not open when it was due 3 min ago, and a countdown nobody could see never ' +
      'restarts',
  ],
  ['left-to-person', 'Runtime disconnected: disallowed code: not reconnected', { verdict: disallowed }],
  [
    'left-to-person',
    'Runtime disconnected: disallowed code: not reconnected; the pending restart was cancelled',
    { verdict: disallowed },
  ],
];

function readV3(entries: object[]): HistoryEntry[] {
  const parsed = parseNotebook('drive:abc', { v: 3, key: 'drive:abc', enabled: true, history: entries });
  expect(parsed.problem).toBeUndefined();
  return parsed.value.history;
}

describe('history entries written as sentences by version 3', () => {
  it('are read back as data and say the very same words', () => {
    const entries = V3_SENTENCES.map(([type, detail, more], i) => ({ at: i, type, detail, ...more }));
    const history = readV3(entries);
    expect(history).toHaveLength(entries.length);
    for (const [i, entry] of history.entries()) {
      expect(entry.detail, entries[i]?.type).toBeUndefined();
      const said = V3_SENTENCES[i]?.[1] ?? '';
      expect(historyDetail(entry)).toBe(Object.hasOwn(SAID_NOW, said) ? SAID_NOW[said] : said);
    }
    expect(history[0]?.params).toEqual({ n: 2, max: 3, delaySec: 10 });
    expect(history[5]?.failed).toEqual({ step: 'find-item', reason: 'item-missing', saw: 'items: Run all' });
  });

  it('a dialog left to the person keeps what Colab asked, in words rather than ids', () => {
    const [entry] = readV3([
      { at: 1, type: 'left-to-person', detail: 'dialog-open: drive-permission; saw: "Permit access?"' },
    ]);
    expect(entry?.params).toEqual({ why: 'dialog', dialog: 'drive-permission', saw: 'Permit access?' });
    expect(historyDetail(entry as HistoryEntry)).toBe('Colab said: "Permit access?"');
  });

  it('a countdown started again keeps its tab as data, and says it without the id', () => {
    const [entry] = readV3([
      {
        at: 1,
        type: 'resumed',
        detail: 'The notebook was loaded again in tab 7: restarting in 5 s unless cancelled',
      },
    ]);
    expect(entry?.params).toEqual({ why: 'reloaded', tab: 7, delaySec: 5 });
    expect(historyDetail(entry as HistoryEntry)).toBe(
      'The notebook was loaded again: restarting in 5 s unless cancelled',
    );
  });

  it('a sentence it cannot read is kept, and shown as it was written', () => {
    const odd = [
      { at: 1, type: 'ignored', detail: 'Something a build long gone wrote' },
      { at: 2, type: 'restarted', detail: 'Restart done (v0 log)' },
      { at: 3, type: 'enabled' },
    ];
    const history = readV3(odd);
    expect(history).toEqual(odd);
    expect(history.map(historyDetail)).toEqual([
      'Something a build long gone wrote',
      'Restart done (v0 log)',
      undefined,
    ]);
  });
});

describe('history words', () => {
  it('a guard that ended by itself, and a failure after it, say why nothing restarts', () => {
    const ended = historyDetail({ at: 0, type: 'guard-ended', params: { minutes: 720 } });
    expect(ended).toMatch(/^No cell was queued or running in any tab of this notebook for 12 hours/);
    const after = historyDetail({ at: 0, type: 'ignored', params: { why: 'guard-ended' } });
    expect(after).toBe('Not restarted: the guard had ended by itself (nothing ran for 12 hours before this run)');
  });

  it('count restarts and attempts in the singular and the plural', () => {
    const gaveUp = (params: HistoryEntry['params']) => historyDetail({ at: 0, type: 'gave-up', params });
    expect(gaveUp({ why: 'failed-again', n: 1, max: 1 })).toBe(
      'Gave up: it failed again after 1 restart in a row (limit 1)',
    );
    expect(gaveUp({ why: 'failed-again', n: 3, max: 3 })).toBe(
      'Gave up: it failed again after 3 restarts in a row (limit 3)',
    );
    expect(gaveUp({ why: 'unable-to-connect', n: 1, max: 1 })).toMatch(/in 1 attempt \(limit 1\)/);
  });

  it('a countdown taken over or started late says so without a tab id', () => {
    const resumed = (params: HistoryEntry['params']) => historyDetail({ at: 0, type: 'resumed', params });
    expect(resumed({ why: 'took-over', tab: 8, delaySec: 5 })).not.toMatch(/\b8\b/);
    expect(resumed({ why: 'late', minutes: 180, tab: 7, delaySec: 5 })).toBe(
      'The countdown ended 180 min ago while its page was not running; it starts again: restarting in 5 s unless ' +
        'cancelled',
    );
  });
});
