/**
 * Work bounds. Classification reads only the last 64 KiB (65,536 UTF-16 code units) of a text: tracebacks can be
 * megabytes long, but the failure is in their last lines, and a bound keeps a huge output from freezing the page.
 */
export const MAX_TEXT_CHARS = 64 * 1024;
/** User patterns see at most this many lines (the newest), each cut to MAX_USER_LINE_CHARS: no pattern runs long. */
export const MAX_USER_LINES = 2000;
export const MAX_USER_LINE_CHARS = 1000;
/** Built-in rules only look at the start of a line: every message they know starts near the line start. */
export const MAX_RULE_LINE_CHARS = 4096;
/** Every verdict field fits the stored record's 300-character limit, even with a long user pattern in it. */
const MAX_VERDICT_FIELD_CHARS = 300;

/** The last `maxChars` of `text`, without the line the cut went through. */
export function tailOf(text: string, maxChars = MAX_TEXT_CHARS): string {
  if (text.length <= maxChars) return text;
  const tail = text.slice(-maxChars);
  const firstBreak = tail.search(/[\r\n]/);
  // A cut-off line could match a rule that the whole line would not.
  return firstBreak < 0 ? tail : tail.slice(firstBreak + 1);
}

/** `\r` counts as a line break too: progress bars redraw with it, and each redraw is its own line. */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * Colour codes: real escape sequences (CSI and OSC, e.g. rich's hyperlinks), their escaped spellings in JSON/ipynb
 * text, and orphaned SGR codes like `[0;31m` that remain when a copy lost the ESC byte.
 */
const ANSI =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with ESC, and OSC ends with BEL
  /(?:\x1b|\\x1b|\\u001b|\\033)\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\[[0-9;]{1,20}m/g;

export function stripAnsi(line: string): string {
  return line.replace(ANSI, '');
}

/** At most 300 characters, an ellipsis marking a cut. */
export function limit(text: string): string {
  return text.length <= MAX_VERDICT_FIELD_CHARS ? text : `${text.slice(0, MAX_VERDICT_FIELD_CHARS - 1)}…`;
}

/** The line as a verdict shows it: trimmed and at most 300 characters. */
export function clip(line: string): string {
  return limit(line.trim());
}

const LF = 10;
const CR = 13;

/**
 * Calls `test` on the newest MAX_USER_LINES lines of the bounded text, newest first, each cut to MAX_USER_LINE_CHARS
 * and without colour codes; returns the first line it accepts. One backward pass and no array of lines, because marker
 * patterns run on every chunk of streaming output.
 */
export function findRecentLine(text: string, test: (line: string) => boolean): string | null {
  const bounded = tailOf(text);
  let end = bounded.length;
  for (let count = 0; count < MAX_USER_LINES && end >= 0; count++) {
    let start = end;
    while (start > 0 && !isBreak(bounded.charCodeAt(start - 1))) start--;
    const line = stripAnsi(bounded.slice(start, Math.min(end, start + MAX_USER_LINE_CHARS)));
    if (test(line)) return line;
    // Step over the break; a CRLF pair is one break.
    end = start - 1;
    if (end > 0 && bounded.charCodeAt(end) === LF && bounded.charCodeAt(end - 1) === CR) end--;
  }
  return null;
}

function isBreak(code: number): boolean {
  return code === LF || code === CR;
}
