import { describe, expect, it } from 'vitest';
import { defaultNotebook, defaultSettings, type NotebookRecord } from '../state/schema';
import { badgeFor } from './badge';

/** README: the popup and the badge tell "the last 12 hours". */
const NIGHT_MS = 12 * 60 * 60_000;

const NOW = Date.UTC(2026, 10, 23, 6);
const settings = defaultSettings();
/** English's badgeOn. */
const ON = 'ON';

function record(extra: Partial<NotebookRecord>): NotebookRecord {
  return { ...defaultNotebook('drive:abc'), enabled: true, ...extra };
}

const VERDICT = { category: 'gpu-oom' as const, rule: 'r', description: 'd', line: 'l' };

describe('badge', () => {
  it("says the guard is on in the user's language, the counts and symbols staying as they are", () => {
    expect(badgeFor(record({}), settings, NOW, 'AN').text).toBe('AN');
    expect(badgeFor(record({ enabled: false }), settings, NOW, 'AN').text).toBe('');
  });

  it('is empty off Colab notebooks and greyed with the off icon when the guard is off', () => {
    expect(badgeFor(null, settings, NOW, ON)).toMatchObject({ text: '' });
    expect(badgeFor(record({ enabled: false }), settings, NOW, ON)).toMatchObject({ text: '', icon: 'off' });
  });

  it('says ON while watching, then the number of restarts in the last 12 hours', () => {
    expect(badgeFor(record({}), settings, NOW, ON)).toMatchObject({
      text: 'ON',
      icon: 'on',
    });
    const history = [
      { at: NOW - NIGHT_MS - 1, type: 'restarted' as const },
      { at: NOW - 60_000, type: 'restarted' as const },
      { at: NOW - 30_000, type: 'restarted' as const },
      { at: NOW - 20_000, type: 'cancelled' as const },
    ];
    expect(badgeFor(record({ history }), settings, NOW, ON)).toMatchObject({
      text: '2',
      icon: 'on',
    });
  });

  it('counts interrupted restarts too, as the loop counter does', () => {
    const history = [
      { at: NOW - 60_000, type: 'restarted' as const },
      { at: NOW - 30_000, type: 'interrupted' as const },
    ];
    expect(badgeFor(record({ history }), settings, NOW, ON)).toMatchObject({ text: '2' });
  });

  it('has a look of its own while detection may be blind, as long as nothing else needs saying', () => {
    const blind = badgeFor(record({ blindSince: NOW - 1000 }), settings, NOW, ON);
    expect(blind).toMatchObject({ text: '?' });
    expect(blind.color).not.toBe(badgeFor(record({}), settings, NOW, ON).color);
    expect(badgeFor(record({ blindSince: NOW, enabled: false }), settings, NOW, ON)).toMatchObject({ text: '' });
    const gaveUp = record({ blindSince: NOW, status: { kind: 'gave-up', at: NOW, restarts: 3 } });
    expect(badgeFor(gaveUp, settings, NOW, ON)).toMatchObject({ text: '!' });
  });

  it('turns amber during the countdown', () => {
    const status = {
      kind: 'pending' as const,
      reason: 'failure' as const,
      action: 'restart-and-run-all' as const,
      restartAt: NOW + 5000,
      attempt: 'a',
      ownerTab: 1,
      detectedAt: NOW,
      verdict: { category: 'gpu-oom' as const, rule: 'r', description: 'd', line: 'l' },
    };
    const badge = badgeFor(record({ status }), settings, NOW, ON);
    expect(badge.text).toBe('ON');
    expect(badge.color).not.toBe(badgeFor(record({}), settings, NOW, ON).color);
  });

  it('stays amber with the count while the restart is under way, and with ON before any restart tonight', () => {
    const status = {
      kind: 'restarting' as const,
      reason: 'failure' as const,
      action: 'restart-and-run-all' as const,
      attempt: 'a',
      ownerTab: 1,
      startedAt: NOW,
    };
    const countdown = badgeFor(
      record({
        status: { ...status, kind: 'pending', restartAt: NOW, detectedAt: NOW, verdict: { ...VERDICT } },
      }),
      settings,
      NOW,
      ON,
    );
    expect(badgeFor(record({ status }), settings, NOW, ON)).toEqual({
      text: 'ON',
      color: countdown.color,
      icon: 'on',
    });
    const restarted = [{ at: NOW - 60_000, type: 'restarted' as const }];
    expect(badgeFor(record({ status, history: restarted }), settings, NOW, ON).text).toBe('1');
  });

  it('a give-up shows ! and its own icon whatever the counter says; off shows nothing', () => {
    const gaveUp = badgeFor(
      record({ status: { kind: 'gave-up', at: NOW, restarts: 5 }, loopCount: 2 }),
      settings,
      NOW,
      ON,
    );
    expect(gaveUp).toEqual({ text: '!', color: gaveUp.color, icon: 'gave-up' });
    expect(badgeFor(record({ enabled: false }), settings, NOW, ON)).toMatchObject({ text: '', icon: 'off' });
  });

  it('gave up and Colab UI problem each have a badge, colour and icon of their own', () => {
    const gaveUp = badgeFor(
      record({ status: { kind: 'gave-up', at: NOW, restarts: 3 }, loopCount: 3 }),
      settings,
      NOW,
      ON,
    );
    expect(gaveUp).toMatchObject({ text: '!', icon: 'gave-up' });
    const problem = badgeFor(
      record({
        status: { kind: 'ui-problem', at: NOW, failed: { step: 'find-item', reason: 'item-missing', saw: '' } },
        history: [{ at: NOW - 5000, type: 'restart-scheduled', action: 'run-all' }],
      }),
      settings,
      NOW,
      ON,
    );
    expect(problem).toMatchObject({
      text: 'UI',
      icon: 'ui-problem',
    });
    expect(problem.text).not.toBe(gaveUp.text);
    expect(problem.color).not.toBe(gaveUp.color);
    expect(problem.icon).not.toBe(gaveUp.icon);
  });
});
