/** A string or template literal of a source file (each part of a template between its `${…}`), and its line. */
export interface Literal {
  text: string;
  line: number;
}

/** After these, a `/` starts a regular expression, not a division. */
const REGEX_AFTER = new Set([
  '',
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
]);

/**
 * The literals of a TypeScript source, by a small scanner: comments and regular expressions are skipped, so that
 * a sentence in a comment or a pattern that reads one is not counted (TypeScript 7 has no JavaScript API to ask).
 */
export function literals(source: string): Literal[] {
  const found: Literal[] = [];
  let i = 0;
  let line = 1;
  let last = '';
  const advance = () => {
    if (source[i] === '\n') line++;
    i++;
  };
  const read = (quote: string) => {
    let text = '';
    let start = line;
    i++;
    while (i < source.length && source[i] !== quote) {
      if (source[i] === '\\') {
        text += source[i + 1];
        i += 2;
      } else if (quote === '`' && source.startsWith('${', i)) {
        found.push({ text, line: start });
        skipExpression();
        text = '';
        start = line;
      } else {
        text += source[i];
        advance();
      }
    }
    i++;
    found.push({ text, line: start });
  };
  const skipExpression = () => {
    let depth = 1;
    i += 2;
    while (i < source.length && depth > 0) {
      const c = source[i];
      if (c === "'" || c === '"' || c === '`') read(c);
      else {
        if (c === '{') depth++;
        if (c === '}') depth--;
        advance();
      }
    }
  };
  const skipRegex = () => {
    let inClass = false;
    i++;
    while (i < source.length && (inClass || source[i] !== '/')) {
      if (source[i] === '\\') i++;
      else if (source[i] === '[') inClass = true;
      else if (source[i] === ']') inClass = false;
      i++;
    }
    i++;
  };
  while (i < source.length) {
    const c = source[i];
    if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (source.startsWith('/*', i)) {
      while (i < source.length && !source.startsWith('*/', i)) advance();
      i += 2;
    } else if (c === "'" || c === '"' || c === '`') {
      read(c);
      last = 'x';
    } else if (c === '/' && (REGEX_AFTER.has(last) || /\breturn\s*$/.test(source.slice(Math.max(0, i - 10), i)))) {
      skipRegex();
      last = 'x';
    } else {
      if (!/\s/.test(c ?? '')) last = c ?? '';
      advance();
    }
  }
  return found;
}
