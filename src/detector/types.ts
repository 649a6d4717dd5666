/**
 * What kind of failure a verdict reports, in display order; each can be switched off in the options. This is the one
 * list: the storage schema validates stored verdicts and settings against it too.
 */
export const CATEGORIES = [
  'gpu-oom',
  'tf-oom',
  'jax-oom',
  'host-ram',
  'colab-crash',
  'colab-crash-unknown',
  'gpu-fault',
] as const;
export type Category = (typeof CATEGORIES)[number];

/**
 * Off by default:
 * - 'colab-crash-unknown': Colab's "crashed for an unknown reason" is every crash it does not diagnose as memory,
 *   including a notebook restarting its own kernel on purpose after `pip install`; running all cells would run that
 *   cell again, in a loop (REFERENCE §11.1).
 * - 'gpu-fault': a broken GPU context is not memory, and a restart only sometimes helps.
 */
export const DEFAULT_CATEGORIES: Readonly<Record<Category, boolean>> = Object.freeze({
  'gpu-oom': true,
  'tf-oom': true,
  'jax-oom': true,
  'host-ram': true,
  'colab-crash': true,
  'colab-crash-unknown': false,
  'gpu-fault': false,
});

export interface Verdict {
  /** 'custom' = one of the user's failure patterns matched. */
  category: Category | 'custom';
  /** Stable rule id, e.g. 'torch-cuda-oom', or 'custom:<pattern source>'. */
  rule: string;
  /** Short human text, e.g. 'PyTorch CUDA out of memory'. */
  description: string;
  /** The matched line, trimmed, at most 300 characters. */
  line: string;
}

export interface DetectorConfig {
  categories: Record<Category, boolean>;
  /** User regex sources, applied like built-in rules to a failed cell's error text. */
  failurePatterns: string[];
  /** User regex sources that the user's own code prints to ask for a fresh runtime. */
  markerPatterns: string[];
}

export interface MarkerMatch {
  pattern: string;
  line: string;
}

/** What a shell cell left when its execution ended (see shell-tail.ts). */
export interface ShellEnd {
  /** The cell's stream output: its last MAX_SHELL_TAIL_CHARS are read. */
  stream: string;
  /** The cell's error output when it ended with one, else null. */
  error: string | null;
}

export interface Detector {
  /** `text` is the error output (traceback) of a cell that failed. */
  classifyError(text: string): Verdict | null;
  /** `text` is a Colab toast or dialog, e.g. the crash toast. */
  classifyNotice(text: string): Verdict | null;
  /** `text` is any new output text, stream chunks included. */
  findMarker(text: string): MarkerMatch | null;
  /** A shell-launched process's out-of-memory death, read when its cell's execution ended. */
  classifyShellEnd(end: ShellEnd): Verdict | null;
  /** Lets callers skip stream text entirely when there are no marker patterns. */
  readonly hasMarkers: boolean;
}
