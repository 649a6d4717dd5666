import { describe, expect, it } from 'vitest';
import { belowThreshold, folderOf, markdown, pins, score, summarize } from './mutation-summary.mjs';

const at = (line, column) => ({ start: { line, column }, end: { line, column: column + 4 } });
const mutant = (status, line, column, mutatorName = 'BooleanLiteral', replacement = 'false', extra = {}) => ({
  status,
  location: at(line, column),
  mutatorName,
  replacement,
  ...extra,
});
const source = ['const a = true;', 'const b = true || true;', 'f(true);'].join('\n');
const report = {
  files: {
    'src/colab/a.ts': {
      source,
      mutants: [
        mutant('Killed', 1, 11),
        mutant('Timeout', 2, 11),
        mutant('Survived', 2, 19),
        mutant('NoCoverage', 3, 3, 'BooleanLiteral', 'false', { static: true }),
        mutant('CompileError', 1, 11, 'StringLiteral', '""'),
      ],
    },
    'src/limits.ts': { source, mutants: [mutant('Survived', 1, 11)] },
  },
};

describe('the mutation summary', () => {
  it('counts a file of src/ in its first folder, a file at the top in src', () => {
    expect(folderOf('src/colab/dom.ts')).toBe('src/colab');
    expect(folderOf('src/page/deep/x.ts')).toBe('src/page');
    expect(folderOf('src/limits.ts')).toBe('src');
  });

  it('pins a justification to file, line, mutator and replacement exactly, and to a column when it names one', () => {
    const m = mutant('Survived', 2, 19);
    const entry = { file: 'src/colab/a.ts', line: 2, mutator: 'BooleanLiteral', replacement: 'false', why: '' };
    expect(pins(entry, 'src/colab/a.ts', m)).toBe(true);
    expect(pins({ ...entry, line: 3 }, 'src/colab/a.ts', m)).toBe(false);
    expect(pins({ ...entry, file: 'src/colab/b.ts' }, 'src/colab/a.ts', m)).toBe(false);
    expect(pins({ ...entry, mutator: 'StringLiteral' }, 'src/colab/a.ts', m)).toBe(false);
    expect(pins({ ...entry, replacement: 'true' }, 'src/colab/a.ts', m)).toBe(false);
    expect(pins({ ...entry, column: 11 }, 'src/colab/a.ts', m)).toBe(false);
    expect(pins({ ...entry, column: 19 }, 'src/colab/a.ts', m)).toBe(true);
  });

  it('counts killed, survived and justified by folder; errors count nowhere; static ones are tested ones', () => {
    const why = 'equivalent';
    const justified = { file: 'src/colab/a.ts', line: 2, mutator: 'BooleanLiteral', replacement: 'false', why };
    const { folders, survivors, justified: listed } = summarize(report, [justified]);
    expect(folders.get('src/colab')).toEqual({ files: 1, killed: 2, survived: 1, justified: 1, static: 1 });
    expect(folders.get('src')).toEqual({ files: 1, killed: 0, survived: 1, justified: 0, static: 0 });
    expect(survivors.map((s) => s.what)).toEqual([
      'src/colab/a.ts:3:3 BooleanLiteral: "true" -> "false" (no test runs it)',
      'src/limits.ts:1:11 BooleanLiteral: "true" -> "false"',
    ]);
    expect(listed).toEqual([{ what: 'src/colab/a.ts:2:19 BooleanLiteral: "true" -> "false"', why }]);
    expect(score(folders.get('src/colab'))).toBe(50);
  });

  it('names the justifications that pin nothing (with where a survivor like it is) or several', () => {
    const stale = { file: 'src/colab/a.ts', line: 1, mutator: 'BooleanLiteral', replacement: 'false', why: '' };
    const elsewhere = { ...stale, file: 'src/state/not-run.ts' };
    const several = { ...stale, file: 'src/colab/a.ts', line: 2, why: '' };
    const doubled = {
      files: { 'src/colab/a.ts': { source, mutants: [mutant('Survived', 2, 11), mutant('Survived', 2, 19)] } },
    };
    const { unmatched, ambiguous, hints } = summarize(doubled, [stale, elsewhere, several]);
    expect(unmatched).toEqual([stale]);
    expect(hints).toEqual([{ entry: stale, lines: [] }]);
    expect(ambiguous).toEqual([several]);
    const moved = summarize(report, [stale]);
    expect(moved.hints).toEqual([{ entry: stale, lines: [2, 3] }]);
  });

  it('fails a folder under its threshold, a folder not named under the default', () => {
    const { folders } = summarize(report, []);
    expect(belowThreshold(folders, { default: 0, folders: { 'src/colab': 50 } })).toEqual([]);
    expect(belowThreshold(folders, { default: 0, folders: { 'src/colab': 50.01 } })).toEqual([
      { folder: 'src/colab', score: 50, threshold: 50.01 },
    ]);
    expect(belowThreshold(folders, { default: 1, folders: {} }).map((f) => f.folder)).toEqual(['src']);
  });

  it('writes a table by folder with the killed, survived and justified figures, and no other score', () => {
    const text = markdown(summarize(report, []), { default: 80, folders: { src: 0 } });
    expect(text).toContain('| `src` | 1 | 1 | 0 | 0 | 1 | 0 | 0.00 % | 0 % |');
    expect(text).toContain('| `src/colab` | 1 | 4 | 1 | 2 | 2 | 0 | 50.00 % | 80 % |');
    expect(text).toContain('| **All** | 2 | 5 | 1 | 2 | 3 | 0 | 40.00 % |  |');
    expect(text).not.toMatch(/without/i);
  });
});
