// The output frame page (https://<rand>-0-colab.googleusercontent.com/outputframe.html, cross-origin to the
// notebook, §4.2, fixture outputframe-body-samples.html):
//   div#output-area > span#output-header + div#output-body > div.<output_type>.output-id-N > div.output_subarea… > pre
//   + span#output-footer
// The parent feeds it by postMessage; only messages from window.parent on one of Colab's origins are accepted (the
// notebook app is served on several domains, §12.1: the frame learns which from the parent's first message).
// An output with `appendToBody` is HTML the notebook's own script puts at the end of <body>, outside #output-body
// (as `display(Javascript(...))` can): it is the notebook's content, not one of Colab's outputs.
// `eval` runs a script as `google.colab.output.eval_js` does: in this frame's own page context (the notebook's
// JavaScript), its value awaited and sent back. An output with `javascript` (`display(Javascript(...))`) runs its
// script the same way, nobody waiting, and shows nothing.
import { appendAnsi } from './ansi.js';

const COLAB_ORIGINS = [
  'https://colab.research.google.com',
  'https://colab.google.com',
  'https://colab.sandbox.google.com',
];
/** The parent's origin, once a message from it told it; until then messages go to each Colab origin (one receives). */
let parentOrigin = null;
const body = document.getElementById('output-body');
const pres = new Map(); // output id -> <pre>

window.addEventListener('message', (event) => {
  if (!COLAB_ORIGINS.includes(event.origin) || event.source !== window.parent) return;
  const op = event.data;
  if (op?.colabSim !== 1) return;
  parentOrigin = event.origin;
  if (op.op === 'add') add(op);
  else if (op.op === 'append') pres.get(op.id)?.append(op.text);
  else if (op.op === 'replace') {
    const pre = pres.get(op.id);
    if (pre) pre.textContent = op.text;
  } else if (op.op === 'eval') evaluate(op);
});

// biome-ignore lint/security/noGlobalEval: this models eval_js, which runs the notebook's script in its output frame
const globalEval = eval;

/** Runs the script in the global scope (eval under another name), as code the notebook sends; awaits a promise. */
function evaluate({ id, script }) {
  const post = (fields) => toParent({ colabSim: 1, op: 'eval-result', id, ...fields });
  const reply = (fields) => {
    try {
      post(fields);
    } catch (error) {
      post({ error: `the value cannot be sent back: ${error}` });
    }
  };
  Promise.resolve()
    .then(() => globalEval(script))
    .then(
      (result) => reply({ result }),
      (error) => reply({ error: String(error) }),
    );
}

function add(op) {
  if (op.javascript !== undefined) {
    Promise.resolve().then(() => globalEval(op.javascript));
    return;
  }
  if (op.appendToBody) {
    document.body.insertAdjacentHTML('beforeend', op.html);
    return;
  }
  const output = document.createElement('div');
  output.className = op.numbered ? `${op.outputType} output-id-${op.id}` : op.outputType;
  const subarea = document.createElement('div');
  if (op.html !== undefined) {
    subarea.className = 'output_subarea output_html rendered_html';
    subarea.innerHTML = op.html;
  } else {
    subarea.className =
      op.outputType === 'error' ? 'output_subarea output_text output_error' : 'output_subarea output_text';
    const pre = document.createElement('pre');
    if (op.ansi !== undefined) appendAnsi(pre, op.ansi);
    else pre.textContent = op.text ?? '';
    subarea.append(pre);
    pres.set(op.id, pre);
  }
  output.append(subarea);
  body.append(output);
}

// Report the content height so the parent can size the iframe, as Colab's frames do.
new ResizeObserver(() => {
  toParent({ colabSim: 1, op: 'height', px: document.documentElement.scrollHeight });
}).observe(document.body);

function toParent(message) {
  for (const origin of parentOrigin ? [parentOrigin] : COLAB_ORIGINS) window.parent.postMessage(message, origin);
}

toParent({ colabSim: 1, op: 'ready' });
