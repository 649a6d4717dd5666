import { MAX_TEXT_CHARS, MAX_USER_LINE_CHARS, MAX_USER_LINES, TEXT_LIMITS } from '../limits';

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

/** At most TEXT_LIMITS.verdictField characters, an ellipsis marking a cut. */
export function limit(text: string): string {
  return text.length <= TEXT_LIMITS.verdictField ? text : `${text.slice(0, TEXT_LIMITS.verdictField - 1)}…`;
}

/** The line as a verdict shows it: trimmed and at most TEXT_LIMITS.verdictField characters. */
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
