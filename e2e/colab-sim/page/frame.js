// The output frame page (https://<rand>-0-colab.googleusercontent.com/outputframe.html, cross-origin to the
// notebook, §4.2, fixture outputframe-body-samples.html):
//   div#output-area > span#output-header + div#output-body > div.<output_type>.output-id-N > div.output_subarea… > pre
//   + span#output-footer
// The parent feeds it by postMessage; only messages from the Colab origin and from window.parent are accepted.
// An output with `appendToBody` is HTML the notebook's own script puts at the end of <body>, outside #output-body
// (as `display(Javascript(...))` can): it is the notebook's content, not one of Colab's outputs.
// `eval` runs a script as `google.colab.output.eval_js` does: in this frame's own page context (the notebook's
// JavaScript), its value awaited and sent back.
import { appendAnsi } from './ansi.js';

const COLAB_ORIGIN = 'https://colab.research.google.com';
const body = document.getElementById('output-body');
const pres = new Map(); // output id -> <pre>

window.addEventListener('message', (event) => {
  if (event.origin !== COLAB_ORIGIN || event.source !== window.parent) return;
  const op = event.data;
  if (op?.colabSim !== 1) return;
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
  const post = (fields) => window.parent.postMessage({ colabSim: 1, op: 'eval-result', id, ...fields }, COLAB_ORIGIN);
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
  if (op.appendToBody) {
    document.body.insertAdjacentHTML('beforeend', op.html);
    return;
  }
  const output = document.createElement('div');
  output.className = `${op.outputType} output-id-${op.id}`;
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
  window.parent.postMessage({ colabSim: 1, op: 'height', px: document.documentElement.scrollHeight }, COLAB_ORIGIN);
}).observe(document.body);

window.parent.postMessage({ colabSim: 1, op: 'ready' }, COLAB_ORIGIN);
