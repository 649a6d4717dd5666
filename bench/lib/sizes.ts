/**
 * What the extension ships into pages: each content script of dist/manifest.json (with the chunks it imports, if
 * any), and the popup (its HTML's scripts, their static imports, and its CSS). Raw bytes and gzip -9 bytes.
 * `breakdown` attributes the bytes of a minified script to its source modules from a sourcemap build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface SizeEntry {
  what: string;
  files: string[];
  raw: number;
  gzip: number;
}

const gz = (buf: Buffer) => gzipSync(buf, { level: 9 }).length;

const STATIC_IMPORT = /(?:\bimport\s*|\bfrom\s*)["']([^"']+\.js)["']/g;
/** crxjs's content-script loader imports its chunk by `chrome.runtime.getURL("assets/x.js")`, from the dist root. */
const LOADER_IMPORT = /\.getURL\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g;
const DYNAMIC_IMPORT = /\bimport\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g;

/** Files `file` imports by `re`, resolved against the dist root (root-relative for loaders). */
function importsOf(dist: string, file: string, re: RegExp): string[] {
  const code = readFileSync(join(dist, file), 'utf8');
  const found = new Set<string>();
  for (const m of code.matchAll(re)) {
    const spec = m[1]!;
    const target =
      re === LOADER_IMPORT || spec.startsWith('/') ? spec.replace(/^\//, '') : normalize(join(dirname(file), spec));
    if (existsSync(join(dist, target))) found.add(target);
  }
  return [...found];
}

/** `roots` with everything they load at once (static imports, and a loader's chunk), minus `exclude`. */
function closure(dist: string, roots: string[], exclude: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f) || exclude.has(f)) return;
    seen.add(f);
    if (!f.endsWith('.js')) return;
    for (const dep of [...importsOf(dist, f, STATIC_IMPORT), ...importsOf(dist, f, LOADER_IMPORT)]) visit(dep);
  };
  roots.forEach(visit);
  return [...seen];
}

function entry(dist: string, what: string, files: string[]): SizeEntry {
  const bufs = files.map((f) => readFileSync(join(dist, f)));
  // gzip of the concatenation: what a user downloads is the package, but per page these are read together.
  return { what, files, raw: bufs.reduce((a, b) => a + b.length, 0), gzip: gz(Buffer.concat(bufs)) };
}

export function measureSizes(dist: string): SizeEntry[] {
  const manifest = JSON.parse(readFileSync(join(dist, 'manifest.json'), 'utf8'));
  const out: SizeEntry[] = [];
  for (const cs of manifest.content_scripts as Array<{
    js?: string[];
    css?: string[];
    matches: string[];
    all_frames?: boolean;
  }>) {
    const files = closure(dist, [...(cs.js ?? []), ...(cs.css ?? [])]);
    const top = cs.matches.some((m) => m.includes('colab.research.google.com'));
    out.push(entry(dist, top ? 'content script: Colab page (top frame)' : 'content script: output frames', files));
    // What the page script imports later (the guard, on notebooks where it is switched on), beyond what it has.
    const lazy = files.flatMap((f) => (f.endsWith('.js') ? importsOf(dist, f, DYNAMIC_IMPORT) : []));
    if (!lazy.length) continue;
    const guard = closure(dist, lazy, new Set(files));
    out.push(entry(dist, 'lazy: the guard, imported when switched on', guard));
    // What the guard imports later still: the engine for users' patterns, only where there are patterns.
    const engine = guard.flatMap((f) => (f.endsWith('.js') ? importsOf(dist, f, DYNAMIC_IMPORT) : []));
    const loaded = new Set([...files, ...guard]);
    if (engine.length)
      out.push(
        entry(dist, 'lazy: the pattern engine, imported where there are patterns', closure(dist, engine, loaded)),
      );
  }
  const popupHtml = manifest.action?.default_popup as string | undefined;
  if (popupHtml) {
    const html = readFileSync(join(dist, popupHtml), 'utf8');
    const refs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\bhref)="([^"]+)"/g)].map((m) => m[1]!);
    const local = refs
      .map((r) => (r.startsWith('/') ? r.slice(1) : normalize(join(dirname(popupHtml), r))))
      .filter((f) => existsSync(join(dist, f)));
    out.push(entry(dist, 'popup (html + scripts + css)', [popupHtml, ...closure(dist, local)]));
  }
  return out;
}

// --- sourcemap breakdown -------------------------------------------------------------------------------------

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

/** Decodes one `mappings` line into segments [generatedColumn, sourceIndex?] (state carries the relative fields). */
function decodeLine(
  line: string,
  state: { source: number; line?: number; column?: number; name?: number },
  full?: Array<[number, number, number, number, number | null]>,
): Array<[number, number | null]> {
  const segments: Array<[number, number | null]> = [];
  let column = 0;
  for (const seg of line.split(',')) {
    if (!seg) continue;
    const values: number[] = [];
    let shift = 0;
    let value = 0;
    for (const ch of seg) {
      const digit = B64_INDEX.get(ch)!;
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        values.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    column += values[0] ?? 0;
    if (values.length >= 4) {
      state.source += values[1]!;
      state.line = (state.line ?? 0) + values[2]!;
      state.column = (state.column ?? 0) + values[3]!;
      if (values.length >= 5) state.name = (state.name ?? 0) + values[4]!;
      segments.push([column, state.source]);
      full?.push([column, state.source, state.line, state.column, values.length >= 5 ? state.name! : null]);
    } else segments.push([column, null]);
  }
  return segments;
}

export interface ModuleShare {
  module: string;
  bytes: number;
}

/** Bytes of `file` (minified) per source module, from `file.map`; sources are shown relative to the repo. */
export function breakdown(distMap: string, file: string): ModuleShare[] {
  const code = readFileSync(join(distMap, file), 'utf8');
  const map = JSON.parse(readFileSync(join(distMap, `${file}.map`), 'utf8')) as {
    sources: string[];
    sourceRoot?: string;
    mappings: string;
  };
  // Sources are relative paths whose depth depends on the outDir the plugin assumed: anchor them on src/ or
  // node_modules/.
  const names = map.sources.map((s) => {
    const path = normalize(s.replace(/^\0/, ''));
    const pkg = path.match(/(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    if (pkg) return `${pkg[1]} (package)`;
    const src = path.match(/(?:^|\/)(src\/.*)$/);
    return src ? src[1]! : path.replace(/^(\.\.\/)+/, '');
  });
  const totals = new Map<string, number>();
  const add = (k: string, n: number) => n > 0 && totals.set(k, (totals.get(k) ?? 0) + n);
  const lines = code.split('\n');
  const mappingLines = map.mappings.split(';');
  const state = { source: 0 };
  for (const [i, text] of lines.entries()) {
    const bytesOf = (from: number, to: number) => Buffer.byteLength(text.slice(from, to));
    const segments = decodeLine(mappingLines[i] ?? '', state);
    if (!segments.length) {
      add('(unmapped)', bytesOf(0, text.length) + 1);
      continue;
    }
    add('(unmapped)', bytesOf(0, segments[0]![0]));
    segments.forEach(([col, src], j) => {
      const end = segments[j + 1]?.[0] ?? text.length;
      add(src === null ? '(unmapped)' : (names[src] ?? '(unknown)'), bytesOf(col, end));
    });
    add('(unmapped)', 1); // newline
  }
  return [...totals].map(([module, bytes]) => ({ module, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/** Groups module shares by directory (src/colab, src/detector, …) or package. */
export function byGroup(shares: ModuleShare[]): ModuleShare[] {
  return sumBy(shares, (module) =>
    module.endsWith('(package)')
      ? module
      : module.startsWith('src/')
        ? module.split('/').slice(0, 2).join('/')
        : module,
  );
}

/** Shares of several files (the chunks of one content script) added up per module. */
export function mergeShares(shares: ModuleShare[]): ModuleShare[] {
  return sumBy(shares, (module) => module);
}

function sumBy(shares: ModuleShare[], key: (module: string) => string): ModuleShare[] {
  const totals = new Map<string, number>();
  for (const { module, bytes } of shares) totals.set(key(module), (totals.get(key(module)) ?? 0) + bytes);
  return [...totals].map(([module, bytes]) => ({ module, bytes })).sort((a, b) => b.bytes - a.bytes);
}

/**
 * Resolves positions in a minified script (as a CPU profile reports them: 0-based line and column of a function) to
 * `source:line (name)` with the sourcemap build, which has the same minified code (checked: null if it differs).
 */
export function positionResolver(
  dist: string,
  distMap: string,
  file: string,
): ((line: number, column: number) => string) | null {
  const strip = (code: string) => code.replace(/\n?\/\/# sourceMappingURL=.*\s*$/, '').trimEnd();
  if (!existsSync(join(distMap, `${file}.map`)) || !existsSync(join(dist, file))) return null;
  if (strip(readFileSync(join(dist, file), 'utf8')) !== strip(readFileSync(join(distMap, file), 'utf8'))) return null;
  const map = JSON.parse(readFileSync(join(distMap, `${file}.map`), 'utf8')) as {
    sources: string[];
    names?: string[];
    mappings: string;
  };
  const state = { source: 0, line: 0, column: 0, name: 0 };
  const lines = map.mappings.split(';').map((l) => {
    const full: Array<[number, number, number, number, number | null]> = [];
    decodeLine(l, state, full);
    return full;
  });
  const shortSource = (s: string) => {
    const path = normalize(s.replace(/^\0/, ''));
    return path.match(/(?:^|\/)(src\/.*)$/)?.[1] ?? path.match(/(?:^|\/)node_modules\/(.*)$/)?.[1] ?? path;
  };
  return (line, column) => {
    const segs = lines[line] ?? [];
    let best: (typeof segs)[number] | undefined;
    for (const seg of segs) if (seg[0] <= column) best = seg;
    if (!best) return `?:${line + 1}:${column + 1}`;
    // A function's start maps to its name or keyword; the next mapped name on the line usually is the function's.
    const named = best[4] ?? segs.find((seg) => seg[0] >= column && seg[4] !== null)?.[4] ?? null;
    const name = named !== null ? map.names?.[named] : undefined;
    return `${shortSource(map.sources[best[1]] ?? '?')}:${best[2] + 1}${name ? ` (${name})` : ''}`;
  };
}
