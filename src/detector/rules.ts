import { joinRegex } from '../lib/regex';
import type { Candidate } from './lines';
import type { Category } from './types';

/**
 * A built-in rule. Message regexes are anchored (`^`) and tested against each layer of a candidate, so they match
 * only where a message starts: after an exception class, an error-level log prefix or a known wrapper.
 */
export interface Rule {
  readonly id: string;
  readonly category: Category;
  readonly description: string;
  /** For exception messages, error-level log lines, `what():` and THCudaCheck lines. */
  readonly message?: RegExp;
  /** For a bare line (no class, no error level): `true` reuses `message`; absent = never on a bare line. */
  readonly bare?: RegExp | true;
  /** Tested against the exception class's last segment; the class alone is the evidence. */
  readonly className?: RegExp;
  /** May match a WARNING-level native log line. */
  readonly warning?: true;
  /**
   * An XLA/status message that TensorFlow prints too (TF compiles with XLA, e.g. Keras 3's default jit_compile): its
   * category is 'tf-oom' when TensorFlow raised it, and `category` ('jax-oom': JAX, PyTorch/XLA) otherwise.
   */
  readonly xla?: true;
  /** Not this failure when the output says this anywhere (IPython's header row names the class without its message). */
  readonly unless?: RegExp;
}

type RuleFields = Omit<Rule, 'id' | 'category' | 'description'>;

const rule = (id: string, category: Category, description: string, fields: RuleFields): Rule => ({
  id,
  category,
  description,
  ...fields,
});

/** Device OOMs from PyTorch's caching allocators; a bare line needs the allocator's full opening to count. */
const torchDeviceOom = (device: string): RuleFields => ({
  message: new RegExp(`^${device} out of memory\\b`),
  bare: new RegExp(`^${device} out of memory\\. Tried to allocate`),
});

/** `CUDA error: X` (c10 check; `HIP error: X` on ROCm), or the ≤0.4 form `cuda runtime error (N) : X`. */
const cudaError = (errors: string): RuleFields => ({
  message: new RegExp(`^(?:CUDA error|HIP error|cuda runtime error \\(\\d+\\) ?): (?:${errors})`),
  bare: true,
});

/**
 * TensorFlow and Abseil map ENOSPC, EDQUOT, EMFILE and ENFILE to RESOURCE_EXHAUSTED: a full disk while saving a
 * checkpoint is not out of memory, and a restart would not free any disk.
 */
const NOT_MEMORY = /No space left on device|[Dd]isk quota exceeded|Too many open files/;

/**
 * In priority order: the first rule that matches a line decides its meaning. Specific message rules come first so the
 * verdict names the precise format; then the class rules; the generic status rule last.
 */
export const RULES: readonly Rule[] = [
  // PyTorch GPU memory.
  rule('torch-cuda-oom', 'gpu-oom', 'PyTorch CUDA out of memory', torchDeviceOom('CUDA')),
  rule('torch-hip-oom', 'gpu-oom', 'PyTorch ROCm (HIP) out of memory', torchDeviceOom('HIP')),
  rule('torch-xpu-oom', 'gpu-oom', 'PyTorch XPU out of memory', torchDeviceOom('XPU')),
  rule('torch-mps-oom', 'gpu-oom', 'PyTorch MPS (Apple GPU) out of memory', {
    message: /^MPS backend out of memory\b/,
    bare: /^MPS backend out of memory \(/,
  }),
  rule('torch-thc-oom', 'gpu-oom', 'PyTorch (legacy THC) CUDA out of memory', {
    message: /^cuda runtime error \(2\) : out of memory/,
    bare: true,
  }),
  rule('cuda-error-oom', 'gpu-oom', 'CUDA error: out of memory', {
    message: /^(?:CUDA|HIP) error: out of memory/,
    bare: true,
  }),
  // Labelled OOM by judgement: cuBLAS/cuDNN could not allocate their workspace or handle.
  rule('cublas-alloc-failed', 'gpu-oom', 'cuBLAS could not allocate GPU memory', {
    message: /^(?:CUDA error: )?CUBLAS_STATUS_ALLOC_FAILED\b/,
    bare: true,
  }),
  rule('cudnn-alloc-failed', 'gpu-oom', 'cuDNN could not allocate GPU memory', {
    message: /^cuDNN error: CUDNN_STATUS_ALLOC_FAILED\b/,
    bare: true,
  }),

  // Host RAM.
  rule('numpy-array-oom', 'host-ram', 'NumPy could not allocate an array', {
    message: /^Unable to allocate (?:\S+ \S+ for an array|array) with shape/,
    bare: true,
  }),
  rule('torch-cpu-alloc', 'host-ram', 'PyTorch CPU allocator out of memory', {
    message: /^(?:\[enforce fail at [^\]]*\][^\n]*?)?DefaultCPUAllocator: (?:can't allocate memory|not enough memory)/,
    bare: true,
  }),
  // PyTorch 1.1: posix_memalign returned 12, which is ENOMEM.
  rule('torch-posix-memalign', 'host-ram', 'PyTorch CPU allocation failed (ENOMEM)', {
    message: /^\[enforce fail at [^\]]*\] posix_memalign\(.*\) == 0\. 12 vs 0/,
    bare: true,
  }),
  // Only SIGKILL: the OOM killer's signal. A bus error is a too-small /dev/shm, which a restart does not fix.
  rule('dataloader-killed', 'host-ram', 'DataLoader worker killed (out of RAM)', {
    message: /^DataLoader worker \(pid \d+\) is killed by signal: Killed/,
    bare: true,
  }),
  rule('oom-killer', 'host-ram', 'Linux OOM killer killed a process', {
    message: /^(?:Memory cgroup out of memory|Out of memory): Kill(?:ed)? process \d+/,
    bare: true,
  }),
  // A process the cell launched (subprocess.run(check=True), accelerate's launcher) killed by SIGKILL: on Colab the
  // kernel's OOM killer, with the kernel alive and no notice (REFERENCE §12.8: autotrain-advanced#456,
  // kohya-colab#106). 137 is a shell's 128 + 9 for `shell=True`. Only after the class: the message alone is a log's.
  rule('child-killed', 'host-ram', 'A process the cell launched was killed (SIGKILL: the Linux OOM killer)', {
    message: /^Command .* (?:died with <Signals\.SIGKILL: 9>|returned non-zero exit status (?:-9|137))\.\s*$/,
  }),

  // GPU faults (opt-in): the context is broken, memory is not the cause.
  rule('cuda-device-assert', 'gpu-fault', 'CUDA device-side assert', cudaError('device-side assert triggered')),
  rule('cuda-kernel-assert', 'gpu-fault', 'CUDA kernel assertion failed', {
    bare: /^\S+\.cu:\d+: .*?block: \[[\d,]+\], thread: \[[\d,]+\] Assertion .* failed\./,
  }),
  rule(
    'cuda-illegal-access',
    'gpu-fault',
    'CUDA illegal memory access',
    cudaError('an illegal memory access was encountered'),
  ),
  rule(
    'cuda-sticky-error',
    'gpu-fault',
    'CUDA error that breaks the GPU context',
    cudaError(
      'unspecified launch failure|misaligned address|an illegal instruction was encountered|unknown error|' +
        'uncorrectable ECC error encountered|the launch timed out and was terminated|invalid program counter|' +
        'hardware stack error',
    ),
  ),
  // Before cuda-no-device, which would claim the tail of this line.
  rule('tf-cuinit-no-device', 'gpu-fault', 'TensorFlow found no GPU (cuInit)', {
    message: /^failed call to cuInit: CUDA_ERROR_NO_DEVICE\b/,
    bare: true,
  }),
  rule('cuda-no-device', 'gpu-fault', 'No CUDA-capable GPU', {
    message: joinRegex(
      /^(?:(?:CUDA error|HIP error|cuda runtime error \(\d+\) ?): )?/,
      /(?:no CUDA-capable device is detected|CUDA-capable device\(s\) is\/are busy or unavailable)/,
    ),
    bare: true,
  }),
  rule('torch-no-gpus', 'gpu-fault', 'No CUDA GPUs are available', {
    message: /^No CUDA GPUs are available/,
    bare: true,
  }),
  rule('cuda-driver-init-failed', 'gpu-fault', 'CUDA driver initialization failed', {
    message: /^CUDA driver initialization failed/,
    bare: true,
  }),
  rule('no-nvidia-driver', 'gpu-fault', 'No NVIDIA driver', {
    message: /^Found no NVIDIA driver on your system/,
    bare: true,
  }),
  rule('nccl-error', 'gpu-fault', 'NCCL error', {
    message: /^NCCL (?:error|Error \d+)\b/,
    bare: true,
    className: /^nccl\w+Error$/,
  }),
  rule('dist-backend-error', 'gpu-fault', 'Distributed backend (NCCL) error', { className: /^DistBackendError$/ }),
  // Labelled gpu-fault by judgement, though NOT_SUPPORTED and "no valid algorithm" are often OOM in practice.
  rule('cudnn-error', 'gpu-fault', 'cuDNN error', {
    message:
      /^cuDNN error: CUDNN_STATUS_(?:NOT_SUPPORTED|EXECUTION_FAILED|NOT_INITIALIZED|INTERNAL_ERROR|MAPPING_ERROR)\b/,
    bare: true,
  }),
  rule('cudnn-no-algorithm', 'gpu-fault', 'No usable cuDNN algorithm', {
    message: joinRegex(
      /^Unable to find a valid cuDNN algorithm to run convolution/,
      /|^GET was unable to find an engine to execute this computation/,
    ),
    bare: true,
  }),
  rule('tf-cudnn-handle', 'gpu-fault', 'TensorFlow could not create a cuDNN handle', {
    message: /^could not create cudnn handle: CUDNN_STATUS_\w+/,
  }),

  // TensorFlow.
  rule('tf-oom-tensor', 'tf-oom', 'TensorFlow OOM when allocating a tensor', {
    message: /^OOM when allocating tensor (?:with|of) shape/,
    bare: true,
  }),
  rule('tf-dst-tensor', 'tf-oom', 'TensorFlow could not copy a tensor to the GPU (Dst tensor)', {
    message: /^(?:Failed copying input tensor from \S+ to \S+ in order to run \S+: )?Dst tensor is not initialized/,
    bare: true,
  }),
  rule('tf-op-requires', 'tf-oom', 'TensorFlow op failed: resource exhausted', {
    message: /^OP_REQUIRES failed at \S+ : (?:Resource exhausted|RESOURCE_EXHAUSTED):/,
    warning: true,
  }),
  // E-level only: TF logs the same allocation failure at I level when it retries with a smaller size.
  rule('tf-cuda-driver-oom', 'tf-oom', 'TensorFlow CUDA driver out of memory', {
    message: /^failed to allocate \S+ \(\d+ bytes\) from device: CUDA_ERROR_OUT_OF_MEMORY/,
  }),

  // The exception class alone.
  rule('oom-error-class', 'gpu-oom', 'Out of memory (OutOfMemoryError)', { className: /^OutOfMemoryError$/ }),
  rule('python-memory-error', 'host-ram', 'Python MemoryError (out of RAM)', {
    className: /^_?(?:Array)?MemoryError$/,
  }),
  rule('cpp-bad-alloc', 'host-ram', 'C++ std::bad_alloc (out of RAM)', {
    className: /^bad_alloc$/,
    message: /^std::bad_alloc\b/,
  }),
  rule('tf-resource-exhausted', 'tf-oom', 'TensorFlow ResourceExhaustedError', {
    className: /^ResourceExhaustedError$/,
    unless: NOT_MEMORY,
  }),

  // XLA on GPU and TPU: JAX, PyTorch/XLA, and TensorFlow when it compiles with XLA.
  rule('xla-oom', 'jax-oom', 'XLA out of memory', {
    message: /^Out of memory (?:while trying to allocate|allocating) \d+ bytes/,
    bare: true,
    xla: true,
  }),
  rule('xla-allocation-request', 'jax-oom', 'XLA could not allocate device memory', {
    message: /^Failed to allocate request for \S+/,
    bare: true,
    xla: true,
  }),
  rule('tpu-memory-space', 'jax-oom', 'TPU out of memory (HBM/VMEM)', {
    message: /^(?:XLA:TPU compile permanent error\. )?Ran out of memory in memory space \w+/,
    bare: true,
    xla: true,
  }),
  rule('tpu-allocation', 'jax-oom', 'TPU could not allocate or reserve memory', {
    message: joinRegex(
      /^(?:Error allocating device buffer: |Error loading program '[^']*': )?/,
      /Attempting to (?:allocate|reserve) \S+.*?That was not possible/,
    ),
    bare: true,
    xla: true,
  }),
  rule('tpu-compile-memory', 'jax-oom', 'TPU compilation needs more memory than available', {
    message: /^(?:Compilation failure: )?Aborting compilation early because it's unlikely to have enough memory/,
    bare: true,
    xla: true,
  }),
  // The status alone: XLA's, and TensorFlow's inside `(N) Resource exhausted:` root errors and E-level logs. API
  // clients and gRPC reuse the status name for quotas (e.g. Gemini's 429) and message-size limits: not memory.
  rule('resource-exhausted', 'jax-oom', 'Resource exhausted (XLA/TensorFlow status)', {
    message:
      /^(?:Resource exhausted|RESOURCE_EXHAUSTED):(?![^\n]*\b(?:[Qq]uota|[Rr]ate.?limit|message larger than max))/,
    bare: true,
    xla: true,
    unless: NOT_MEMORY,
  }),
];

/** Every built-in rule needs one of these words, so texts without them skip the line-by-line work. */
export const KEYWORDS = joinRegex(
  /memory|oom|resource.?exhausted|bad_alloc|alloc_failed|dst tensor|kill|cuda|hip error|cudnn|nccl|distbackend/i,
  /|nvidia|not possible|to allocate|posix_memalign|unable to find|\.cu:\d|exit status (?:-9|137)\b/,
);

const MAX_CLASS_INDENT = 8;

export function ruleMatches(rule: Rule, c: Candidate): boolean {
  if (c.warning && !rule.warning) return false;
  if (rule.className && classMatches(rule.className, c)) return true;
  const re = c.strong ? rule.message : rule.bare === true ? rule.message : rule.bare;
  return re !== undefined && c.layers.some((layer) => re.test(layer));
}

/**
 * Traceback lines start at column 0 (pasted logs add a few spaces). A class at deeper indentation is source code or a
 * docstring's `Raises:` entry, and a class name alone is too weak to trust there.
 */
function classMatches(re: RegExp, c: Candidate): boolean {
  return c.className !== null && c.indent < MAX_CLASS_INDENT && re.test(c.className);
}

export function firstRule(c: Candidate): Rule | null {
  return RULES.find((rule) => ruleMatches(rule, c)) ?? null;
}

/**
 * Signs that TensorFlow raised the failure: its exception class or module, its Python frames, its graph-execution
 * and eager-op wrappers. PyTorch/XLA's TF-based runtime prints root-error listings too, but none of these.
 */
const TENSORFLOW_TEXT =
  /\bResourceExhaustedError\b|\berrors_impl\.|tensorflow[/\\]python|Graph execution error|\[Op:\w+\]/;

export function isTensorFlowText(text: string): boolean {
  return TENSORFLOW_TEXT.test(text);
}

/** A native log line's source path decides first; otherwise the text as a whole says whether TensorFlow raised it. */
export function categoryOf(rule: Rule, c: Candidate, tensorFlowText: boolean): Category {
  if (!rule.xla || c.family === 'xla') return rule.category;
  return c.family === 'tf' || tensorFlowText ? 'tf-oom' : rule.category;
}

export interface NoticeRule {
  readonly id: string;
  readonly category: 'colab-crash' | 'colab-crash-unknown';
  readonly description: string;
  readonly re: RegExp;
}

/**
 * Colab toasts and dialogs, Jupyter's dead-kernel dialogs, and the kernel restarter's log lines. Notices are the
 * page's own text, not program output, so a phrase anywhere on a line is enough.
 */
export const NOTICE_RULES: readonly NoticeRule[] = [
  {
    id: 'colab-ram-crash',
    category: 'colab-crash',
    description: 'Colab session crashed after using all available RAM',
    re: /Your session crashed after using all available RAM/,
  },
  // Every crash Colab does not diagnose as out of memory, a notebook restarting its own kernel included (§11.1).
  {
    id: 'colab-unknown-crash',
    category: 'colab-crash-unknown',
    description: 'Colab session crashed for an unknown reason',
    re: /Your session crashed for an unknown reason/,
  },
  // An older build's toast that names no cause either.
  {
    id: 'colab-crash-restarting',
    category: 'colab-crash-unknown',
    description: 'Colab session crashed and is restarting',
    re: /Your session crashed\./,
  },
  {
    id: 'jupyter-kernel-died',
    category: 'colab-crash',
    description: 'The Jupyter kernel died',
    re: /\bkernel\b.{0,200}?\bappears to have died\b/i,
  },
  {
    id: 'jupyter-kernel-restarting',
    category: 'colab-crash',
    description: 'The Jupyter kernel died and is restarting',
    re: /^\s*Kernel Restarting\s*$/,
  },
  {
    id: 'kernel-restarter',
    category: 'colab-crash',
    description: 'The kernel restarter restarted a dead kernel',
    re: /KernelRestarter: restarting kernel \(\d+\/\d+\)/,
  },
  // Logged when the kernel restarts after dying; a manual restart logs `Kernel restarted: <id>` instead.
  {
    id: 'kernel-restarted-log',
    category: 'colab-crash',
    description: 'The kernel restarted after dying',
    re: /\bkernel [0-9a-f][0-9a-f-]{7,} restarted\b/,
  },
];
