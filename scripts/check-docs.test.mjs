import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  avoidedWords,
  brokenLinks,
  checkDocs,
  countWords,
  headingAnchors,
  issueNumbers,
  README_MAX_WORDS,
  repeatedSentences,
  stalePaths,
  staleScreenshotStrings,
  storeTextProblems,
} from './check-docs.mjs';

describe("the repository's documentation", () => {
  it('has a README of at most 1,500 words, links that resolve, nothing said twice, current pictures', () => {
    const { words, problems } = checkDocs();
    expect(problems).toEqual([]);
    expect(words).toBeGreaterThan(500);
    // README's promise to itself, as a literal: a screen or two.
    expect(words).toBeLessThanOrEqual(1500);
    expect(README_MAX_WORDS).toBe(1500);
  }, 30_000);
});

describe('countWords', () => {
  it('counts what a reader sees: link texts and code blocks, not addresses, pictures, markup or comments', () => {
    const markdown = [
      '# Colab OOM Guard',
      '',
      'Download it from the [latest release](https://example.org/releases/latest) — see https://example.org/x.',
      '![A picture with many words in its description](docs/a.png)',
      '```sh',
      'npm ci && npm run build',
      '```',
      '<!-- bench:start -->',
      '| Measure | Result |',
      '|---|---|',
    ].join('\n');
    // Colab OOM Guard (3) Download it from the latest release see (7) npm ci npm run build (5) Measure Result (2)
    expect(countWords(markdown)).toBe(17);
  });
});

describe('avoidedWords', () => {
  it('names the page, the line and the word; a word that only contains the pattern is no match', () => {
    const files = { 'README.md': 'Watching.\nThe crash loop gave up, Re-arm it.', 'docs/a.md': 'rearmament' };
    expect(avoidedWords(files, ['crash[- ]loop', '\\bre-?arm\\b'])).toEqual([
      'README.md:2: "crash loop" (docs/words.md says what to write instead)',
      'README.md:2: "Re-arm" (docs/words.md says what to write instead)',
    ]);
  });
});

describe('headingAnchors', () => {
  it("makes GitHub's anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered", () => {
    const anchors = headingAnchors(
      [
        '# Colab OOM Guard',
        '## 2. "Check Colab UI"',
        '### Adapt after an out-of-memory restart: ask the guard',
        '## Keep `Run all` safe to repeat',
        '## Limits',
        '## Limits',
        '```sh',
        '# not a heading',
        '```',
      ].join('\n'),
    );
    expect([...anchors]).toEqual([
      'colab-oom-guard',
      '2-check-colab-ui',
      'adapt-after-an-out-of-memory-restart-ask-the-guard',
      'keep-run-all-safe-to-repeat',
      'limits',
      'limits-1',
    ]);
  });
});

describe('brokenLinks', () => {
  const files = {
    '/repo/README.md': [
      '# Title',
      '## Install',
      'See [install](#install), [missing](#nope), [guide](docs/guide.md#the-popup), [gone](docs/gone.md),',
      '[bad anchor](docs/guide.md#the-badge), [site](https://example.org/#x), [picture](docs/a.png),',
      '`[in code](nowhere.md)`, [anchor into a picture](docs/a.png#x).',
      '```md',
      '[in a code block](nowhere.md)',
      '```',
    ].join('\n'),
    '/repo/docs/guide.md': '# Guide\n## The popup\n',
    '/repo/docs/a.png': '',
  };
  const read = (file) => files[file];
  const exists = (file) => file in files;

  it('finds links to missing files, missing headings and anchors into other files; code is not read', () => {
    const problems = brokenLinks('/repo/README.md', read, exists).map((p) => p.replace(/^.*README\.md: /, ''));
    expect(problems).toEqual([
      '#nope (no heading #nope there)',
      'docs/gone.md (no such file)',
      'docs/guide.md#the-badge (no heading #the-badge there)',
      'docs/a.png#x (an anchor into a file that is not Markdown)',
    ]);
  });

  it('resolves links relative to the file that has them', () => {
    const inDocs = {
      '/repo/docs/guide.md': '[home](../README.md#install) [self](guide.md)',
      '/repo/README.md': '## Install',
    };
    expect(
      brokenLinks(
        path.normalize('/repo/docs/guide.md'),
        (f) => inDocs[f],
        (f) => f in inDocs,
      ),
    ).toEqual([]);
  });
});

describe('repeatedSentences', () => {
  it('finds a sentence of ten words or more that two pages share, wrapped or marked up differently', () => {
    const repeats = repeatedSentences({
      'docs/a.md': 'The guard runs in your browser, in the Colab tab, all night long. Short one.',
      'docs/b.md': '- The guard runs in your browser, in the **Colab tab**,\n  all night long.\n\nShort one.',
      'docs/c.md': 'The guard runs in your browser, in another tab of a different kind.',
    });
    expect(repeats).toEqual([
      'docs/a.md, docs/b.md: "The guard runs in your browser, in the Colab tab, all night long."',
    ]);
  });
});

describe('staleScreenshotStrings', () => {
  const messages = { stateOff: { message: 'Off' }, stateWatching: { message: 'Watching' } };

  it('is empty while every recorded string reads the same', () => {
    expect(staleScreenshotStrings({ 'popup-off': { stateOff: 'Off' } }, messages, ['popup-off.png'])).toEqual([]);
  });

  it('fails when a label changed, a message is gone, or a picture and its record do not go together', () => {
    const problems = staleScreenshotStrings(
      { 'popup-off': { stateOff: 'Of', stateGone: 'Gone' }, 'popup-lost': {} },
      messages,
      ['popup-off.png', 'popup-new.png'],
    );
    expect(problems).toEqual([
      'popup-off.png shows "Of" (stateOff), the UI now "Off": run npm run screenshots',
      'popup-off.png shows "Gone" (stateGone), the UI now has no such message: run npm run screenshots',
      'popup-lost: recorded, but there is no popup-lost.png: run npm run screenshots',
      'popup-new.png: no strings recorded for it: run npm run screenshots',
    ]);
  });
});

describe('storeTextProblems', () => {
  const messages = { extDescription: { message: 'Restarts Colab.' } };
  const chrome = (text) =>
    `# Listing\n\n### Short description\n\nThe manifest's:\n\n> ${text}\n\n### Description\n\n> Long.\n`;
  const firefox = (text) => `# Listing\n\n### Summary\n\n> ${text}\n\n### Description\n\n> Long.\n`;

  it("is empty when Chrome's short description is the manifest's and AMO's summary fits", () => {
    expect(storeTextProblems(chrome('Restarts Colab.'), firefox('Restarts Colab, per notebook.'), messages)).toEqual(
      [],
    );
  });

  it('fails on another short description, or a summary over 250 characters', () => {
    expect(storeTextProblems(chrome('Restarts it.'), firefox('x'.repeat(251)), messages)).toEqual([
      "store/chrome-web-store.md: the short description is not the manifest's",
      'store/firefox-addons.md: the summary has 251 characters (1–250)',
    ]);
  });
});

describe('stalePaths', () => {
  const files = ['src/page/failure-watch.ts', 'src/colab/observer.ts', 'src/colab/cells.ts', 'src/state/schema.ts'];

  it('passes files, folders with or without their slash, globs, brace lists and placeholders naming something', () => {
    const markdown = [
      '`src/page/failure-watch.ts` and `src/page/failure-watch.ts:12`, `src/colab/`, `src/colab`,',
      '`src/colab/*.ts`, `src/{colab,state}`, `src/**/schema.ts`, `src/colab/cells.ts#L3`, `src/colab/<kind>.ts`.',
    ].join('\n');
    expect(stalePaths(markdown, files)).toEqual([]);
  });

  it("reads a mention starting with one of src/'s folders under src/, when asked", () => {
    const markdown = '`colab/observer.ts`, `colab/`, `state/schema.ts`, `colab/hosts.ts`, `lib/criteria.ts`';
    expect(stalePaths(markdown, files, ['colab', 'state'])).toEqual(['1: `colab/hosts.ts` names no file']);
    expect(stalePaths(markdown, files)).toEqual([]);
  });

  it('names a moved file, a glob that matches nothing and a brace list with one choice gone, by line', () => {
    const markdown = ['What changed (`src/content/failure-watch.ts`):', '`src/colab/*.tsx` and `src/{colab,detector}`'];
    expect(stalePaths(markdown.join('\n'), files)).toEqual([
      '1: `src/content/failure-watch.ts` names no file',
      '2: `src/colab/*.tsx` names no file',
      '2: `src/{colab,detector}` names no file',
    ]);
  });
});

describe('issueNumbers', () => {
  it('finds an issue number in a Markdown line, a comment and a test title, but not in other strings', () => {
    const test = [
      '// Frames post only for a guarded notebook (issue 15.2).',
      '/**',
      ' * Issues 4 and 14 on the simulated Colab.',
      ' */',
      "test.describe('the dialogs of 2025-26 (issue 14.3)', () => {",
      `  it(\`a title with $\{n} template (Issue #7)\`, () => {});`,
      "  const shell = '!echo issue#1; python train.py';",
      "  it('names the issues it found', () => {});",
      '});',
    ].join('\n');
    expect(issueNumbers('e2e/x.spec.ts', test)).toEqual([
      'e2e/x.spec.ts:1: // Frames post only for a guarded notebook (issue 15.2).',
      'e2e/x.spec.ts:3: * Issues 4 and 14 on the simulated Colab.',
      "e2e/x.spec.ts:5: test.describe('the dialogs of 2025-26 (issue 14.3)', () => {",
      `e2e/x.spec.ts:6: it(\`a title with $\{n} template (Issue #7)\`, () => {});`,
    ]);
    expect(issueNumbers('docs/a.md', '# Scale\n\n## Notebook scale (issue 19)\nSee google/gemma#85.')).toEqual([
      'docs/a.md:3: ## Notebook scale (issue 19)',
    ]);
  });
});
