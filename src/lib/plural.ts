/**
 * Messages that depend on a count hold one form per plural category of their language, in one `_locales` entry:
 * `one=Gave up after $1 restart|other=Gave up after $1 restarts` (Japanese has only `other=…`). Keeping the forms in
 * one key keeps every locale's key list the same; `Intl.PluralRules` picks the form, so 0, 1, 2, 5 and 21 read right
 * in every language. No browser API here, so that tests choose forms with it too.
 */

const FORM = /(?:^|\|)(zero|one|two|few|many|other)=/g;

/** The forms of a plural message by category; null for an ordinary message. */
export function pluralForms(message: string): Partial<Record<Intl.LDMLPluralRule, string>> | null {
  const starts = [...message.matchAll(FORM)];
  if (starts[0]?.index !== 0) return null;
  const forms: Partial<Record<Intl.LDMLPluralRule, string>> = {};
  starts.forEach((start, i) => {
    const end = starts[i + 1]?.index ?? message.length;
    forms[start[1] as Intl.LDMLPluralRule] = message.slice(start.index + start[0].length, end);
  });
  return forms;
}

/** The form of `message` for `count` in `locale`; `other` where the language's category has no form of its own. */
export function pluralForm(message: string, locale: string, count: number): string {
  const forms = pluralForms(message);
  if (!forms) return message;
  return forms[categoryOf(locale, count)] ?? forms.other ?? message;
}

function categoryOf(locale: string, count: number): Intl.LDMLPluralRule {
  try {
    return new Intl.PluralRules(locale).select(count);
  } catch {
    // A locale tag the engine refuses (a message key shown in its place): English rules.
    return new Intl.PluralRules('en').select(count);
  }
}
