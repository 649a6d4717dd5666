import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { literals } from '../../test/support/literals';

/**
 * The rule: no string or template literal in src/state/*.ts (tests aside) reads as English words: two words in a row
 * the first capitalised ("Gave up"), or three lower-case ones (": not reconnected" after a placeholder). So no reply,
 * refusal or note is worded here: replies carry a `why` (why.ts) that the pages put in the user's language
 * (ui/why-text.ts). Allowed: an Error's own message (`super(` or `new …Error(` on its line), a diagnostic for a
 * developer or Copy diagnostics, never a reply; and what is listed below, each with why.
 */
const KNOWN_FILES: Record<string, string> = {
  'history-sentences.ts': 'reads back the English sentences versions 1 to 3 stored (a migration): it writes none',
  'disconnect.ts':
    "each disconnect's verdict description, stored with the verdict as every rule's is; the pages name it by rule id",
  'schema.ts': "valibot messages of the stored shapes: shown only as a why's `detail`, as valibot's own are",
  'declined.ts': "each declined reason's English phrase as version 4 wrote it, which history-sentences reads back",
};
/** Single literals, by file and their first words. */
const KNOWN_LITERALS: Record<string, string> = {
  'policy-reports.ts: Restart marker: ': "a marker's verdict description, stored with the verdict as a rule's is",
  'migrations.ts: no migration from version ': "a migration's failure: a why's `detail` and a problem's text",
  'migrations.ts: migration from version ': "a migration's failure: a why's `detail` and a problem's text",
  'migrations.ts: unreadable version ': "a migration's failure: a why's `detail` and a problem's text",
};

const WORDS = /\b[A-Z][a-z']+ [a-z']+\b|\b[a-z']+ [a-z']+ [a-z']+\b/;
const ERROR_MESSAGE = /\bsuper\(|\bnew \w*Error\(/;

function sentences(source: string, file = ''): string[] {
  const lines = source.split('\n');
  return literals(source)
    .filter(({ text }) => WORDS.test(text) && !(`${file}: ${text}` in KNOWN_LITERALS))
    .filter(({ line }) => !ERROR_MESSAGE.test(lines[line - 1] ?? ''))
    .map(({ text, line }) => `${line}: ${text}`);
}

describe('state/ words nothing', () => {
  const dir = join(__dirname);
  const files = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

  const read = (name: string) => readFileSync(join(dir, name), 'utf8');

  it.each(files.filter((name) => !(name in KNOWN_FILES)))('%s holds no English words', (name) => {
    expect(sentences(read(name), name)).toEqual([]);
  });

  it('lists as known only files and literals that exist and still need it', () => {
    for (const name of Object.keys(KNOWN_FILES)) {
      expect(files).toContain(name);
      expect(sentences(read(name)), name).not.toEqual([]);
    }
    for (const known of Object.keys(KNOWN_LITERALS)) {
      const name = known.slice(0, known.indexOf(': '));
      expect(
        literals(read(name)).map((l) => l.text),
        known,
      ).toContain(known.slice(name.length + 2));
    }
  });

  it('finds a sentence in a literal, a template or a reply, and none in comments, patterns or error messages', () => {
    const source = [
      "return reply(record, { ok: false, message: 'The restart has already started' });",
      'const text = `Gave up: #{n} restarts already (limit #{max})`;',
      'const other = `#{a} Too early by far`;',
      '// The guard is off for this notebook',
      '/* Another tab owns this restart */',
      "const re = /^Restart (\\d+) of (\\d+) in 's'$/;",
      "if (/Marker restart done/.test(d)) return { why: 'marker' };",
      'throw new Error(`Refusing to store an invalid record for #{key}`);',
      "const kinds = ['guard-off', 'too-early', 'no answer'];",
      'const left = `#{description}: not reconnected at all`;',
    ]
      .join('\n')
      // Written #{…}: a `${` in a plain string reads as a mistake to the linter.
      .replaceAll('#{', '${');
    expect(sentences(source)).toEqual([
      '1: The restart has already started',
      '2: Gave up: ',
      '3:  Too early by far',
      '10: : not reconnected at all',
    ]);
  });
});
