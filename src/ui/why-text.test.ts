import { describe, expect, it, vi } from 'vitest';
import { speakIn } from '../../test/support/messages';
import type { Why, WhyKind } from '../state/why';
import { WHY_KINDS } from '../state/why';
import { whyWords } from './why-text';

vi.mock('../lib/i18n', async () => (await import('../../test/support/messages')).inChosenLocale);

/** One example of each kind, every parameter filled (each variant of a kind with variants). */
const EXAMPLES: { [K in WhyKind]: Extract<Why, { kind: K }>[] } = {
  'guard-off': [{ kind: 'guard-off' }],
  'category-off': [{ kind: 'category-off', category: 'gpu-fault' }],
  'reconnect-off': [{ kind: 'reconnect-off' }],
  'disconnect-left': [{ kind: 'disconnect-left', disconnect: 'disallowed-code' }],
  'dialog-left': [{ kind: 'dialog-left', dialog: 'drive-permission' }],
  'marker-limit': [{ kind: 'marker-limit', limit: 3 }],
  'already-handled': [{ kind: 'already-handled' }],
  'restart-pending': [{ kind: 'restart-pending' }],
  stopped: [{ kind: 'stopped' }],
  'older-run': [{ kind: 'older-run' }],
  'gave-up': [{ kind: 'gave-up', restarts: 3, max: 3 }],
  'guard-ended': [{ kind: 'guard-ended' }],
  'restart-under-way': [{ kind: 'restart-under-way' }],
  'no-pending': [{ kind: 'no-pending' }],
  replaced: [{ kind: 'replaced' }],
  'other-owner': [{ kind: 'other-owner' }],
  asking: [{ kind: 'asking' }],
  'too-early': [{ kind: 'too-early', seconds: 4 }],
  'countdown-again': [
    { kind: 'countdown-again', carry: 'browser-restarted' },
    { kind: 'countdown-again', carry: 'late', minutes: 180 },
  ],
  'no-question': [{ kind: 'no-question' }],
  'left-to-person': [{ kind: 'left-to-person' }],
  'nobody-answered': [{ kind: 'nobody-answered' }],
  'no-answer': [{ kind: 'no-answer' }],
  'tab-moved': [{ kind: 'tab-moved' }],
  'worker-silent': [{ kind: 'worker-silent', detail: 'Could not establish connection' }],
  unknown: [{ kind: 'unknown' }],
  'not-shown': [{ kind: 'not-shown' }],
  'no-countdown': [{ kind: 'no-countdown' }],
  'asking-off': [{ kind: 'asking-off' }],
  'no-restart-in-progress': [{ kind: 'no-restart-in-progress' }],
  'cannot-cancel': [{ kind: 'cannot-cancel' }],
  'max-restarts-range': [{ kind: 'max-restarts-range', min: 1, max: 1000 }],
  'storage-refused': [
    { kind: 'storage-refused', full: true, detail: 'QUOTA_BYTES quota exceeded' },
    { kind: 'storage-refused', full: false, detail: 'IO error' },
  ],
  'alerts-no-url': [{ kind: 'alerts-no-url' }],
  'alerts-url-refused': [{ kind: 'alerts-url-refused' }],
  'alerts-secret': [
    { kind: 'alerts-secret', secret: 'telegram-token' },
    { kind: 'alerts-secret', secret: 'telegram-chat' },
    { kind: 'alerts-secret', secret: 'token-chars' },
  ],
  'permission-missing': [{ kind: 'permission-missing' }],
  'consent-refused': [{ kind: 'consent-refused' }],
  'heartbeat-no-url': [{ kind: 'heartbeat-no-url' }],
  'heartbeat-every-refused': [{ kind: 'heartbeat-every-refused' }],
  'heartbeat-url-refused': [{ kind: 'heartbeat-url-refused' }],
  'read-only': [{ kind: 'read-only', key: 'settings' }],
  'unknown-setting': [{ kind: 'unknown-setting', names: ['colour', 'size'] }],
  'invalid-setting': [
    { kind: 'invalid-setting', path: 'maxRestarts', detail: 'Invalid type' },
    { kind: 'invalid-setting', path: '', detail: 'Invalid type' },
  ],
  'import-newer': [
    { kind: 'import-newer', names: ['nb:drive:a'], more: 0 },
    { kind: 'import-newer', names: ['nb:drive:a', 'nb:drive:b', 'nb:drive:c'], more: 2 },
  ],
  'import-too-large': [{ kind: 'import-too-large', neededMb: '12.5', quotaMb: '10.5' }],
  'not-an-export': [{ kind: 'not-an-export' }],
  'not-json': [{ kind: 'not-json', detail: 'Unexpected end of JSON input' }],
  'no-version': [
    { kind: 'no-version', found: '"1"' },
    { kind: 'no-version', found: '' },
  ],
  'export-newer': [{ kind: 'export-newer', version: 9, current: 8 }],
  'too-many-notebooks': [{ kind: 'too-many-notebooks', count: 1001, max: 1000 }],
  'expected-list': [{ kind: 'expected-list', path: 'notebooks' }],
  'expected-object': [{ kind: 'expected-object', path: 'settings' }],
  'invalid-field': [{ kind: 'invalid-field', path: 'settings.maxRestarts', detail: 'Invalid type' }],
  'duplicate-key': [{ kind: 'duplicate-key', path: 'notebooks.1.key', key: 'drive:abc' }],
  'newer-record': [{ kind: 'newer-record', path: 'notebooks.0.v', version: 9 }],
  'pattern-refused': [
    { kind: 'pattern-refused', path: 'settings.markerPatterns.1', refusal: { key: 'patternEmpty', subs: [] } },
  ],
  'patterns-unchecked': [{ kind: 'patterns-unchecked' }],
};
const ALL = Object.values(EXAMPLES).flat() as Why[];
const LOCALES = ['en', 'de', 'es', 'fr', 'hi', 'id', 'ja', 'ko', 'pt_BR', 'zh_CN'];

describe('why words', () => {
  it('has an example of every kind the union names', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual([...WHY_KINDS].sort());
  });

  it.each(LOCALES)('%s says every why in its own words, each parameter in place', (locale) => {
    speakIn(locale);
    for (const why of ALL) {
      const said = whyWords(why);
      // A key missing from the language is said as the bare key (whyGuardOff, alertsNoUrl…).
      expect(said, JSON.stringify(why)).not.toMatch(/^[a-z]+[A-Z]\w*$/);
      expect(said, JSON.stringify(why)).not.toMatch(/\$\d|undefined|NaN|\[object/);
      for (const value of Object.values(why)) {
        if ((typeof value === 'number' && value > 0) || (typeof value === 'string' && value.includes(':'))) {
          expect(said, JSON.stringify(why)).toContain(String(value));
        }
      }
    }
  });

  it('says the English the pages showed before the reasons became data', () => {
    speakIn('en');
    expect(whyWords({ kind: 'cannot-cancel' })).toBe('The restart has already started and cannot be cancelled');
    expect(whyWords({ kind: 'too-early', seconds: 4 })).toBe('Too early: 4 s left');
    expect(whyWords({ kind: 'category-off', category: 'gpu-fault' })).toBe(
      'Category “GPU faults (off by default)” is switched off',
    );
    expect(whyWords({ kind: 'disconnect-left', disconnect: 'disallowed-code' })).toMatch(/: not reconnected$/);
    expect(whyWords({ kind: 'import-newer', names: ['a', 'b', 'c'], more: 2 })).toBe(
      'It would replace records written by a newer version of the extension (a, b, c and 2 more). ' +
        'Update the extension first.',
    );
    expect(whyWords({ kind: 'storage-refused', full: true, detail: 'quota' })).toBe(
      "Could not save to the extension's storage: it is full (quota)",
    );
  });

  it('says a why of another version (an update between a reply and its page) as an unknown failure', () => {
    speakIn('en');
    expect(whyWords({ kind: 'from-the-future' } as unknown as Why)).toBe('Something went wrong.');
  });
});
