/**
 * Every bound on text and counts, in one place. The detector cuts to these, pages cut what they send to these,
 * messages are validated against them, and the storage schema stores them: a mismatch between two of those once
 * left a restart hanging (a result refused for a text longer than the store takes), so nobody writes a number of
 * their own.
 */

/** Output text the detector reads: the last 64 KiB (UTF-16 code units) of an output. Tracebacks can be megabytes. */
export const MAX_TEXT_CHARS = 64 * 1024;
/** User patterns see at most this many lines (the newest), each cut to MAX_USER_LINE_CHARS: no pattern runs long. */
export const MAX_USER_LINES = 2000;
export const MAX_USER_LINE_CHARS = 1000;
/** Built-in rules only look at the start of a line: every message they know starts near the line start. */
export const MAX_RULE_LINE_CHARS = 4096;
/**
 * The end of a shell-launched process's stream output that is read when its cell's execution ends (16 KiB): the
 * launcher's own epilogue (accelerate's traceback, torchrun's failure box, DeepSpeed's exit line: up to about 6 KiB in
 * rich-formatted form) plus the final exception and the frames above it.
 */
export const MAX_SHELL_TAIL_CHARS = 16 * 1024;
/**
 * An output frame asked for the end of its stream output answers once nothing in it has changed for
 * STREAM_TAIL_QUIET_MS, at the latest STREAM_TAIL_MAX_WAIT_MS after the request: a frame created as its cell stopped
 * may still be receiving the cell's last outputs. Both well inside the time the page takes late outputs (10 s).
 */
export const STREAM_TAIL_QUIET_MS = 250;
export const STREAM_TAIL_MAX_WAIT_MS = 2_000;
/**
 * An output frame delivers what Colab held for it while it loaded all at once, when it starts to show outputs (the
 * page's messages, a first output): an output arriving this long after that arrived as it came, the time it was seen.
 */
export const FRAME_SETTLED_MS = 1_000;
/** How many of a place's outputs (the newest) have their numbers told, with their count: what orders places. */
export const MAX_ORDER_IDS = 200;

/** The longest text of each kind that is sent between contexts and stored. */
export const TEXT_LIMITS = {
  /** A verdict's rule id and description, and the matched line as the detector quotes it. */
  verdictField: 300,
  /** A line as stored: a verdict's line, a marker's or a disconnect dialog's line. */
  line: 2000,
  /** The name of a failed UI step. */
  uiStep: 100,
  /** What a failed step saw, a history entry's detail. */
  detail: 1000,
  /** A storage problem's message. */
  problem: 2000,
  /** A notebook's title. */
  title: 500,
  /** A Colab dialog's text quoted in a report. */
  dialog: 300,
} as const;

/**
 * A capture of Colab's page (state/page-capture.ts): at most `nodes` elements, `depth` levels deep, a label or an
 * attribute's value cut to `text` and `attribute`; a page keeps its last `captures`, `totalChars` of JSON at most.
 */
export const CAPTURE_LIMITS = {
  nodes: 300,
  depth: 24,
  text: 80,
  attribute: 200,
  captures: 8,
  totalChars: 64 * 1024,
} as const;

/** The longest page address a page's hello may carry (a `#fileId=` address holds a whole URL). */
export const MAX_URL_CHARS = 8192;
/** Notebook keys longer than this are no keys (storage keys stay small). */
export const NOTEBOOK_KEY_MAX_LENGTH = 2048;
/** How many history entries a notebook record keeps, and storage problems the problem list keeps. */
export const HISTORY_LIMIT = 200;
export const PROBLEMS_LIMIT = 50;
/** At most this many custom patterns of each kind, each at most this long. */
export const MAX_PATTERNS = 100;
export const MAX_PATTERN_CHARS = 500;
/**
 * The largest compiled user pattern, in RE2 instructions. Matching is linear in the text but also grows with the
 * program: near 600 instructions a repeat of a large class (`\p{L}{600}`) overflows RE2's DFA cache and one 64 KiB
 * output took seconds; at 400 the worst form measured took about 0.2 s.
 */
export const MAX_PATTERN_PROGRAM = 400;
/**
 * The largest import file accepted. The options page compares the file's size in bytes with it before reading it (a
 * file of n bytes decodes to at most n characters), and the message schema its length in characters.
 */
export const IMPORT_MAX_CHARS = 20_000_000;
/** At most this many notebooks in an import file. */
export const IMPORT_MAX_NOTEBOOKS = 1000;
/** History entries older than this, and notebook records switched off and untouched for this long, are removed. */
export const RETENTION_DAYS = 90;
/** How many failed storage writes the worker keeps for the popup and the options page to show. */
export const STORAGE_ERRORS_LIMIT = 20;

/**
 * A runtime busy this long with no cell seen running means the guard may not see the cells: the page
 * says so, the badge and the popup show it.
 */
export const BLIND_AFTER_MS = 2 * 60_000;
/**
 * The connect button is watched only once no cell has been seen running for this long: it changes at every cell of a
 * Run all, whose gaps between cells are shorter. A change in the first moments of a stretch is counted from its start.
 */
export const KERNEL_WATCH_AFTER_MS = 1000;

/** Cuts `text` to `max` characters (no marker): what every sender does before a receiver checks the length. */
export function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}
