import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getMessage } from '../../test/support/messages';
import type { NotifyEffect } from '../state/policy';
import { defaultSettings } from '../state/schema';
import { notificationText, notify } from './notifications';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const effect = (fields: Partial<NotifyEffect>): NotifyEffect => ({
  type: 'notify',
  kind: 'restarted',
  key: 'drive:abc',
  title: 'train.ipynb',
  entry: { at: 0, type: 'restarted', params: { n: 1, max: 3 } },
  ...fields,
});

beforeEach(() => {
  fakeBrowser.reset();
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
});

describe('notifications', () => {
  it('a tab gone during a run says whose tab, how it went, when, and that nothing watches the run', () => {
    const at = new Date(2026, 11, 8, 3, 12).getTime();
    const gone = (why: 'closed' | 'discarded' | 'navigated') =>
      notificationText(effect({ kind: 'tab-gone', entry: { at, type: 'tab-gone', params: { why, tab: 7 } } }));
    const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(at);
    expect(gone('closed')).toEqual({
      title: 'Nothing watches the run: train.ipynb',
      message: `The Colab tab of train.ipynb closed at ${time}: nothing watches the run.`,
    });
    expect(gone('discarded').message).toBe(
      `The browser discarded the Colab tab of train.ipynb at ${time}: nothing watches the run.`,
    );
    expect(gone('navigated').message).toBe(
      `The Colab tab of train.ipynb left the notebook at ${time}: nothing watches the run.`,
    );
  });

  it('name the notebook and what happened, a UI problem in words and what happens next, no ids', () => {
    expect(notificationText(effect({}))).toEqual({ title: 'Restarted: train.ipynb', message: 'Restart 1 of 3 done' });
    expect(
      notificationText(
        effect({ kind: 'gave-up', entry: { at: 0, type: 'gave-up', params: { why: 'failed-again', n: 3, max: 3 } } }),
      ),
    ).toEqual({
      title: 'Gave up: train.ipynb',
      message: 'Gave up: it failed again after 3 restarts in a row (limit 3). Choose Watch again in the popup.',
    });
    const problem = effect({
      kind: 'ui-problem',
      entry: {
        at: 0,
        type: 'restart-failed',
        failed: { step: 'find-item', reason: 'item-missing', saw: 'items: Run all' },
      },
      step: {
        failed: { step: 'find-item', reason: 'item-missing', saw: 'items: Run all' },
        action: 'restart-and-run-all',
      },
    });
    expect(notificationText(problem)).toEqual({
      title: 'Colab UI problem: train.ipynb',
      message:
        'Could not find Runtime → Restart session and run all. ' +
        'Nothing restarts until you choose Watch again in the popup.',
    });
    const said = 'Runtime disconnected: disallowed code. Colab said: "Runtime disconnected Your runtime has been…"';
    const verdict = {
      category: 'colab-crash' as const,
      rule: 'disconnected-disallowed',
      description: 'Runtime disconnected: disallowed code',
      line: 'Runtime disconnected Your runtime has been…',
    };
    const left = { at: 0, type: 'left-to-person' as const, params: { why: 'disconnect' as const }, verdict };
    expect(notificationText(effect({ kind: 'left-to-person', entry: left }))).toEqual({
      title: 'Left to you: train.ipynb',
      message: said,
    });
    const dialog = {
      at: 0,
      type: 'left-to-person' as const,
      params: { why: 'dialog' as const, dialog: 'drive-permission', saw: 'Permit this notebook?' },
    };
    expect(notificationText(effect({ kind: 'left-to-person', entry: dialog })).message).toBe(
      'Colab waits for you: "Permit this notebook?"',
    );
  });

  it("say how a run ended in the history's words: finished, or stopped by another error, not restarted", () => {
    const finished = effect({ kind: 'run-finished', entry: { at: 0, type: 'run-finished' } });
    expect(notificationText(finished)).toEqual({ title: 'Run finished: train.ipynb', message: 'Run finished' });
    const entry = { at: 0, type: 'run-stopped' as const, params: { cell: 7, saw: 'ValueError: bad shape' } };
    expect(notificationText(effect({ kind: 'run-stopped', entry }))).toEqual({
      title: 'Run stopped: train.ipynb',
      message: 'Cell [7]: ValueError: bad shape (not out of memory, not restarted)',
    });
  });

  it('are shown only when switched on and allowed, without characters that reorder the text', async () => {
    const contains = vi.spyOn(fakeBrowser.permissions, 'contains') as unknown as {
      mockResolvedValue: (granted: boolean) => void;
    };
    const create = vi.spyOn(fakeBrowser.notifications, 'create').mockResolvedValue('id' as never);
    contains.mockResolvedValue(true);
    await notify([effect({})], defaultSettings());
    expect(create).not.toHaveBeenCalled();

    await notify([effect({ title: 'evil\u202Egnp.ipynb' })], { ...defaultSettings(), notifications: true });
    expect(create).toHaveBeenCalledWith(expect.stringMatching(/^restarted:\d+:drive:abc$/), {
      type: 'basic',
      iconUrl: fakeBrowser.runtime.getURL('icons/icon-128.png'),
      title: 'Restarted: evilgnp.ipynb',
      message: 'Restart 1 of 3 done',
    });

    create.mockClear();
    contains.mockResolvedValue(false);
    await notify([effect({})], { ...defaultSettings(), notifications: true });
    expect(create).not.toHaveBeenCalled();
  });

  it('say a guard ended by itself after 12 hours with nothing run, and what to do', () => {
    const ended = effect({ kind: 'guard-ended', entry: { at: 0, type: 'guard-ended', params: { minutes: 720 } } });
    expect(notificationText(ended)).toEqual({
      title: 'Guard ended: train.ipynb',
      message:
        'No cell was queued or running in any tab of this notebook for 12 hours, so the guard switched itself ' +
        'off. Switch it on again to guard the next run.',
    });
  });
});
