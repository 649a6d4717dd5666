import { describe, expect, it } from 'vitest';
import { applyMutant, staticSurvivors } from './mutation-static.mjs';

describe('the static re-check', () => {
  it("writes a mutant where Stryker's location says (lines and columns from 1, the end left out)", () => {
    const source = "export const A = {\n  fr: ['Tout exécuter'],\n};\n";
    const location = { start: { line: 2, column: 7 }, end: { line: 2, column: 24 } };
    expect(applyMutant(source, location, '[]')).toBe('export const A = {\n  fr: [],\n};\n');
  });

  it('replaces a location over several lines whole', () => {
    const source = 'try {\n  f();\n} catch {\n  return null;\n}\n';
    const location = { start: { line: 3, column: 9 }, end: { line: 5, column: 2 } };
    expect(applyMutant(source, location, '{}')).toBe('try {\n  f();\n} catch {}\n');
  });

  it('takes the static mutants left alive, and no other', () => {
    const m = (id, status, isStatic) => ({ id, status, static: isStatic });
    const report = {
      files: {
        'src/a.ts': { mutants: [m('1', 'Survived', true), m('2', 'Survived', false), m('3', 'Killed', true)] },
        'src/b.ts': { mutants: [m('4', 'NoCoverage', true), m('5', 'Timeout', true)] },
      },
    };
    expect(staticSurvivors(report).map(({ file, mutant }) => `${file}#${mutant.id}`)).toEqual([
      'src/a.ts#1',
      'src/b.ts#4',
    ]);
  });
});
