// ANSI SGR escapes -> <span class="ansi-…">, the way Jupyter renders tracebacks (`ansi-red-fg`, `ansi-bold`, …).
// Shared by the main document and the output frame (§4.2: tracebacks are <pre> with ANSI-coloured spans).

const COLORS = ['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'];

/** Appends the rendering of `text` to `parent` (a <pre>). */
export function appendAnsi(parent, text) {
  const doc = parent.ownerDocument;
  let fg = null;
  let bold = false;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
  const parts = text.split(/\u001b\[([0-9;]*)m/);
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      ({ fg, bold } = applySgr(part, fg, bold));
      return;
    }
    if (!part) return;
    if (!fg && !bold) {
      parent.append(doc.createTextNode(part));
      return;
    }
    const span = doc.createElement('span');
    span.className = [fg && `ansi-${fg}-fg`, bold && 'ansi-bold'].filter(Boolean).join(' ');
    span.textContent = part;
    parent.append(span);
  });
}

function applySgr(params, fg, bold) {
  const codes = params === '' ? [0] : params.split(';').map(Number);
  for (const code of codes) {
    if (code === 0) {
      fg = null;
      bold = false;
    } else if (code === 1) bold = true;
    else if (code === 22) bold = false;
    else if (code >= 30 && code <= 37) fg = COLORS[code - 30];
    else if (code >= 90 && code <= 97) fg = `${COLORS[code - 90]}-intense`;
    else if (code === 39) fg = null;
  }
  return { fg, bold };
}

/** Jupyter's fixCarriageReturn: a `\r` (not followed by `\n`) rewrites the current line, as tqdm expects. */
export function fixCarriageReturn(text) {
  return text
    .replace(/\r+\n/g, '\n')
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1))
    .join('\n');
}
