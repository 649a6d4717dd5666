import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One register, one word per concept and the punctuation of each language (docs/words.md): every locale's glossary in
 * docs/locales/<locale>.json names the word it uses for each concept it lists and the words it avoids, and the
 * patterns its register and punctuation rule out. A message that says an avoided word fails here.
 */

type Glossary = {
  register: string;
  punctuation: string;
  forbidden?: { pattern: string; why: string }[];
  terms: { concept: string; use: string; avoid: string[]; except?: string[] }[];
};
type Bundle = Record<string, { message: string }>;

const ROOT = join(__dirname, '../..');
const LOCALES = join(ROOT, 'public/_locales');
const GLOSSARIES = join(ROOT, 'docs/locales');
const locales = readdirSync(LOCALES);
const glossaryOf = (locale: string): Glossary =>
  JSON.parse(readFileSync(join(GLOSSARIES, `${locale}.json`), 'utf8')) as Glossary;
/** The messages as a person reads them: the product's name is a name, not a word of the language. */
const messagesOf = (locale: string): [string, string][] =>
  Object.entries(JSON.parse(readFileSync(join(LOCALES, locale, 'messages.json'), 'utf8')) as Bundle).map(
    ([key, { message }]) => [key, message.replaceAll('Colab OOM Guard', '')],
  );

/** "key: …the words around the match…", for a failure message a translator can act on. */
function hits(messages: [string, string][], pattern: RegExp, except: readonly string[] = []): string[] {
  return messages.flatMap(([key, message]) => {
    if (except.includes(key)) return [];
    const found = pattern.exec(message);
    return found ? [`${key}: …${message.slice(Math.max(0, found.index - 20), found.index + 30)}…`] : [];
  });
}

describe('each language sounds like one voice', () => {
  it('every shipped locale has a glossary that says its register and punctuation, and no glossary is orphaned', () => {
    expect(
      readdirSync(GLOSSARIES)
        .map((file) => file.replace(/\.json$/, ''))
        .sort(),
    ).toEqual([...locales].sort());
    for (const locale of locales) {
      const glossary = glossaryOf(locale);
      expect(glossary.register.length, locale).toBeGreaterThan(10);
      expect(glossary.punctuation.length, locale).toBeGreaterThan(10);
      expect(glossary.terms.length, locale).toBeGreaterThan(2);
    }
  });

  describe.each(locales)('%s', (locale) => {
    const glossary = glossaryOf(locale);
    const messages = messagesOf(locale);

    it.each(glossary.terms.map((term) => [term.concept, term] as const))('says "%s" one way', (_, term) => {
      for (const avoided of term.avoid) {
        expect(hits(messages, pattern(avoided, 'iu'), term.except), `${term.use}, not /${avoided}/`).toEqual([]);
      }
      // The word chosen is the one in use ("(left out)": the language says it without a word).
      if (!term.use.startsWith('(')) {
        const word = term.use.toLocaleLowerCase();
        expect(
          messages.some(([, message]) => message.toLocaleLowerCase().includes(word)),
          term.use,
        ).toBe(true);
      }
    });

    it('keeps its register and punctuation', () => {
      for (const { pattern: source, why } of glossary.forbidden ?? []) {
        expect(hits(messages, pattern(source, 'u')), why).toEqual([]);
      }
    });
  });
});

/** JavaScript's `\b` knows ASCII letters only ("tu" would match in "tué"): here it is a boundary of any letter. */
function pattern(source: string, flags: string): RegExp {
  const letter = '[\\p{L}\\p{N}]';
  const boundary = `(?:(?<=${letter})(?!${letter})|(?<!${letter})(?=${letter}))`;
  return new RegExp(source.replaceAll('\\b', boundary), flags);
}
