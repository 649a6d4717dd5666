import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluralForms } from './plural';

/**
 * Every shipped language says every English message, with the same placeholders, and the plural forms its own
 * language needs: a missing key would show English (or the key) in the middle of a translated page.
 */

type Bundle = Record<string, { message: string; description?: string }>;

const ROOT = join(__dirname, '../../public/_locales');
const read = (locale: string): Bundle => JSON.parse(readFileSync(join(ROOT, locale, 'messages.json'), 'utf8'));
const english = read('en');
const locales = readdirSync(ROOT).filter((name) => name !== 'en');
const manifest = JSON.parse(readFileSync(join(__dirname, '../../manifest.json'), 'utf8'));

/** Chrome's `$1`…`$9` substitutions a message uses, in all its forms (`$$` is a dollar sign). */
function placeholders(message: string): string[] {
  return [...new Set(message.replace(/\$\$/g, '').match(/\$[1-9]/g) ?? [])].sort();
}

/** A locale directory's name as a language tag: `pt_BR` → `pt-BR`. */
const tagOf = (locale: string) => locale.replace('_', '-');

describe('_locales', () => {
  it('ships the languages the extension promises', () => {
    expect(locales.sort()).toEqual(['de', 'es', 'fr', 'hi', 'id', 'ja', 'ko', 'pt_BR', 'zh_CN']);
    expect(manifest.default_locale).toBe('en');
  });

  it.each(['en', ...locales])('%s names its own language, for its plural rules', (locale) => {
    expect(read(locale).messagesLocale?.message).toBe(tagOf(locale));
    expect(Intl.PluralRules.supportedLocalesOf(tagOf(locale))).toEqual([tagOf(locale)]);
  });

  it.each(locales)('%s has every English key and no other', (locale) => {
    expect(Object.keys(read(locale)).sort()).toEqual(Object.keys(english).sort());
  });

  it.each(locales)('%s keeps every placeholder of each English message', (locale) => {
    const bundle = read(locale);
    const differ = Object.keys(english).filter(
      (key) => placeholders(bundle[key]?.message ?? '').join() !== placeholders(english[key]?.message ?? '').join(),
    );
    expect(differ).toEqual([]);
  });

  it.each(['en', ...locales])('%s gives each counted message exactly its language plural categories', (locale) => {
    const bundle = read(locale);
    const categories = new Intl.PluralRules(tagOf(locale)).resolvedOptions().pluralCategories.slice().sort();
    const wrong = Object.keys(english).flatMap((key) => {
      const englishCounted = pluralForms(english[key]?.message ?? '') !== null;
      const forms = pluralForms(bundle[key]?.message ?? '');
      if (!englishCounted) return forms ? [`${key}: plural forms where English has none`] : [];
      const have = forms ? Object.keys(forms).sort() : [];
      const empty = forms && Object.values(forms).some((form) => !form.trim());
      return have.join() === categories.join() && !empty ? [] : [`${key}: ${have.join() || 'no forms'}`];
    });
    expect(wrong).toEqual([]);
  });

  it.each(['en', ...locales])("%s meets Chrome's message rules", (locale) => {
    const bundle = read(locale);
    const bad = Object.entries(bundle).filter(
      ([key, value]) => !/^[A-Za-z0-9_@]+$/.test(key) || key.startsWith('@@') || !value.message.trim(),
    );
    expect(bad).toEqual([]);
  });

  it.each(['en', ...locales])('%s says "on" on the badge in at most 4 characters (Chrome cuts the rest)', (locale) => {
    expect([...(read(locale).badgeOn?.message ?? '')].length).toBeGreaterThan(0);
    expect([...(read(locale).badgeOn?.message ?? '')].length).toBeLessThanOrEqual(4);
  });

  it('leaves the product name as it is', () => {
    for (const locale of locales) expect(read(locale).extName?.message).toBe('Colab OOM Guard');
  });
});
