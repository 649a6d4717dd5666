import { describe, expect, it } from 'vitest';
import { pluralForm, pluralForms } from './plural';

const RESTARTS = 'one=Gave up after $1 restart|other=Gave up after $1 restarts';

describe('pluralForms', () => {
  it('reads each form by its category', () => {
    expect(pluralForms(RESTARTS)).toEqual({ one: 'Gave up after $1 restart', other: 'Gave up after $1 restarts' });
  });

  it('is null for a message without forms, even one holding "=" or "|"', () => {
    expect(pluralForms('Watching')).toBeNull();
    expect(pluralForms('a|b, x=1')).toBeNull();
    expect(pluralForms('Saved one=1')).toBeNull();
  });
});

describe('pluralForm', () => {
  it('picks English forms by English rules', () => {
    expect(pluralForm('one=1 restart|other=2 restarts', 'en', 1)).toBe('1 restart');
    expect(pluralForm('one=x restart|other=x restarts', 'en', 0)).toBe('x restarts');
    expect(pluralForm('one=x restart|other=x restarts', 'en', 21)).toBe('x restarts');
  });

  it('follows the language: French counts 0 as singular, Hindi too', () => {
    expect(pluralForm('one=x redémarrage|many=x de redémarrages|other=x redémarrages', 'fr', 0)).toBe('x redémarrage');
    expect(pluralForm('one=x redémarrage|many=x de redémarrages|other=x redémarrages', 'fr', 2)).toBe('x redémarrages');
    expect(pluralForm('one=x redémarrage|many=x de redémarrages|other=x redémarrages', 'fr', 1_000_000)).toBe(
      'x de redémarrages',
    );
    expect(pluralForm('one=x रीस्टार्ट|other=x रीस्टार्ट्स', 'hi', 0)).toBe('x रीस्टार्ट');
  });

  it('uses the only form of a language without plurals', () => {
    expect(pluralForm('other=$1 回再起動した後で停止', 'ja', 1)).toBe('$1 回再起動した後で停止');
  });

  it('falls back to "other" where the language has a category the message lacks', () => {
    expect(pluralForm('one=x restart|other=x restarts', 'fr', 1_000_000)).toBe('x restarts');
  });

  it('keeps the text where the locale tag is not one (a message key shown in its place)', () => {
    expect(pluralForm('one=x restart|other=x restarts', 'messagesLocale', 1)).toBe('x restart');
    expect(pluralForm('stateGaveUp', 'messagesLocale', 3)).toBe('stateGaveUp');
  });
});
