/**
 * Which cells launch a program that could be training: the one list. Only such a cell's stream output is read for how
 * its program died (shell-tail.ts). A cell that reads a log (`!tail -n 40 train.log`, `!cat nohup.out`, `%%bash` with
 * `grep`) prints old text, and an old out-of-memory traceback at its end is no failure of this run.
 *
 * Launchers, with their evidence (test/fixtures/oom-corpus/launcher-tails.jsonl, REFERENCE §12.8):
 * - `python`/`python3` running a script or a module (`-m`, pip and the standard library's own tools aside): shell-003,
 *   shell-005, shell-006; `{sys.executable}` (`sys.executable` in a list) counts as python;
 * - `torchrun`, `accelerate launch`, `deepspeed`: shell-001, shell-004, and the launchers' own failure output
 *   (shell-tail.ts);
 * - `autotrain … --train` or `--config`: its LLM notebook's child died with SIGKILL (autotrain-advanced#456);
 * - `bash`/`sh` running a script file, `./binary`: shell-002 (`!./darknet detector train`);
 * - `%%bash`, `%%sh`, `%%shell` and `%%script <shell>` bodies holding such a line: shell-neg-005's cell;
 * - `subprocess.run/call/check_call/check_output/Popen`, `os.system`, `os.popen`, `get_ipython().system` whose
 *   command is a literal (a string, or a list of strings and `sys.executable`).
 * Nothing else is: `tail`, `cat`, `less`, `head`, `grep`, `awk`, `sed`, `echo`, `ls`, `nvidia-smi`, `pip`, `wget`,
 * `curl`, `git`, and any command the detector cannot read (a command in a variable).
 */

/**
 * What every launching source contains, whatever separates its lines (none, in an editor's whole text): a text
 * without it launches nothing.
 */
export const LAUNCH_HINT = /[!%]|subprocess\.|\.(?:system|popen)\(/;

/** Cell magics that run their body as a shell script (`%%shell` is Colab's own). */
const SHELL_MAGIC = /^%%(?:bash|sh|shell|script\s+(?:\S*\/)?(?:ba|da|z)?sh)(?:\s|$)/;
/** Cell magics that run their body as the notebook's own code. */
const CODE_MAGIC = /^%%(?:capture|time|timeit|prun)(?:\s|$)/;
/** IPython's shell escapes: `!cmd`, `!!cmd`, `files = !cmd`, `%sx cmd`, `%system cmd`. */
const SHELL_ESCAPE = /^\s*(?:(?:[\w.,\s]+=\s*)?!+|%(?:sx|system)\s)(.*)$/;
/** Python's own process calls, up to their opening parenthesis. */
const PROCESS_CALL = new RegExp(
  '\\b(?:subprocess\\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)|os\\.(?:system|popen)|' +
    'get_ipython\\(\\)\\.(?:system|getoutput))\\s*\\(',
  'g',
);

const PYTHON = /^python(?:\d+(?:\.\d+)*)?$/;
/** Modules that `python -m` runs which train nothing: installers and the standard library's tools. */
const NOT_TRAINING_MODULES = /^(?:pip|ensurepip|venv|virtualenv|http\.server|json\.tool|site|pydoc)$/;
const SHELLS = /^(?:ba|da|z)?sh$/;
/** Words before the program that only change how it runs: shell keywords, wrappers, their options and values. */
const PREFIX_WORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{', 'nohup']);
/** Commands that run the rest of the line, after their own options (`time -p`, `nice -n 10`, `timeout 3600`). */
const WRAPPERS = new Set(['exec', 'sudo', 'env', 'nice', 'timeout', 'stdbuf', 'unbuffer', 'command', 'time']);
const ASSIGNMENT = /^[A-Za-z_]\w*=/;
const OPTION_VALUE = /^[\d.]+[smhd]?$/;
/** A redirection word (`>`, `2>&1`, `>>log.txt`, `&>log`); alone, its target is the next word. */
const REDIRECTION = /^(?:\d*|&)(?:>>?|<<?)&?/;

/** Whether the cell whose source this is launches a program that could be training. */
export function launchesProgram(source: string): boolean {
  const lines = joinContinued(source.split('\n'));
  const first = lines.findIndex((line) => line.trim() !== '');
  const magic = lines[first]?.trim() ?? '';
  if (magic.startsWith('%%')) {
    if (SHELL_MAGIC.test(magic)) return lines.slice(first + 1).some(launchesLine);
    if (!CODE_MAGIC.test(magic)) return false;
  }
  const code = magic.startsWith('%%') ? lines.slice(first + 1) : lines;
  return code.some(escapeLaunches) || processCallLaunches(code.join('\n'));
}

/** A line ending in a backslash goes on on the next one (a long `!accelerate launch \` command). */
function joinContinued(lines: readonly string[]): string[] {
  const joined: string[] = [];
  let pending = '';
  for (const line of lines) {
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    joined.push(pending + line);
    pending = '';
  }
  if (pending) joined.push(pending);
  return joined;
}

function escapeLaunches(line: string): boolean {
  const command = SHELL_ESCAPE.exec(line)?.[1];
  return command !== undefined && launchesLine(command);
}

function processCallLaunches(code: string): boolean {
  for (const call of code.matchAll(PROCESS_CALL)) {
    const command = literalCommand(code, call.index + call[0].length);
    if (typeof command === 'string' ? launchesLine(command) : command && launchesWords(command)) return true;
  }
  return false;
}

/**
 * A command line: any of its simple commands (`cd x && python train.py | tee log`) that launches. `bash -c "…"` nests,
 * each level a shorter text, so the recursion ends.
 */
function launchesLine(line: string): boolean {
  return simpleCommands(line).some(launchesWords);
}

/**
 * The simple commands of a shell line, each as its words (quotes removed, redirections dropped): split at `;`, `&`,
 * `&&`, `|`, `||` and parentheses; a comment ends the line.
 */
function simpleCommands(line: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  let quote = '';
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = () => {
    endWord();
    if (words.length) commands.push(withoutRedirections(words));
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (quote) {
      if (c === quote) quote = '';
      else word += c === '\\' && quote === '"' ? (line[++i] ?? '') : c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(c)) {
      endWord();
    } else if (c === '#' && word === null) {
      break;
    } else if (';&|()'.includes(c) && !(c === '&' && (line[i - 1] === '>' || line[i + 1] === '>'))) {
      endCommand();
    } else {
      word = (word ?? '') + c;
    }
  }
  endCommand();
  return commands;
}

function withoutRedirections(words: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const redirection = REDIRECTION.exec(words[i] ?? '');
    if (!redirection) kept.push(words[i] ?? '');
    else if (redirection[0] === words[i]) i++;
  }
  return kept;
}

/** One simple command as its words: the program after any prefixes, judged with its arguments. */
function launchesWords(words: readonly string[]): boolean {
  let i = 0;
  for (let wrapped = false; i < words.length; i++) {
    const word = words[i] ?? '';
    if (PREFIX_WORDS.has(word) || ASSIGNMENT.test(word)) continue;
    if (WRAPPERS.has(word)) wrapped = true;
    else if (!(wrapped && (word.startsWith('-') || OPTION_VALUE.test(word)))) break;
  }
  const program = words[i];
  if (program === undefined) return false;
  if (/^\.\.?\//.test(program)) return true;
  const args = words.slice(i + 1);
  const name = program === '{sys.executable}' ? 'python' : program.slice(program.lastIndexOf('/') + 1);
  if (PYTHON.test(name)) return pythonRunsProgram(args);
  if (name === 'torchrun' || name === 'deepspeed') return args.some((arg) => !arg.startsWith('-'));
  if (name === 'accelerate') return args[0] === 'launch';
  if (name === 'autotrain') return args.some((arg) => arg === '--train' || /^--config(?:=|$)/.test(arg));
  if (SHELLS.test(name)) return shellRunsScript(args);
  return false;
}

/** `python [options] script …` or `python -m module …`; not `-c`, stdin, `--version`, pip. */
function pythonRunsProgram(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-m') return !NOT_TRAINING_MODULES.test(args[i + 1] ?? 'pip');
    if (arg === '-c' || arg === '-' || /^(?:-V|--version|-h|--help)$/.test(arg)) return false;
    if (arg === '-W' || arg === '-X') i++;
    else if (!arg.startsWith('-')) return true;
  }
  return false;
}

/** `bash [options] script.sh …`, or the command in `bash -c "…"`. */
function shellRunsScript(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '-c') return launchesLine(args[i + 1] ?? '');
    if (!arg.startsWith('-') && !arg.startsWith('+')) return true;
  }
  return false;
}

/**
 * The command a process call at `at` (just after its parenthesis) names as a literal: a command line (a string), or
 * the words of an argument list (strings, `sys.executable`; anything else counts as a word of unknown text). Null
 * when the command is not a literal (a variable).
 */
function literalCommand(code: string, at: number): string | string[] | null {
  const start = skipSpace(code, at);
  const open = code[start];
  if (open === '[' || open === '(') return literalList(code, start + 1, open === '[' ? ']' : ')');
  return stringAt(code, start)?.value ?? null;
}

function literalList(code: string, from: number, close: string): string[] | null {
  const words: string[] = [];
  let i = skipSpace(code, from);
  while (i < code.length && code[i] !== close) {
    const literal = stringAt(code, i);
    if (literal) {
      words.push(literal.value);
      i = literal.end;
    } else if (code.startsWith('sys.executable', i)) {
      words.push('python');
      i += 'sys.executable'.length;
    } else {
      // An expression (`str(path)`, `script`): a word whose text is unknown, up to the next item.
      words.push('?');
      i = itemEnd(code, i, close);
    }
    i = skipSpace(code, i);
    if (code[i] === ',') i = skipSpace(code, i + 1);
    else if (code[i] !== close) return null;
  }
  return i < code.length ? words : null;
}

/** Where the item starting at `from` ends: at a comma or `close` outside any bracket of its own. */
function itemEnd(code: string, from: number, close: string): number {
  let depth = 0;
  for (let i = from; i < code.length; i++) {
    const c = code[i] ?? '';
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c) && depth > 0) depth--;
    else if (depth === 0 && (c === ',' || c === close)) return i;
  }
  return code.length;
}

/** A Python string literal at `i` (prefixes `r`, `b`, `f`, `u`; single or triple quotes), or null. */
function stringAt(code: string, i: number): { value: string; end: number } | null {
  const head = /^[rRbBuUfF]{0,2}("""|'''|"|')/.exec(code.slice(i, i + 5));
  if (!head) return null;
  const quote = head[1] ?? '';
  let value = '';
  for (let j = i + head[0].length; j < code.length; j++) {
    if (code.startsWith(quote, j)) return { value, end: j + quote.length };
    const c = code[j] ?? '';
    if (c === '\n' && quote.length === 1) return null;
    value += c === '\\' ? (code[++j] ?? '') : c;
  }
  return null;
}

function skipSpace(code: string, i: number): number {
  let j = i;
  while (j < code.length && /\s/.test(code[j] ?? '')) j++;
  return j;
}
