#!/usr/bin/env node
// Part of `npm run lint`: the documentation a user reads.
//  - README.md fits a screen or two: at most 1,500 words, counted as a reader sees them (the steps in code blocks
//    included; no URLs, pictures or comments).
//  - README.md, docs/ (but the developers' pages and the word list itself), store/ and CHANGELOG.md avoid the words
//    docs/locales/en.json lists as avoided (docs/words.md): the pages say what the UI says.
//  - Every relative link and #anchor in README.md, docs/, store/, DEVELOPERS.md and CHANGELOG.md resolves: the file
//    exists, and the anchor is a heading of it as GitHub makes anchors.
//  - No sentence of ten words or more stands in two of README.md and docs/*.md: each page says its own part once.
//  - Each picture's UI strings recorded in docs/screenshots/strings.json still read the same in
//    public/_locales/en/messages.json, and every picture has its record (the e2e test that takes a picture compares
//    the record with the page).
//  - The stores' short texts fit their limits, and the Chrome one is the manifest's description.
//  - Every backticked `src/…` path in the Markdown of the repository names a file or folder there (a glob, one at
//    least), so a file that moves takes its mentions along.
//  - No issue numbers (the word and a number) in the docs, test titles or code comments: they say what, not which
//    issue asked for it (CHANGELOG.md may name them; test/fixtures/ holds copied evidence).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync, walk } from './ast.mjs';
import { workTreeFiles } from './work-tree.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README_MAX_WORDS = 1500;

/** Markdown without fenced code blocks and HTML comments: the text links and words are looked for in. */
function prose(markdown) {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').replace(/<!--[\s\S]*?-->/g, '');
}

/** The words a reader sees: link texts but not their addresses, what code blocks say, no pictures, no markup. */
export function countWords(markdown) {
  const text = markdown
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/^```[^\n]*$/gm, '')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/https?:\/\/\S+/g, ' ');
  return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
export function headingAnchors(markdown) {
  const seen = new Map();
  const anchors = new Set();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading.replace(/!\[[^\]]*\]\([^)]*\)/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** The relative links of a Markdown file that do not resolve, as "file: target (why)". */
export function brokenLinks(file, read = (f) => readFileSync(f, 'utf8'), exists = existsSync) {
  const markdown = read(file);
  const withoutCode = prose(markdown).replace(/`[^`\n]*`/g, '');
  const problems = [];
  for (const [, target] of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart, anchor] = target.split('#');
    const linked = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
    const where = `${path.relative(root, file)}: ${target}`;
    if (!exists(linked)) {
      problems.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!linked.endsWith('.md')) {
      problems.push(`${where} (an anchor into a file that is not Markdown)`);
    } else if (!headingAnchors(read(linked)).has(anchor)) {
      problems.push(`${where} (no heading #${anchor} there)`);
    }
  }
  return problems;
}

/** Sentences of `minWords` words or more that stand in more than one of `files` ({ name: markdown }). */
export function repeatedSentences(files, minWords = 10) {
  const where = new Map();
  for (const [name, markdown] of Object.entries(files)) {
    const text = prose(markdown)
      .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/^\s*(?:[-*>|]|\d+\.)\s*/gm, ' ')
      .replace(/\s+/g, ' ');
    for (const sentence of text.split(/(?<=[.!?:])\s+(?=[A-Z*_`"(])/)) {
      const normal = sentence.replace(/[*_`|]/g, '').trim();
      if (normal.split(' ').length < minWords) continue;
      where.set(normal, new Set([...(where.get(normal) ?? []), name]));
    }
  }
  return [...where]
    .filter(([, names]) => names.size > 1)
    .map(([sentence, names]) => `${[...names].join(', ')}: "${sentence}"`);
}

/** Recorded picture strings the messages no longer say, and pictures and records without the other. */
export function staleScreenshotStrings(record, messages, pictures) {
  const problems = [];
  for (const [picture, strings] of Object.entries(record)) {
    if (!pictures.includes(`${picture}.png`)) problems.push(`${picture}: recorded, but there is no ${picture}.png`);
    for (const [key, text] of Object.entries(strings)) {
      const now = messages[key]?.message;
      const says = now === undefined ? 'has no such message' : `"${now}"`;
      if (now !== text) problems.push(`${picture}.png shows "${text}" (${key}), the UI now ${says}`);
    }
  }
  for (const png of pictures) {
    if (!(png.replace(/\.png$/, '') in record)) problems.push(`${png}: no strings recorded for it`);
  }
  return problems.map((problem) => `${problem}: run npm run screenshots`);
}

/** The block quote under `heading` in a store listing, as one line. */
export function quotedUnder(markdown, heading) {
  const after = markdown.split(`\n${heading}\n`)[1] ?? '';
  const section = after.split(/\n#+ /)[0];
  const quote = section.split('\n').filter((line) => line.startsWith('>'));
  return quote
    .map((line) => line.replace(/^>\s?/, ''))
    .join(' ')
    .trim();
}

/** The stores' short texts against their limits: Chrome's short description (the manifest's), AMO's summary. */
export function storeTextProblems(chromeListing, firefoxListing, messages) {
  const problems = [];
  const description = messages.extDescription?.message ?? '';
  const chromeShort = quotedUnder(chromeListing, '### Short description');
  if (chromeShort !== description)
    problems.push("store/chrome-web-store.md: the short description is not the manifest's");
  if (description.length > 132) problems.push(`extDescription: ${description.length} characters, the store takes 132`);
  const summary = quotedUnder(firefoxListing, '### Summary');
  if (!summary || summary.length > 250)
    problems.push(`store/firefox-addons.md: the summary has ${summary.length} characters (1–250)`);
  return problems;
}

/**
 * Backticked `src/…` paths of a Markdown file that name nothing among `files` (repository paths), with their line.
 * With `rooms` (src/'s folders), a mention that starts with one (`site/hosts.ts`) is read under src/ too: the
 * pages about the code name files that way.
 */
export function stalePaths(markdown, files, rooms = []) {
  const known = new Set(files.flatMap((file) => [file, ...folders(file)]));
  const mentions = new RegExp(`\`((?:src|${rooms.join('|') || 'src'})/[^\`\\s]*)\``, 'g');
  const problems = [];
  markdown.split('\n').forEach((line, i) => {
    for (const [, mention] of line.matchAll(mentions)) {
      // `<kind>` is a placeholder: the mention names files of that form.
      const bare = mention.replace(/[#:].*$/, '').replace(/<[^>]*>/g, '*');
      const where = bare.startsWith('src/') ? bare : `src/${bare}`;
      const named = expandBraces(where).every((one) =>
        /[*?]/.test(one) ? files.some((file) => globPattern(one).test(file)) : known.has(one),
      );
      if (!named) problems.push(`${i + 1}: \`${mention}\` names no file`);
    }
  });
  return problems;
}

/** The folders a file is in, each with and without its trailing slash. */
const folders = (file) =>
  file
    .split('/')
    .slice(0, -1)
    .flatMap((_, i, parts) => [parts.slice(0, i + 1).join('/'), `${parts.slice(0, i + 1).join('/')}/`]);

function expandBraces(pattern) {
  const match = pattern.match(/\{([^{}]*)\}/);
  if (!match) return [pattern];
  return match[1].split(',').flatMap((choice) => expandBraces(pattern.replace(match[0], choice)));
}

function globPattern(glob) {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*?/g, (stars) => (stars === '**' ? '.*' : '[^/]*'));
  return new RegExp(`^${body.replace(/\?/g, '[^/]')}$`);
}

const ISSUE_NUMBER = /\bissues?\s+#?\d+/i;
const TEST_CALLS = new Set(['describe', 'it', 'test']);

/** Where a file names an issue by number: in Markdown any line, in code its comments and test titles. */
export function issueNumbers(file, text) {
  const lineOf = (at) => text.slice(0, at).split('\n').length;
  if (file.endsWith('.md')) {
    return text.split('\n').flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
  }
  if (!ISSUE_NUMBER.test(text)) return []; // most files: nothing to parse
  const { program, comments } = parseSync(file, text);
  const found = comments.flatMap((comment) => {
    const at = comment.value.search(ISSUE_NUMBER);
    return at < 0 ? [] : [comment.start + 2 + at];
  });
  walk(program, (node) => {
    if (node.type !== 'CallExpression' || !TEST_CALLS.has(calleeRoot(node.callee))) return;
    const [title] = node.arguments;
    const words = title?.type === 'Literal' ? title.value : title?.type === 'TemplateLiteral' ? title.quasis : null;
    const said = Array.isArray(words) ? words.map((quasi) => quasi.value.cooked).join(' ') : words;
    if (typeof said === 'string' && ISSUE_NUMBER.test(said)) found.push(node.start);
  });
  return found.sort((a, b) => a - b).map((at) => `${file}:${lineOf(at)}: ${text.split('\n')[lineOf(at) - 1].trim()}`);
}

/** `describe` for `describe(…)`, `test.describe.serial(…)`, `it.each(…)(…)`. */
function calleeRoot(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression') return calleeRoot(callee.object);
  if (callee.type === 'CallExpression') return calleeRoot(callee.callee);
  return null;
}

/** "file: line: word" for each word of `avoided` (the English glossary's patterns) in the pages people read. */
export function avoidedWords(files, avoided) {
  const problems = [];
  for (const [name, markdown] of Object.entries(files)) {
    markdown.split('\n').forEach((line, i) => {
      for (const pattern of avoided) {
        const found = new RegExp(pattern, 'i').exec(line);
        if (found) problems.push(`${name}:${i + 1}: "${found[0]}" (docs/words.md says what to write instead)`);
      }
    });
  }
  return problems;
}

/** Pages written for developers (the bench writes performance.md's tables), where the code's words belong; the list. */
const DEVELOPER_PAGES = new Set(['docs/testing.md', 'docs/development.md', 'docs/performance.md', 'docs/words.md']);

const markdownIn = (dir) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .map((f) => path.join(dir, f))
    : [];

export function checkDocs() {
  const read = (file) => readFileSync(path.join(root, file), 'utf8');
  const problems = [];
  const words = countWords(read('README.md'));
  if (words > README_MAX_WORDS) problems.push(`README.md has ${words} words; at most ${README_MAX_WORDS}`);

  const linked = [
    path.join(root, 'README.md'),
    path.join(root, 'DEVELOPERS.md'),
    path.join(root, 'CHANGELOG.md'),
    ...markdownIn(path.join(root, 'docs')),
    ...markdownIn(path.join(root, 'store')),
  ];
  for (const file of linked) problems.push(...brokenLinks(file));

  const pages = Object.fromEntries(
    [path.join(root, 'README.md'), ...markdownIn(path.join(root, 'docs'))].map((file) => [
      path.relative(root, file),
      readFileSync(file, 'utf8'),
    ]),
  );
  problems.push(...repeatedSentences(pages).map((repeat) => `said twice: ${repeat}`));

  const glossary = JSON.parse(read('docs/locales/en.json'));
  const forPeople = [
    path.join(root, 'README.md'),
    path.join(root, 'CHANGELOG.md'),
    ...markdownIn(path.join(root, 'docs')),
    ...markdownIn(path.join(root, 'store')),
  ]
    .map((file) => path.relative(root, file))
    .filter((file) => !DEVELOPER_PAGES.has(file));
  const avoided = glossary.terms.flatMap((term) => term.avoid);
  problems.push(...avoidedWords(Object.fromEntries(forPeople.map((file) => [file, read(file)])), avoided));

  const messages = JSON.parse(read('public/_locales/en/messages.json'));
  const pictures = readdirSync(path.join(root, 'docs/screenshots')).filter((f) => f.endsWith('.png'));
  problems.push(...staleScreenshotStrings(JSON.parse(read('docs/screenshots/strings.json')), messages, pictures));
  problems.push(...storeTextProblems(read('store/chrome-web-store.md'), read('store/firefox-addons.md'), messages));

  const tracked = workTreeFiles().filter((file) => !file.startsWith('test/fixtures/'));
  const rooms = readdirSync(path.join(root, 'src'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  // bench/ and e2e/ name their own lib/ and page/ folders.
  const aboutTheCode = (file) => !/^(bench|e2e|e2e-firefox|python)\//.test(file);
  for (const file of tracked.filter((f) => f.endsWith('.md'))) {
    const named = stalePaths(read(file), tracked, aboutTheCode(file) ? rooms : []);
    problems.push(...named.map((problem) => `${file}:${problem}`));
  }
  for (const file of tracked.filter((f) => /\.(md|ts|tsx|mjs|js)$/.test(f) && f !== 'CHANGELOG.md')) {
    problems.push(...issueNumbers(file, read(file)).map((where) => `an issue number: ${where}`));
  }
  return { words, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { problems } = checkDocs();
  if (problems.length > 0) {
    console.error(`Documentation:\n${problems.join('\n')}`);
    process.exit(1);
  }
}
