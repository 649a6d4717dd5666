import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const HELPER = readFileSync(resolve(import.meta.dirname, '../../python/colab_oom_guard.py'), 'utf8');

/**
 * The request script python/colab_oom_guard.py sends with `google.colab.output.eval_js` (between its BEGIN/END marks),
 * with its default timeout (2 s): the simulator runs it in the cell's output frame as Colab runs it.
 */
export function helperScript(): string {
  const script = /# BEGIN status request\n_REQUEST_JS = """([\s\S]*?)"""\n# END status request/.exec(HELPER)?.[1];
  if (!script) throw new Error('python/colab_oom_guard.py: no status request script between its BEGIN/END marks');
  return script.replace('__TIMEOUT_MS__', '2000');
}
