import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Modules whose collaborators are passed in (`SessionDeps`, `RunnerDeps`): their tests give fakes. */
const PASSED_IN = ['notebook-session', 'restart-runner'];

/** Modules that reach the browser or Colab's page: `live-deps.ts` hands the session what it needs of them. */
const ADAPTERS = [
  'webextension-polyfill',
  '../colab',
  '../lib/i18n',
  '../state/store',
  './send-to-worker',
  './page-watch',
  './presence',
  './receive-frame-reports',
  './notice-texts',
  './live-deps',
];

const source = (file: string) => readFileSync(new URL(file, import.meta.url), 'utf8');

/** What a module imports for use at run time: `import type` is erased from the bundle and from tests. */
function runtimeImports(text: string): string[] {
  return [...text.matchAll(/^import (?!type )[\s\S]*? from '([^']+)';$/gm)].map((match) => match[1] ?? '');
}

describe('collaborators passed in', () => {
  it('are faked in the tests of the notebook session and the restart runner, never by a module mock', () => {
    for (const name of PASSED_IN) expect(source(`./${name}.test.ts`), name).not.toMatch(/\bvi\.(do)?mock\(/i);
  });

  it('leave the notebook session and the restart runner importing no adapter at run time', () => {
    expect(runtimeImports(source('./notebook-session.ts'))).toContain('./question');
    for (const name of PASSED_IN) {
      const adapters = runtimeImports(source(`./${name}.ts`)).filter((from) => ADAPTERS.includes(from));
      expect(adapters, name).toEqual([]);
    }
  });
});
