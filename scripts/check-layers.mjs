#!/usr/bin/env node
// Part of `npm run lint`: what each room of src/ may import, as an allow-list (DEVELOPERS.md, Layout and Layers).
//  - Every file under src/ is in a room of LAYERS: a folder (`src/state/`), a top-level file (`src/limits.ts`), or a
//    file of a folder with rules of its own (`src/state/store.ts`, the storage adapter). A new folder or file outside
//    the table fails until it is added here and to DEVELOPERS.md's Layout.
//  - Every import of product code (tests are left out) names a room or package its room lists: static imports and
//    re-exports, `import()`, `import('…')` types and `require`, type-only ones included. A file row may import its
//    own folder; a folder row names the file rows of its folder it uses.
//  - The rooms' allowances form no cycle between folders; an entry marked `debt` is today's exception, reported as
//    known debt (lint stays green) and failing once nothing uses it, so the table never lists a paid debt.
//  - DEVELOPERS.md's Layers table is generated from LAYERS (`node scripts/check-layers.mjs --write`), and every
//    folder and top-level file in the Layout table is a room and the other way round.
// Imports are read with Vite's parser (scripts/ast.mjs), not TypeScript 7's own API, which must start its compiler
// and load the whole program (8 s here) to give the same list.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSync, walk } from './ast.mjs';
import { workTreeFiles } from './work-tree.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What each room may import: rooms (a folder or a file row), one file of a room (`src/state/store.ts`), packages by
 * name, and files outside src/. `{ to, debt }` is known debt: an import allowed until the move `debt` names.
 */
export const LAYERS = {
  'src/limits.ts': [],
  'src/pure-globals.d.ts': [],
  'src/lib/': [],
  'src/lib/i18n.ts': ['webextension-polyfill', 'public/_locales/en/messages.json'],
  'src/lib/english-fallback.ts': ['src/lib/i18n.ts', 'public/_locales/en/messages.json'],
  'src/site/': [],
  'src/detector/': ['src/detector/patterns.ts', 'src/lib/', 'src/limits.ts'],
  'src/detector/patterns.ts': ['src/limits.ts', 're2js'],
  'src/state/': ['src/detector/', 'src/lib/', 'src/limits.ts', 'valibot', 'src/site/'],
  'src/state/store.ts': ['src/lib/', 'src/limits.ts', 'valibot', 'webextension-polyfill'],
  'src/state/tab-registry.ts': ['webextension-polyfill'],
  'src/colab/': ['src/site/', 'src/detector/', 'src/state/', 'src/lib/', 'src/limits.ts'],
  'src/messaging/': ['src/state/', 'src/state/store.ts', 'src/limits.ts', 'src/site/', 'valibot'],
  'src/ui/': [
    'src/messaging/',
    'src/state/',
    'src/state/store.ts',
    'src/detector/patterns.ts',
    'src/lib/',
    'src/lib/i18n.ts',
    'src/lib/english-fallback.ts',
    'src/limits.ts',
    'preact',
    'webextension-polyfill',
    'package.json',
  ],
  'src/page/': [
    'src/ui/',
    'src/messaging/',
    'src/colab/',
    'src/site/',
    'src/state/',
    'src/state/store.ts',
    'src/detector/',
    'src/lib/',
    'src/lib/i18n.ts',
    'src/limits.ts',
    'valibot',
    'webextension-polyfill',
  ],
  'src/frame/': [
    'src/messaging/',
    'src/colab/',
    'src/site/',
    'src/detector/',
    'src/lib/',
    'src/limits.ts',
    'webextension-polyfill',
  ],
  'src/background/': [
    'src/ui/',
    'src/messaging/',
    'src/state/',
    'src/state/store.ts',
    'src/state/tab-registry.ts',
    'src/site/',
    'src/detector/patterns.ts',
    'src/lib/',
    'src/lib/i18n.ts',
    'src/lib/english-fallback.ts',
    'src/limits.ts',
    'valibot',
    'webextension-polyfill',
  ],
  'src/popup/': [
    'src/ui/',
    'src/messaging/',
    'src/state/',
    'src/state/tab-registry.ts',
    'src/site/',
    'src/lib/i18n.ts',
    'src/limits.ts',
    'preact',
    'webextension-polyfill',
  ],
  'src/options/': [
    'src/ui/',
    'src/messaging/',
    'src/state/',
    'src/state/store.ts',
    'src/detector/',
    'src/detector/patterns.ts',
    'src/lib/',
    'src/lib/i18n.ts',
    'src/limits.ts',
    'preact',
    'webextension-polyfill',
  ],
  'src/welcome/': ['src/ui/', 'src/lib/i18n.ts', 'webextension-polyfill'],
};

const CODE = /\.(ts|tsx|mts|js|mjs)$/;
const TEST = /\.test\.(ts|tsx|mjs)$/;
const RESOLVE = ['', '.ts', '.tsx', '.d.ts', '.js', '.mjs', '/index.ts', '/index.tsx'];

const entryTarget = (entry) => (typeof entry === 'string' ? entry : entry.to);
const isPackage = (target) => !target.includes('/') || target.startsWith('@');
/** The folder a room is in (itself for a folder or a top-level file): what the cycle check compares. */
const folderOf = (room) =>
  room.endsWith('/') || path.posix.dirname(room) === 'src' ? room : `${path.posix.dirname(room)}/`;

/** The room a file of the repository is in: its own row, else the folder row it is under; undefined for none. */
export function roomOf(file, layers = LAYERS) {
  if (file in layers) return file;
  let best;
  for (const room of Object.keys(layers)) {
    if (room.endsWith('/') && file.startsWith(room) && (!best || room.length > best.length)) best = room;
  }
  return best;
}

/** A package's name from a bare specifier: `preact/hooks` is `preact`, `@scope/x/y` is `@scope/x`. */
export function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The module specifiers a file's code names, with whether each could be read (a computed `import()` cannot). */
export function importsOf(file, text) {
  const { program, errors } = parseSync(file, text);
  if (errors.length > 0) return { specifiers: [], unreadable: [`${file}: ${errors[0].message}`] };
  const specifiers = [];
  const unreadable = [];
  const take = (node, source) => {
    if (source?.type === 'Literal' && typeof source.value === 'string') specifiers.push(source.value);
    else {
      const line = text.slice(0, node.start).split('\n').length;
      unreadable.push(`${file}:${line}: an import whose module is computed cannot be checked`);
    }
  };
  walk(program, (node) => {
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'ImportExpression':
      case 'TSImportType':
        take(node, node.source);
        break;
      case 'ExportNamedDeclaration':
        if (node.source) take(node, node.source);
        break;
      case 'TSExternalModuleReference':
        take(node, node.expression);
        break;
      case 'CallExpression':
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') take(node, node.arguments[0]);
        break;
    }
  });
  return { specifiers, unreadable };
}

/** The repository file a relative specifier names (`exists` is given repository paths), else undefined. */
export function resolveImport(file, specifier, exists) {
  const base = path.posix.join(path.posix.dirname(file), specifier.replace(/\?.*$/, ''));
  return RESOLVE.map((suffix) => base + suffix).find((candidate) => exists(candidate));
}

/**
 * The layer check over `files` ({ path: text }, repository paths; non-code files need no text): problems that fail
 * lint, and the known debt in use.
 */
export function checkLayers(files, layers = LAYERS, exists = (f) => f in files) {
  const problems = tableProblems(layers);
  const used = new Map();
  const edges = [];
  for (const file of Object.keys(files).sort()) {
    const room = roomOf(file, layers);
    if (!room) {
      problems.push(`${file} is in no room: add its folder or file to LAYERS (scripts/check-layers.mjs)`);
      continue;
    }
    if (!CODE.test(file) || TEST.test(file)) continue;
    const { specifiers, unreadable } = importsOf(file, files[file]);
    problems.push(...unreadable);
    for (const specifier of specifiers) {
      const verdict = judgeImport(file, room, specifier, layers, exists);
      if (verdict.problem) problems.push(verdict.problem);
      const key = `${room}\0${verdict.entry}`;
      if (verdict.entry !== undefined) used.set(key, new Set([...(used.get(key) ?? []), file]));
      if (verdict.toRoom && folderOf(verdict.toRoom) !== folderOf(room)) edges.push([room, verdict.toRoom]);
    }
  }
  const debt = [];
  for (const [room, entries] of Object.entries(layers)) {
    for (const entry of entries) {
      if (typeof entry === 'string') continue;
      const users = used.get(`${room}\0${entry.to}`);
      if (!users)
        problems.push(`${room} → ${entry.to} is listed as debt but nothing imports it: remove it from LAYERS`);
      else debt.push({ from: room, to: entry.to, why: entry.debt, users: [...users] });
    }
  }
  return { problems, debt, cycles: folderCycles(edges.map(([from, to]) => [folderOf(from), folderOf(to)])) };
}

function judgeImport(file, room, specifier, layers, exists) {
  const allowed = layers[room].map(entryTarget);
  const explain = (what) =>
    `${file} imports '${specifier}' (${what}): ${room} may import ` +
    `${allowed.length > 0 ? `only ${allowed.join(', ')}` : 'nothing'} (DEVELOPERS.md, Layers)`;
  if (!specifier.startsWith('.')) {
    const name = packageName(specifier);
    return allowed.includes(name) ? { entry: name } : { problem: explain(`the package ${name}`) };
  }
  const target = resolveImport(file, specifier, exists);
  if (!target) return { problem: `${file} imports '${specifier}', which is no file of the repository` };
  const toRoom = roomOf(target, layers);
  if (toRoom === room || (toRoom && folderOf(room) === toRoom && !room.endsWith('/'))) return { toRoom };
  const entry = allowed.find((allow) => allow === target || allow === toRoom);
  if (entry === undefined) return { problem: explain(toRoom ? `in ${toRoom}` : `${target}, in no room`), toRoom };
  return { entry, toRoom };
}

/** The table's own mistakes: an entry naming no room, file or package, and a cycle its allowances make. */
export function tableProblems(layers) {
  const problems = [];
  const rooms = Object.keys(layers);
  for (const [room, entries] of Object.entries(layers)) {
    for (const target of entries.map(entryTarget)) {
      if (isPackage(target) || !target.startsWith('src/')) continue;
      if (!roomOf(target, layers)) problems.push(`LAYERS: ${room} lists ${target}, which is in no room`);
    }
  }
  const allowances = rooms.flatMap((room) =>
    layers[room]
      .filter((entry) => typeof entry === 'string' && entry.startsWith('src/'))
      .map((target) => [folderOf(room), folderOf(roomOf(target, layers) ?? target)]),
  );
  for (const cycle of folderCycles(allowances)) problems.push(`LAYERS: the allowances make a cycle: ${cycle}`);
  return problems;
}

/** The cycles between folders of a graph given as [from, to] pairs, each as "a → b → a". */
export function folderCycles(pairs) {
  const next = new Map();
  for (const [from, to] of pairs) {
    if (from === to) continue;
    if (!next.has(from)) next.set(from, new Set());
    next.get(from).add(to);
  }
  const cycles = new Set();
  const visit = (node, trail) => {
    const at = trail.indexOf(node);
    if (at >= 0) {
      const loop = trail.slice(at);
      const first = loop.indexOf([...loop].sort()[0]);
      const turned = [...loop.slice(first), ...loop.slice(0, first)];
      cycles.add([...turned, turned[0]].join(' → '));
      return;
    }
    for (const to of next.get(node) ?? []) visit(to, [...trail, node]);
  };
  for (const node of next.keys()) visit(node, []);
  return [...cycles].sort();
}

const LAYERS_START = '<!-- layers:start (generated by node scripts/check-layers.mjs --write) -->';
const LAYERS_END = '<!-- layers:end -->';

/** DEVELOPERS.md's Layers table, made from the allow-list. */
export function layersMarkdown(layers = LAYERS) {
  const short = (target) => (target.startsWith('src/') ? `\`${target.slice(4)}\`` : `\`${target}\``);
  const rows = Object.entries(layers).map(([room, entries]) => {
    const may = entries.filter((entry) => typeof entry === 'string').map(short);
    const debt = entries.filter((entry) => typeof entry !== 'string').map((entry) => short(entry.to));
    return `| ${short(room)} | ${may.join(', ') || 'nothing'} | ${debt.join(', ')} |`;
  });
  return [
    LAYERS_START,
    '| Room | May import | Known debt (allowed until it moves) |',
    '| --- | --- | --- |',
    ...rows,
    LAYERS_END,
  ].join('\n');
}

/** What DEVELOPERS.md says against the table: the generated Layers table, the Layout table's rooms. */
export function developersProblems(markdown, layers = LAYERS) {
  const problems = [];
  const start = markdown.indexOf(LAYERS_START);
  const end = markdown.indexOf(LAYERS_END);
  if (start < 0 || end < 0) problems.push('DEVELOPERS.md: no Layers table (node scripts/check-layers.mjs --write)');
  else if (markdown.slice(start, end + LAYERS_END.length) !== layersMarkdown(layers)) {
    problems.push('DEVELOPERS.md: the Layers table is not the allow-list: run node scripts/check-layers.mjs --write');
  }
  const layout = markdown.split('\n## Layout\n')[1]?.split('\n## ')[0] ?? '';
  const named = new Set(
    layout
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(src\/[^`]*)`/g)].map((match) => match[1])),
  );
  const mainRooms = Object.keys(layers).filter((room) => folderOf(room) === room);
  for (const room of mainRooms) if (!named.has(room)) problems.push(`DEVELOPERS.md: Layout has no row for \`${room}\``);
  for (const path of named) if (!(path in layers)) problems.push(`DEVELOPERS.md: Layout's \`${path}\` is no room`);
  return problems;
}

function repositoryFiles() {
  const files = workTreeFiles('src');
  return Object.fromEntries(
    files.map((file) => [file, CODE.test(file) ? readFileSync(path.join(root, file), 'utf8') : '']),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const developers = path.join(root, 'DEVELOPERS.md');
  if (process.argv.includes('--write')) {
    const markdown = readFileSync(developers, 'utf8');
    const pattern = new RegExp(`${LAYERS_START.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${LAYERS_END}`);
    writeFileSync(developers, markdown.replace(pattern, layersMarkdown()));
  }
  const files = repositoryFiles();
  const isFile = (file) =>
    file in files || (existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile());
  const { problems, debt, cycles } = checkLayers(files, LAYERS, isFile);
  problems.push(...developersProblems(readFileSync(developers, 'utf8')));
  for (const { from, to, why, users } of debt) console.log(`known debt: ${from} → ${to} (${users.join(', ')}): ${why}`);
  for (const cycle of cycles) console.log(`known debt: a cycle between folders, ${cycle}`);
  if (problems.length > 0) {
    console.error(`Layers:\n${problems.join('\n')}`);
    process.exit(1);
  }
}
