/**
 * Out of memory in a program that a cell launched (`!python train.py`, `!accelerate launch`, `!torchrun`, `%%bash`:
 * launchers.ts says which cells do). Its traceback reaches the notebook as stream output, and the cell ends without an
 * error (`!`) or with only a CalledProcessError (`%%bash`). Read once, when the cell's execution has ended: the stream
 * must end with an uncaught Python traceback (or a kill by SIGKILL), followed by nothing but the launcher's own lines
 * (and W&B's exit summary). Evidence: test/fixtures/oom-corpus/launcher-tails.jsonl.
 */

import { joinRegex } from '../lib/regex';
import { MAX_RULE_LINE_CHARS, MAX_SHELL_TAIL_CHARS } from '../limits';
import { classifyBuiltIn, type IsEnabled } from './classify';
import { clip, limit, splitLines, stripAnsi, tailOf } from './text';
import type { ShellEnd, Verdict } from './types';

/** torchrun prefixes its children's lines (`[rank0]: `, `[rank0]:[W… ProcessGroupNCCL…`, `--tee`'s `[default0]:`). */
const RANK_PREFIX = /^\[(?:rank|default)\d+\]: ?/;

/** A traceback's first line; a progress bar without a newline may precede it on the same line. */
const HEADER = /Traceback \(most recent call last\):?\s*$|^╭─+ Traceback \(most recent call last\) ─+╮$/;
const FRAME = /^\s*File "[^"]*", line \d+/;
/** rich's boxed traceback (accelerate ≤0.20 installed it for uncaught exceptions): frames inside, message below. */
const RICH_BOX = /^│.*│$/;
const RICH_FOOTER = /^╰─+╯$/;
const CHAIN = joinRegex(
  /^During handling of the above exception, another exception occurred:$/,
  /|^The above exception was the direct cause of the following exception:$/,
);
/** `[module.]Name: message` or a bare `Name`. */
const EXCEPTION = /^[A-Za-z_][\w.]*(?::|$)/;
const INTERRUPTED = /^KeyboardInterrupt\b/;

/** The launchers' failure exceptions. accelerate re-raises its child's exit as CalledProcessError (rich wraps it). */
const CALLED_PROCESS = /^(?:subprocess\.)?CalledProcessError: Command /;
const EXIT_STATUS = /(?:returned non-zero\s+exit status (-?\d+)|died with <Signals\.(SIG\w+): \d+>)\.$/;
const CHILD_FAILED = /^(?:torch\.distributed\.elastic\.multiprocessing\.errors\.)?ChildFailedError:?$/;
/** torchrun's failure box under ChildFailedError (`====`, `<script> FAILED`, `Root Cause…`, `  exitcode  : 1 …`). */
const BOX_LINE = joinRegex(
  /^(?:={10,}|-{10,}|\S.* FAILED|Failures:|\s*<NO_OTHER_FAILURES>|\[\d+\]:)$/,
  /|^(?:Root Cause \(first observed failure\):|\s+\w+\s*: .*)$/,
);
const BOX_EXITCODE = /^\s+exitcode\s*: (-?\d+)/;

/**
 * Lines that are neither a traceback nor a kill, printed after the child's own: torchrun's agent, DeepSpeed's runner,
 * NCCL at exit, W&B at exit.
 */
const LAUNCHER_LINES: readonly RegExp[] = [
  joinRegex(
    /torch[/.]distributed[/.]elastic[/.]multiprocessing[/.]api\b.*/,
    /(?:Sending process \d+ closing signal SIG[A-Z]+$|failed \(exitcode: -?\d+\) local_rank: \d+)/,
  ),
  /^\[[^\]]+\] \[(?:INFO|ERROR)\] \[launch\.py:\d+:sigkill_handler\] /,
  / exits with return code = -?\d+$/,
  joinRegex(
    /^\[W\d{3,4} [\d:.]+ ProcessGroupNCCL\.cpp:\d+\] (?:Warning: )?WARNING: /,
    /(?:process group has NOT been destroyed|destroy_process_group\(\) was not called)/,
  ),
  // W&B's exit summary, printed by the dying child after its traceback (a terminal, so each line says `wandb:`): the
  // "Waiting for W&B process to finish" line, run history and summary, `View run`/`View project` links, `Synced …`,
  // `Find logs at: …`, and blank `wandb:` lines.
  /^wandb:(?:\s|$)/,
];

/** The shell's word for a job killed by SIGKILL, bare or as bash's job status line (Colab's `!` runs bash). */
const KILLED = /^Killed$|^(?:\S*\/)?(?:ba|da|z)?sh: line \d+: +\d+ Killed(?: |$)/;
/** Exit codes that mean SIGKILL: a signal number (-9), or the shell's 128 + 9. */
const KILL_CODES = new Set([-9, 137]);
const KILL_CODE_IN_LINE = /(?:exits with return code = |failed \(exitcode: )(-?\d+)/;

/**
 * tqdm's redraw of a bar that stopped before its total (`steps:   0% 0/2300 [00:01<?, ?it/s]` on Colab), which a
 * dying script prints once more when the bar is closed. At most two: a bar still advancing after a traceback redraws
 * many times, and a finished bar (n = total) is progress, not a death.
 */
const PROGRESS = /(?:^|[\s:])\d{1,3}%(?:\|[^|]*\|| )\s*(\d+)\/(\d+) \[/;
const MAX_EXIT_REDRAWS = 2;

/**
 * Lines that may follow an exception line as part of its message: PyTorch's CUDA error hints, TensorFlow's graph
 * error parts and hint, XLA's buffer dump, JAX's traceback notes (test/fixtures/oom-corpus/README.md). Blank, indented
 * and rule-matching lines count too. Anything else after a traceback is output of a run that went on.
 */
const CONTINUATION: readonly RegExp[] = [
  /^(?:CUDA kernel errors might be asynchronously reported|For debugging consider passing CUDA_LAUNCH_BLOCKING)/,
  /^(?:Compile with `TORCH_USE_CUDA_DSA`|Search for `\w+' in https?:|For more detailed error information, run with)/,
  /^(?:Hint: |Detected at node |Node: '|Graph execution error:|\d+ root error\(s\) found\.)/,
  /^(?:\d+ successful operations\.)/,
  /^(?:\d+ derived errors ignored\.|Errors may have originated from an input operation\.|Function call stack:)/,
  /^(?:Input Source operations connected to node |Original stack trace for |\w+(?: -> \w+)+$)/,
  /^(?:BufferAssignment |Peak buffers:|Allocation type: |The stack trace below excludes JAX-internal frames)/,
];
const MAX_CONTINUATION = 100;
/** rich wraps a long message at the console width: its wrapped lines have no shape to check, only a count. */
const MAX_RICH_WRAP = 12;
const MAX_CHAIN = 8;

/**
 * The failure a shell-launched process died of, or null. Null when the cell's error output is anything but a
 * CalledProcessError (the error-output classifier reads that), when anything but launcher lines follows the final
 * traceback, and when the final exception is not one the built-in rules know.
 */
export function classifyShellEnd({ stream, error }: ShellEnd, enabled: IsEnabled): Verdict | null {
  let kill: string | null = null;
  if (error !== null) {
    const ended = calledProcessEnd(error);
    if (!ended) return null;
    kill = ended.kill;
  }
  const lines = tailLines(stream);
  const launcher = skipLauncher(lines);
  kill ??= launcher.kill;
  if (kill) return enabled('host-ram') ? killVerdict(kill) : null;
  return reportVerdict(lines, launcher.end, enabled);
}

function tailLines(stream: string): string[] {
  return splitLines(tailOf(stream, MAX_SHELL_TAIL_CHARS)).map((raw) =>
    stripAnsi(raw.slice(0, MAX_RULE_LINE_CHARS)).replace(RANK_PREFIX, '').trimEnd(),
  );
}

/** `%%bash` (and `subprocess.run(…, check=True)`) end the cell with this error output. */
function calledProcessEnd(error: string): { kill: string | null } | null {
  const last = lastLine(splitLines(tailOf(error)).map((line) => stripAnsi(line).trim()));
  if (!CALLED_PROCESS.test(last)) return null;
  const status = EXIT_STATUS.exec(last);
  if (!status) return null;
  return { kill: isKillStatus(status) ? last : null };
}

function lastLine(lines: readonly string[]): string {
  for (let i = lines.length - 1; i >= 0; i--) if (lines[i]) return lines[i] ?? '';
  return '';
}

function isKillStatus(status: RegExpExecArray): boolean {
  return status[2] === 'SIGKILL' || KILL_CODES.has(Number(status[1]));
}

/**
 * Walks back over the launcher's lines at the end of the stream. Returns where the child's own output ends, and the
 * launcher line that reports a kill by SIGKILL, if one does.
 */
function skipLauncher(lines: readonly string[]): { end: number; kill: string | null } {
  let end = lines.length;
  let kill: string | null = null;
  let redraws = 0;
  while (end > 0) {
    const line = lines[end - 1] ?? '';
    if (line.trim() === '' || LAUNCHER_LINES.some((re) => re.test(line))) {
      kill ??= killedBy(line);
      end--;
    } else if (KILLED.test(line)) {
      kill ??= line;
      end--;
    } else if (isUnfinishedProgress(line) && redraws < MAX_EXIT_REDRAWS) {
      redraws++;
      end--;
    } else {
      const block = launcherTraceback(lines, end);
      if (!block) break;
      kill ??= block.kill;
      end = block.start;
    }
  }
  return { end, kill };
}

function killedBy(line: string): string | null {
  const code = KILL_CODE_IN_LINE.exec(line);
  return code && KILL_CODES.has(Number(code[1])) ? line : null;
}

function isUnfinishedProgress(line: string): boolean {
  const m = PROGRESS.exec(line);
  // Its count, not its percentage: tqdm shows 999/1000 as 100%.
  return !!m && Number(m[1]) < Number(m[2]);
}

interface Report {
  /** Index of the traceback's header, or of its first frame when the tail bound cut the header off. */
  start: number;
  /** Index of the final exception line. */
  exception: number;
  rich: boolean;
}

/** The last traceback that starts before `end`: its header, its frames, the exception line after them. */
function lastReport(lines: readonly string[], end: number): Report | null {
  let header = end - 1;
  while (header >= 0 && !HEADER.test(lines[header] ?? '')) header--;
  // No header: the tail bound (or a trimmed copy) cut the traceback's head off; its frames start the tail.
  const rich = header >= 0 && (lines[header] ?? '').startsWith('╭');
  let i = header + 1;
  if (rich) {
    while (i < end && RICH_BOX.test(lines[i] ?? '')) i++;
    if (!RICH_FOOTER.test(lines[i] ?? '')) return null;
    i++;
  } else {
    let frames = 0;
    for (; i < end && (FRAME.test(lines[i] ?? '') || /^\s/.test(lines[i] ?? '')); i++) {
      if (FRAME.test(lines[i] ?? '')) frames++;
    }
    if (frames === 0) return null;
  }
  if (i >= end || !EXCEPTION.test(lines[i] ?? '')) return null;
  return { start: Math.max(header, 0), exception: i, rich };
}

/** A traceback ending at `end` whose exception is a launcher's: accelerate's CalledProcessError, torchrun's box. */
function launcherTraceback(lines: readonly string[], end: number): { start: number; kill: string | null } | null {
  const report = lastReport(lines, end);
  if (!report) return null;
  const message = lines.slice(report.exception, end);
  const first = message[0] ?? '';
  if (CALLED_PROCESS.test(first)) {
    if (message.length > 1 && (!report.rich || message.length > MAX_RICH_WRAP)) return null;
    const status = EXIT_STATUS.exec(message.join(' '));
    if (!status) return null;
    return { start: report.start, kill: isKillStatus(status) ? message.join(' ') : null };
  }
  if (!CHILD_FAILED.test(first.trim()) || !message.slice(1).every((line) => BOX_LINE.test(line))) return null;
  return { start: report.start, kill: rootCauseKill(message) };
}

/** torchrun's box: the root cause's exit code, `-9` when the kernel's OOM killer sent SIGKILL. */
function rootCauseKill(box: readonly string[]): string | null {
  const root = box.findIndex((line) => line.startsWith('Root Cause'));
  if (root < 0) return null;
  for (const line of box.slice(root)) {
    const code = BOX_EXITCODE.exec(line);
    if (code) return KILL_CODES.has(Number(code[1])) ? line.trim() : null;
  }
  return null;
}

function reportVerdict(lines: readonly string[], end: number, enabled: IsEnabled): Verdict | null {
  const report = lastReport(lines, end);
  if (!report || !isMessageTail(lines.slice(report.exception + 1, end), report.rich)) return null;
  // The person's Stop ended the program, whatever it was handling then (an OOM chained before it).
  if (INTERRUPTED.test(lines[report.exception] ?? '')) return null;
  const text = lines.slice(chainStart(lines, report.start), end).join('\n');
  const verdict = classifyBuiltIn(text, enabled);
  if (!verdict) return null;
  return {
    ...verdict,
    rule: limit(`shell:${verdict.rule}`),
    description: limit(`${verdict.description}, in a process started from a shell cell`),
  };
}

/** What follows an exception line belongs to its message only in the shapes messages have. */
function isMessageTail(tail: readonly string[], rich: boolean): boolean {
  if (rich) return tail.length <= MAX_RICH_WRAP;
  if (tail.length > MAX_CONTINUATION) return false;
  return tail.every(
    (line) => line === '' || /^\s/.test(line) || CONTINUATION.some((re) => re.test(line)) || isRuleLine(line),
  );
}

const ANY_CATEGORY: IsEnabled = () => true;

function isRuleLine(line: string): boolean {
  return classifyBuiltIn(line, ANY_CATEGORY) !== null;
}

/** A chained exception is one report: extend back over `During handling of the above exception…` links. */
function chainStart(lines: readonly string[], start: number): number {
  let first = start;
  for (let n = 0; n < MAX_CHAIN; n++) {
    let i = first - 1;
    while (i >= 0 && (lines[i] ?? '') === '') i--;
    if (i < 0 || !CHAIN.test(lines[i] ?? '')) return first;
    const previous = lastReport(lines, i);
    if (!previous) return first;
    first = previous.start;
  }
  return first;
}

function killVerdict(line: string): Verdict {
  return {
    category: 'host-ram',
    rule: 'shell-killed',
    description: 'A process started from a shell cell was killed (SIGKILL: the Linux OOM killer)',
    line: clip(line),
  };
}
