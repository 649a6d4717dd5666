/**
 * Turns one line of output into the places where a failure message may start ("candidates"). Rules match only at
 * those places, never at a substring anywhere: that is what keeps quoted messages in printed source code, logged and
 * recovered OOMs, and memory tables from matching.
 */

import { joinRegex } from '../lib/regex';

/** Which framework wrote a native (glog/absl) log line, when its source path says so. */
export type Family = 'tf' | 'xla';

export interface Candidate {
  /** Last segment of the exception class the line names (`torch.cuda.OutOfMemoryError` → `OutOfMemoryError`). */
  className: string | null;
  /** Message starts to test, outermost first: the message, then the same text with each known wrapper peeled off. */
  layers: string[];
  /** Inside an exception message or an error-level log line; a bare line of output is weaker evidence. */
  strong: boolean;
  /** A warning-level native log line: only rules made for warnings may match it. */
  warning: boolean;
  family: Family | null;
  /** Leading whitespace, tabs counted as 4. */
  indent: number;
}

/** Shapes that wrap a line without changing its meaning; stripped repeatedly from the line start. */
const PREFIXES: readonly RegExp[] = [
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?\s+/, // CI timestamps (GitHub Actions)
  /^\[(?:rank|default)?\d+\](?:<std(?:out|err)>)?:?\s*/, // torchrun `[rank0]: `, `[default0]:`, job numbers `[1] `
  /^\[\d+,\d+\]<std(?:out|err)>:\s*/, // mpirun / Horovod
  /^\((?:[\w.-]+ )?pid=\d+(?:, ip=[\d.]+)?\)\s*/, // Ray and vLLM worker processes
  /^FAILED\s+(?:\[[^\]]*\]\s+)?\S.*?\s+-\s+/, // pytest summary: `FAILED tests/x.py::t[a b] - `
  /^E {2,}/, // pytest failure detail
  /^Exception has occurred: /, // VS Code
  /^!!! Exception during processing ?!!!\s*/, // ComfyUI
  /^\[\s*\d+\.\d+\]\s*/, // dmesg
  /^\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\]\s*/, // dmesg -T
];
const MAX_PREFIXES = 4;

/**
 * glog/absl lines as TensorFlow, XLA and PyTorch's c10 write them: `2021-05-01 10:00:00.1: E tensorflow/x/y.cc:12]
 * msg`,
 * `E0118 12:00:00.123 4567 y.cc:12] msg`, `[E1104 10:11:12.345 ProcessGroupNCCL.cpp:1234] msg`, and absl-Python's
 * `E0118 12:00:00.123 4567 train.py:42] msg`. Not anchored: Keras
 * progress bars are often glued to the front of them.
 */
const NATIVE_LOG = /(?:^|\s|\[)([IWEF])(?:\d{4} [\d:.]+(?:\s+\d+)?)?\s+([^\s\]]+\.(?:cc|cpp|cu|c|h|py)):\d+\]\s?(.*)$/;

/**
 * Python logging shapes at ERROR level and above (loguru, vLLM, DeepSpeed, `logging` defaults, `ERROR:root:`).
 * WARNING and INFO lines are deliberately not read: a library that logs an OOM as a warning has recovered from it.
 */
// `[` only opens a bracket group: were it also a prefix character, every `[n]` could be read two ways, and a line
// of many such tokens would backtrack for hours on the page's main thread.
const ERROR_LOG =
  /^(?:[\d\s|/:.,TZ+-]|\[[\w.\s:,+-]*\])*(?:[\w.]+ - )?\[?(?:ERROR|CRITICAL|FATAL)\b\]?(?::[\w.]*:)?[\s|:-]*/;
const ERROR_LOG_SEARCH_CHARS = 160;

/** Where the embedded error text of a log message may start: after a label, a dash, a bracket or a sentence. */
const SEPARATOR = /: | - |\] |\| |\. /g;
const MAX_SEGMENTS = 12;

/** IPython's traceback header row: `OutOfMemoryError                          Traceback (most recent call last)`. */
const HEADER_ROW = /^((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s+Traceback \(most recent call last\)/;
/** The C++ runtime's last words before abort(), then the exception's `what():` line. */
const TERMINATE = /^terminate called after throwing an instance of '([\w:]+)'/;
const WHAT = /^what\(\):\s+(.*)$/;
/** PyTorch ≤0.4 prints this before raising `cuda runtime error (N) : ...`; it is read as that message. */
const THC_FAIL = /^THCudaCheck FAIL file=\S+ line=\d+ error=(\d+) : (.*)$/;
/** `[qualified.]ClassName: message`, `ClassName (see above for traceback): message`, or a bare `ClassName`. */
const EXCEPTION_LINE =
  /^((?:[A-Za-z_]\w*(?:\.|::))*[A-Za-z_]\w*)(?: \(see above for traceback\))?(?::(?:\s+(.*))?|\s*)$/;

/**
 * Wrappers that frameworks put in front of the real message: TF root-error numbering `(0) `, status prefixes
 * (`Resource exhausted: `, `RESOURCE_EXHAUSTED: `, `Bad StatusOr access: `), TF function-node tags, and a nested
 * exception class (`RuntimeError: torch.OutOfMemoryError: ...`).
 */
const WRAPPER = joinRegex(
  /^(?:\(\d+\)\s+|(?:Resource exhausted|RESOURCE_EXHAUSTED|Internal|INTERNAL|Bad StatusOr access):\s*)/,
  /|^(?:\{\{function_node [^}]*\}\}\s*|(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception):\s+)/,
);
const MAX_WRAPPERS = 6;

export function candidatesOf(line: string): Candidate[] {
  const rest = stripPrefixes(line);
  const indent = indentOf(rest);
  const text = rest.trimStart();
  const native = NATIVE_LOG.exec(text);
  if (native) return nativeLogCandidates(native[1] ?? '', native[2] ?? '', native[3] ?? '', indent);
  const errorLog = ERROR_LOG.exec(text.slice(0, ERROR_LOG_SEARCH_CHARS));
  if (!errorLog) return [messageCandidate(text, indent, false)];
  const segments = segmentsOf(text.slice(errorLog[0].length));
  return segments.map((segment) => messageCandidate(stripPrefixes(segment).trimStart(), indent, true));
}

function stripPrefixes(line: string): string {
  let rest = line;
  for (let i = 0; i < MAX_PREFIXES; i++) {
    const trimmed = rest.trimStart();
    const prefix = PREFIXES.map((re) => re.exec(trimmed)).find((m) => m !== null);
    if (!prefix) return rest;
    rest = trimmed.slice(prefix[0].length);
  }
  return rest;
}

function indentOf(line: string): number {
  let indent = 0;
  for (const ch of line) {
    if (ch === ' ') indent += 1;
    else if (ch === '\t') indent += 4;
    else break;
  }
  return indent;
}

/** INFO lines say nothing failed; WARNING lines are offered only to warning rules; ERROR/FATAL lines are errors. */
function nativeLogCandidates(level: string, path: string, message: string, indent: number): Candidate[] {
  if (level === 'I') return [];
  const warning = level === 'W';
  const layers = warning ? [message] : segmentsOf(message).flatMap(layersOf);
  return [{ className: null, layers, strong: true, warning, family: familyOf(path), indent }];
}

/**
 * JAX's runtime client (`xla/python`, `pjrt`) and jaxlib's own `xla`/`tsl` trees are JAX; TensorFlow's sources,
 * including its vendored `local_xla`/`local_tsl`, are TensorFlow. Newer absl logs print only a base name: unknown.
 */
function familyOf(path: string): Family | null {
  if (/xla\/python|pjrt|jax/.test(path)) return 'xla';
  if (/tensorflow|local_xla|local_tsl/.test(path)) return 'tf';
  return /(?:^|\/)(?:xla|tsl)\//.test(path) ? 'xla' : null;
}

function segmentsOf(message: string): string[] {
  const segments = [message];
  for (const m of message.matchAll(SEPARATOR)) {
    if (segments.length >= MAX_SEGMENTS) break;
    segments.push(message.slice(m.index + m[0].length).trimStart());
  }
  return segments;
}

function messageCandidate(text: string, indent: number, inErrorLog: boolean): Candidate {
  const base = { className: null, layers: [], strong: true, warning: false, family: null, indent };
  const header = HEADER_ROW.exec(text);
  if (header) return { ...base, className: lastSegment(header[1] ?? '') };
  const thrown = TERMINATE.exec(text);
  if (thrown) return { ...base, className: lastSegment(thrown[1] ?? '') };
  const what = WHAT.exec(text);
  if (what) return { ...base, layers: layersOf(what[1] ?? '') };
  const thc = THC_FAIL.exec(text);
  if (thc) return { ...base, layers: [`cuda runtime error (${thc[1]}) : ${thc[2]}`] };
  const exception = EXCEPTION_LINE.exec(text);
  const className = exception ? lastSegment(exception[1] ?? '') : '';
  if (exception && isExceptionName(className)) return { ...base, className, layers: layersOf(exception[2] ?? '') };
  return { ...base, layers: layersOf(text), strong: inErrorLog };
}

function lastSegment(qualified: string): string {
  return qualified.split(/\.|::/).pop() ?? qualified;
}

/**
 * Python exception classes end in Error or Exception by convention (JAX's wrapper in StackTrace); status words like
 * `OOM:` or `WARNING:` do not.
 */
function isExceptionName(name: string): boolean {
  return /(?:Error|Exception|StackTrace)$/.test(name);
}

function layersOf(message: string): string[] {
  const layers = [message];
  let rest = message;
  for (let i = 0; i < MAX_WRAPPERS; i++) {
    const wrapper = WRAPPER.exec(rest);
    if (!wrapper) break;
    rest = rest.slice(wrapper[0].length);
    layers.push(rest);
  }
  return layers;
}
