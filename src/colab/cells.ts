/** Reading cells and outputs (REFERENCE.md §4). */

import { tailOf } from '../detector/text';
import { MAX_TEXT_CHARS } from '../limits';
import { CELL, OUTPUT, OUTPUT_CORE } from './selectors';

/** 'stale-error': an error from an earlier kernel session (saved, shown again, or left by a restart, §11.4). */
export type RunState = 'idle' | 'pending' | 'running' | 'error' | 'stale-error';
/** Queued or running: an execution under way. */
export const isUnderWay = (state: RunState | undefined): boolean => state === 'pending' || state === 'running';
export type OutputKind = 'error' | 'stream' | 'other';

/** The cell element holding `node` (light DOM), or null. */
export function cellOf(node: Node): Element | null {
  const el = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
  return el?.closest(CELL.cell) ?? null;
}

export function isCell(el: Element): boolean {
  return el.id.startsWith(CELL.idPrefix) && el.matches(CELL.cell);
}

/** `id="cell-T2BNeFUZ1OGZ"` → "T2BNeFUZ1OGZ" (§4.1: also the #scrollTo= value and the nbformat cell id). */
export function cellId(cell: Element): string | null {
  const { id } = cell;
  return id.startsWith(CELL.idPrefix) ? id.slice(CELL.idPrefix.length) || null : null;
}

export function findCells(doc: Document): Element[] {
  return [...doc.querySelectorAll(CELL.cell)];
}

function runButtonOf(cell: Element): HTMLElement | null {
  return cell.querySelector<HTMLElement>(CELL.runButton);
}

/** A test of a class attribute (read once per element) for any of `names`, plain class names. */
function classTest(names: readonly string[] | string): (classes: string) => boolean {
  const re = new RegExp(`(?:^|\\s)(?:${[names].flat().join('|')})(?=\\s|$)`);
  return (classes) => re.test(classes);
}

// Made once: each `classList.contains` would be a call into the page from the content script's world.
const errorOutput = classTest(OUTPUT_CORE.errorClasses);
const streamOutput = classTest(OUTPUT_CORE.streamClasses);

/**
 * The run-state tests, made from the whole registry entry in one pure call: a bundle that never reads a run state
 * (the output-frame script, with its size target) keeps none of them, nor CELL. Property reads at the top level would
 * be kept.
 */
const RUN = /* @__PURE__ */ runStateTests(CELL);

function runStateTests(entry: typeof CELL) {
  return {
    running: classTest(entry.runningClasses),
    pending: classTest(entry.pendingClasses),
    error: classTest(entry.errorClasses),
    stale: classTest(entry.staleClasses),
    cellRunning: classTest(entry.cellRunning),
    cellPending: classTest(entry.cellPending),
    cellError: classTest(entry.cellError),
  };
}

const classesOf = (el: Element | null | undefined) => el?.getAttribute('class') ?? '';

/** What a state element's classes say alone: a state, or `unsettled` (with an `error` class or not) for the others. */
type ExecReading = RunState | 'unsettled' | 'unsettled-error';

function readExecClasses(state: string): ExecReading {
  if (RUN.running(state)) return 'running';
  if (RUN.pending(state)) return 'pending';
  const error = RUN.error(state);
  if (RUN.stale(state)) return error ? 'stale-error' : 'idle';
  return error ? 'unsettled-error' : 'unsettled';
}

/**
 * Readings by class string: a notebook's state elements show a handful of them, and a Run all reads one at every
 * change, where one lookup costs less than the regex tests. Bounded, in case a page shows endless variants.
 */
const execReadings = /* @__PURE__ */ new Map<string, ExecReading>();
const EXEC_READINGS_KEPT = 64;

function execReading(state: string): ExecReading {
  let reading = execReadings.get(state);
  if (reading !== undefined) return reading;
  reading = readExecClasses(state);
  if (execReadings.size >= EXEC_READINGS_KEPT) execReadings.clear();
  execReadings.set(state, reading);
  return reading;
}

/**
 * The cell's run state from every source REFERENCE lists (§4.1, #13, #14):
 * - the run button's shadow `div.cell-execution` classes (2024-08 →): `running`/`animating`, `pending`, `error`
 *   (`stale` alone = idle; `stale error` = an error of an earlier kernel session, never a fresh failure, §11.4);
 * - the run button's `title` before 2024-08: "queued" = pending, "executing"/"interrupt" = running;
 * - the cell's own classes (older): `running`, `pending`, `execution-error`.
 * Each era keeps its state in one of these and leaves the others absent, so the strongest state any source reports
 * wins: running > pending > error > idle (a cell starting to run may keep a stale `error` class for a moment).
 * `button`, `exec`: the cell's run button and its state element, when the caller has them already.
 */
export function cellRunState(
  cell: Element,
  button: Element | null = runButtonOf(cell),
  exec: Element | null | undefined = button?.shadowRoot?.querySelector(CELL.execution) ??
    button?.querySelector(CELL.execution),
): RunState {
  // The strongest states, and a settled one marked `stale` (the 2026 markup, §11.4), need no other source: most
  // changes of a Run all are read from one attribute.
  const reading = execReading(classesOf(exec));
  if (reading !== 'unsettled' && reading !== 'unsettled-error') return reading;
  const own = classesOf(cell);
  // Without a title (every run button since 2024-08) there is nothing to test.
  const title = button?.getAttribute('title');
  if (RUN.cellRunning(own) || (title && CELL.titleRunning.test(title))) return 'running';
  if (RUN.cellPending(own) || (title && CELL.titlePending.test(title))) return 'pending';
  return reading === 'unsettled-error' || RUN.cellError(own) ? 'error' : 'idle';
}

/** The cell's source as its editor shows it, or null when the editor shows no lines (not rendered yet). */
export function cellSource(cell: Element): string | null {
  // The outermost editor holds them all (Colab nests `.editor.monaco` in `.editor.lazy-editor`).
  const lines = cell.querySelector(CELL.editor)?.querySelectorAll(CELL.sourceLine) ?? [];
  if (lines.length === 0) return null;
  return [...lines].map((line) => (line.textContent ?? '').replaceAll('\u00a0', ' ')).join('\n');
}

/**
 * All the text of the cell's editor in one read, its lines run together (null without an editor): enough to tell
 * that a mark is absent from the source, not where a line starts.
 */
export function editorText(cell: Element): string | null {
  const editor = cell.querySelector(CELL.editor);
  return editor ? (editor.textContent ?? '') : null;
}

/** "[11]" → 11; "[ ]", "[*]" or no counter → null (§4.1). */
export function executionCount(cell: Element): number | null {
  const button = runButtonOf(cell);
  const el = button?.shadowRoot?.querySelector(CELL.executionCount) ?? cell.querySelector(CELL.executionCount);
  const m = /\[\s*(\d+)\s*\]/.exec(el?.textContent ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * The outermost output element (`div.stream.output-id-3`, `div.execute_result`, …) holding `node`, looking no
 * higher than `scope`: the nearest ancestor matching a selector (the static renderer), or an element (the frame's
 * #output-body); null when `node` is not inside an output under the scope. The outermost: whatever a `display_data`
 * holds (a copy of Colab's error markup) belongs to that output.
 */
export function outputElementOf(node: Node, scope: string | Element | null): Element | null {
  const start = node.nodeType === Node.ELEMENT_NODE ? (node as Element) : node.parentElement;
  // Most nodes that change are in no output at all: one native lookup says so, without a test at every ancestor.
  const bound = typeof scope === 'string' ? start?.closest(scope) : scope?.contains(start) && scope;
  if (!start || !bound) return null;
  let found: Element | null = null;
  for (let el: Element | null = start; el && el !== bound; el = el.parentElement) {
    if (el.matches(OUTPUT_CORE.element)) found = el;
  }
  return found;
}

/**
 * 'error' for an error output (its own class `error`/`output-error`/`output_error`), 'stream' for stdout/stderr
 * streams (stderr carries warnings and progress bars, so it is not an error by itself; only the user's marker patterns
 * read streams), 'other' for execute_result/display_data (§4.2), whatever they hold.
 */
export function outputKind(el: Element): OutputKind {
  const classes = classesOf(el);
  return errorOutput(classes) ? 'error' : streamOutput(classes) ? 'stream' : 'other';
}

/**
 * Colab's number of an output (`output-id-3`, §4.2: the 2026-03 capture's page stream, the frame samples' 1 to 5), or
 * null for one without (a frame sample's `display_data`).
 */
export function outputNumber(el: Element): number | null {
  const m = /(?:^|\s)output-id-(\d+)(?:\s|$)/.exec(classesOf(el));
  return m ? Number(m[1]) : null;
}

/**
 * The output's text, its last 64 KiB at most (what the detector reads): the OOM is near the end, but not always last
 * (a chained traceback can follow it). A line cut in half is dropped, so no rule sees a fragment.
 */
export function outputText(el: Element, maxChars = MAX_TEXT_CHARS): string {
  return tailOf(el.textContent ?? '', maxChars);
}

/** The output iframes in `cell`'s output area (§4.2, #16), in page order. */
export function outputFramesOf(cell: Element): HTMLIFrameElement[] {
  return [...cell.querySelectorAll<HTMLIFrameElement>(OUTPUT.frame)];
}

/**
 * The output iframe whose window sent a message (§4.3): a cross-origin frame cannot name its own element, so the
 * parent matches `event.source` against the contentWindow of the output iframes. Its cell: `cellOf`.
 */
export function outputFrameOfSource(doc: Document, source: MessageEventSource | null): HTMLIFrameElement | null {
  if (!source) return null;
  for (const frame of doc.querySelectorAll<HTMLIFrameElement>(OUTPUT.frame)) {
    if (frame.contentWindow === source) return frame;
  }
  return null;
}
