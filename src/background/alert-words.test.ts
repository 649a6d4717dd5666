import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { getMessage, localeGetMessage } from '../../test/support/messages';
import type { NotifyEffect } from '../state/policy';
import { type AlertableEffect, alertWords } from './alert-words';

vi.mock('webextension-polyfill', async () => ({ default: (await import('@webext-core/fake-browser')).fakeBrowser }));

const AT = Date.UTC(2026, 10, 28, 3, 12);
const base = { type: 'notify' as const, key: 'drive:1AbC', title: 'train.ipynb' };
const effect = (kind: AlertableEffect['kind'], entry: NotifyEffect['entry']): AlertableEffect => ({
  ...base,
  kind,
  entry,
});
const facts = { at: AT, restarts: { used: 1, limit: 3 }, heldBack: 0 };
const hidden = { includeTitle: false, includeErrorLine: false };

function speak(locale: string) {
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(
    (locale === 'en' ? getMessage : localeGetMessage(locale)) as typeof fakeBrowser.i18n.getMessage,
  );
}

beforeEach(() => {
  fakeBrowser.reset();
  speak('en');
});

describe('an alert a person can act on from the phone', () => {
  it('says what happened, what the guard did and what happens next, for every event', () => {
    const said = (kind: AlertableEffect['kind'], entry: NotifyEffect['entry']) => {
      const words = alertWords(effect(kind, entry), hidden, facts);
      return [words.title, words.message, words.next];
    };
    expect(said('restarted', { at: AT, type: 'restarted', params: { n: 1, max: 3 } })).toEqual([
      'Restarted: a notebook',
      'Restart 1 of 3 done',
      '2 of 3 restarts left; the guard keeps watching.',
    ]);
    expect(said('restarted', { at: AT, type: 'restarted', params: { why: 'marker' } })[2]).toBe(
      'The guard keeps watching.',
    );
    expect(said('gave-up', { at: AT, type: 'gave-up', params: { n: 3, max: 3 } })).toEqual([
      'Gave up: a notebook',
      'Gave up: it failed again after 3 restarts in a row (limit 3). Choose Watch again in the popup.',
      'Waits for you: nothing restarts until you choose Watch again in the popup.',
    ]);
    expect(said('run-stopped', { at: AT, type: 'run-stopped', params: { cell: 7, saw: 'KeyError: labels' } })).toEqual([
      'Run stopped: a notebook',
      'Cell [7]: KeyError (not out of memory, not restarted)',
      'Waits for you: the guard restarts a run only after out of memory.',
    ]);
    const left = said('left-to-person', {
      at: AT,
      type: 'left-to-person',
      params: { why: 'dialog', saw: 'Usage limits reached' },
    });
    expect(left).toEqual([
      'Left to you: a notebook',
      'Colab waits for you: "Usage limits reached"',
      'Waits for you: the guard leaves this to you and restarts nothing.',
    ]);
    const problem = said('ui-problem', {
      at: AT,
      type: 'restart-failed',
      failed: { step: 'open-menu', reason: 'no-menu', saw: 'menu bar missing' },
    });
    expect(problem[0]).toBe('Colab UI problem: a notebook');
    expect(problem[2]).toBe(
      'The guard stopped for this notebook and waits for you: deal with Colab, then choose Watch again in the popup.',
    );
    expect(said('run-finished', { at: AT, type: 'run-finished' })).toEqual([
      'Run finished: a notebook',
      'Run finished',
      'The guard keeps watching.',
    ]);
    expect(said('tab-gone', { at: AT, type: 'tab-gone', params: { why: 'closed', tab: 4 } })).toEqual([
      'Nothing watches the run: a notebook',
      expect.stringMatching(
        /^The Colab tab of a notebook closed at \d{1,2}:\d{2}( [AP]M)?: nothing watches the run\.$/,
      ),
      'Waits for you: open the notebook in Colab again; the guard watches it again from there.',
    ]);
  });

  it('names the notebook and links to it only when allowed; an address it cannot tell is no link', () => {
    const gaveUp = effect('gave-up', { at: AT, type: 'gave-up', params: { n: 3, max: 3 } });
    expect(alertWords(gaveUp, hidden, facts)).toMatchObject({ notebook: null, link: null });
    expect(alertWords(gaveUp, { ...hidden, includeTitle: true }, facts)).toMatchObject({
      title: 'Gave up: train.ipynb',
      notebook: 'train.ipynb',
      link: { url: 'https://colab.research.google.com/drive/1AbC', label: 'Open in Colab' },
    });
    const scratch = { ...gaveUp, key: 'scratch:4-1234.5' };
    expect(alertWords(scratch, { ...hidden, includeTitle: true }, facts).link).toBeNull();
  });

  it('says how many were held back, in the plural its count takes', () => {
    const gaveUp = effect('gave-up', { at: AT, type: 'gave-up', params: { n: 3, max: 3 } });
    expect(alertWords(gaveUp, hidden, { ...facts, heldBack: 1 }).heldBack).toEqual({
      count: 1,
      text: '1 more like this was held back since the last alert (one alert a kind per notebook in 5 minutes).',
    });
    expect(alertWords(gaveUp, hidden, { ...facts, heldBack: 4 }).heldBack.text).toMatch(/^4 more like this were/);
    expect(alertWords(gaveUp, hidden, facts).heldBack).toEqual({ count: 0, text: '' });
  });

  it('takes secrets out of everything but the link', () => {
    const stopped = effect('run-stopped', {
      at: AT,
      type: 'run-stopped',
      params: { cell: 3, saw: 'OSError: hf_AbCdEfGhIjKlMnOpQrStUvWx0123 is not a valid token' },
    });
    const words = alertWords(
      { ...stopped, title: 'tune sk-proj-Ab12Cd34Ef56Gh78Ij90.ipynb' },
      { includeTitle: true, includeErrorLine: true },
      facts,
    );
    expect(words.message).toBe(
      'Cell [3]: OSError: hf_[redacted] is not a valid token (not out of memory, not restarted)',
    );
    expect(words.title).toBe('Run stopped: tune sk-[redacted].ipynb');
    expect(words.notebook).toBe('tune sk-[redacted].ipynb');
    expect(words.link?.url).toBe('https://colab.research.google.com/drive/1AbC');
  });
});

describe('an alert in the extension’s language', () => {
  it.each([
    ['de', 'Neustart 1 von 3 erledigt', /^Übrige Neustarts: 2 von 3; der Wächter/],
    ['ja', '再起動しました（3 回中 1 回目）', /^再起動はあと 2 回（上限 3 回）/],
  ])('%s: the words of every part translated', (locale, done, left) => {
    speak(locale);
    const restarted = effect('restarted', { at: AT, type: 'restarted', params: { n: 1, max: 3 } });
    const words = alertWords(restarted, { includeTitle: true, includeErrorLine: false }, { ...facts, heldBack: 2 });
    expect(words.message).toBe(done);
    expect(words.next).toMatch(left);
    expect(words.heldBack.text).not.toMatch(/held back/);
    expect(words.link?.label).not.toBe('Open in Colab');
  });
});
