/**
 * Ready-made cell outputs: IPython-style tracebacks (with the ANSI colours IPython emits) whose final lines follow
 * the message formats catalogued in test/fixtures/oom-corpus/README.md, and an OOM that user code catches and prints.
 */
import type { ErrorOutputSpec, FailPreset, Place, RichOutputSpec, RunSpec, StreamOutputSpec } from './scenario';

const ESC = '\u001b';
const paint = (code: string) => (text: string) => `${ESC}[${code}m${text}${ESC}[0m`;
/** IPython's traceback palette (Linux colour scheme). */
export const ansi = {
  red: paint('0;31'),
  green: paint('0;32'),
  cyan: paint('0;36'),
  blue: paint('0;34'),
  yellow: paint('0;33'),
  boldGreen: paint('1;32'),
};

/** Strips ANSI escapes: what a reader of the rendered `<pre>` sees. */
export function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}

/** The two header chunks: the rule and `<ename>   …   Traceback (most recent call last)` (ename padded to 42). */
function header(ename: string): string[] {
  return [
    ansi.red('-'.repeat(75)),
    `${ansi.red(ename)}${' '.repeat(Math.max(1, 42 - ename.length))}Traceback (most recent call last)`,
  ];
}

/** One stack frame as IPython 7 prints it: file, function, five context lines, the current one marked `---->`. */
function frame(file: string, func: string, lines: Array<[number, string]>, current: number): string {
  const body = lines.map(([n, code]) => {
    const num = String(n);
    if (n !== current) return `${ansi.green(num.padStart(7))} ${code}`;
    return `${ansi.green(`${'-'.repeat(Math.max(1, 5 - num.length))}> ${num}`)} ${ansi.red(code)}`;
  });
  return `${ansi.green(file)} in ${ansi.cyan(func)}\n${body.join('\n')}\n`;
}

function finalLine(ename: string, evalue: string): string {
  return `${ansi.red(ename)}: ${evalue}`;
}

function error(ename: string, evalue: string, frames: string[]): ErrorOutputSpec {
  return { type: 'error', ename, evalue, traceback: [...header(ename), ...frames, finalLine(ename, evalue)] };
}

const CELL = (n: number) => `/tmp/ipython-input-${n}-3362254981.py`;
const TORCH = '/usr/local/lib/python3.12/dist-packages/torch';

/** PyTorch ≥ 2.5 allocator message (README: "current text"; `Process N has` clause from NVML). */
export const CUDA_OOM_MESSAGE =
  'CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 14.74 GiB of which 1.18 GiB is ' +
  'free. ' +
  'Process 4186 has 13.55 GiB memory in use. Of the allocated memory 13.30 GiB is allocated by PyTorch, and 125.68 ' +
  'MiB ' +
  'is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting ' +
  'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory ' +
  'Management  ' +
  '(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)';

const TRAIN_LOOP: Array<[number, string]> = [
  [3, 'for epoch in range(num_epochs):'],
  [4, '    for x, y in train_loader:'],
  [5, '        loss = loss_fn(model(x.cuda()), y.cuda())'],
  [6, '        loss.backward()'],
  [7, '        optimizer.step()'],
];

function cudaOom(): ErrorOutputSpec {
  return error('OutOfMemoryError', CUDA_OOM_MESSAGE, [
    frame(CELL(4), '<cell line: 0>()', TRAIN_LOOP, 5),
    frame(
      `${TORCH}/nn/modules/module.py`,
      '_wrapped_call_impl(self, *args, **kwargs)',
      [
        [1771, '            return self._compiled_call_impl(*args, **kwargs)  # type: ignore[misc]'],
        [1772, '        else:'],
        [1773, '            return self._call_impl(*args, **kwargs)'],
        [1774, ''],
        [1775, '    # torchrec tests the code consistency with the following code'],
      ],
      1773,
    ),
    frame(
      `${TORCH}/nn/modules/linear.py`,
      'forward(self, input)',
      [
        [123, '    def forward(self, input: Tensor) -> Tensor:'],
        [124, '        """'],
        [125, '        Runs the forward pass.'],
        [126, '        """'],
        [127, '        return F.linear(input, self.weight, self.bias)'],
      ],
      127,
    ),
  ]);
}

/** PyTorch 1.5–1.10 era (`RuntimeError`, parenthesised figures), as on Colab around 2020-21. */
function cudaOomLegacy(): ErrorOutputSpec {
  return error(
    'RuntimeError',
    'CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.90 GiB total capacity; 15.07 GiB already allocated; ' +
      '7.88 MiB free; 15.14 GiB reserved in total by PyTorch)',
    [frame('<ipython-input-7-3f2b1ab5f5b1>', '<module>()', TRAIN_LOOP, 5)],
  );
}

/** TF 2.9+ `Graph execution error:` wrapper around the op_kernel.cc OOM message (README, TensorFlow). */
function tfOom(): ErrorOutputSpec {
  const evalue = [
    'Graph execution error:',
    '',
    "Detected at node 'model/conv2d_3/Conv2D' defined at (most recent call last):",
    '    File "/usr/local/lib/python3.10/dist-packages/keras/engine/training.py", line 1050, in train_step',
    '      y_pred = self(x, training=True)',
    "Node: 'model/conv2d_3/Conv2D'",
    'OOM when allocating tensor with shape[64,256,56,56] and type float on ' +
      '/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
    '\t [[{{node model/conv2d_3/Conv2D}}]]',
    'Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom ' +
      "to RunOptions for current allocation info. This isn't available when running in Eager mode.",
  ].join('\n');
  return error('ResourceExhaustedError', evalue, [
    frame(CELL(7), '<cell line: 0>()', [[1, 'history = model.fit(train_ds, epochs=10, validation_data=val_ds)']], 1),
    frame(
      '/usr/local/lib/python3.10/dist-packages/tensorflow/python/eager/execute.py',
      'quick_execute(op_name, num_outputs, inputs, attrs, ctx, name)',
      [
        [50, '  try:'],
        [51, '    ctx.ensure_initialized()'],
        [52, '    tensors = pywrap_tfe.TFE_Py_Execute(ctx._handle, device_name, op_name,'],
        [53, '                                        inputs, attrs, num_outputs)'],
        [54, '  except core._NotOkStatusException as e:'],
      ],
      52,
    ),
  ]);
}

/** jaxlib 0.4.x: `XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate N bytes.` */
function jaxOom(): ErrorOutputSpec {
  return error('XlaRuntimeError', 'RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.', [
    frame(
      CELL(5),
      '<cell line: 0>()',
      [
        [1, 'params = init_params(jax.random.PRNGKey(0))'],
        [2, 'params, loss = train_step(params, batch)'],
      ],
      2,
    ),
    '    [... skipping hidden 10 frame]\n',
    frame(
      '/usr/local/lib/python3.11/dist-packages/jax/_src/interpreters/pxla.py',
      '__call__(self, *args)',
      [
        [1295, '    else:'],
        [1296, '      input_bufs = self._add_tokens_to_inputs(input_bufs)'],
        [1297, '      results = self.xla_executable.execute_sharded(input_bufs)'],
      ],
      1297,
    ),
  ]);
}

/** NumPy `_ArrayMemoryError`, which IPython shows as `MemoryError` (README, Python / host RAM). */
function hostRam(): ErrorOutputSpec {
  return error(
    'MemoryError',
    'Unable to allocate 74.5 GiB for an array with shape (100000, 100000) and data type float64',
    [
      frame(
        CELL(3),
        '<cell line: 0>()',
        [
          [1, 'import numpy as np'],
          [2, 'big = np.zeros((100_000, 100_000))'],
        ],
        2,
      ),
    ],
  );
}

/** An ordinary failure that must not look like OOM. */
function valueError(): ErrorOutputSpec {
  return error('ValueError', 'Expected input batch_size (32) to match target batch_size (64).', [
    frame(CELL(6), '<cell line: 0>()', [[1, 'loss = F.cross_entropy(logits, labels)']], 1),
    frame(
      '/usr/local/lib/python3.12/dist-packages/torch/nn/functional.py',
      'cross_entropy(input, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing)',
      [
        [3492, '    if size_average is not None or reduce is not None:'],
        [3493, '        reduction = _Reduction.legacy_get_string(size_average, reduce)'],
        [3494, '    return torch._C._nn.cross_entropy_loss('],
      ],
      3494,
    ),
  ]);
}

/** What an interrupted cell shows (Runtime → Interrupt execution). */
export function keyboardInterrupt(): ErrorOutputSpec {
  return error('KeyboardInterrupt', '', [frame(CELL(8), '<cell line: 0>()', [[2, '    time.sleep(1)']], 2)]);
}

/**
 * A CUDA OOM the code caught and showed with IPython's `showtraceback()`: an error output, and the cell goes on (a
 * smaller batch, the next epoch).
 */
export function shownOom(place?: Place): ErrorOutputSpec {
  return { ...cudaOom(), continues: true, ...(place ? { place } : {}) };
}

/**
 * A report the notebook displays (`display(HTML(...))`, last night's outputs, a notebook shared by someone else) that
 * copies Colab's own error output markup, its `id="output-body"` included: the notebook's HTML, never an error output.
 */
export function colabErrorCopy(): RichOutputSpec {
  const pre = `<pre><span class="ansi-red-fg">OutOfMemoryError</span>: ${CUDA_OOM_MESSAGE}</pre>`;
  return {
    type: 'display_data',
    html:
      '<h3>Last night\'s run</h3><div id="output-area"><span id="output-header"></span><div id="output-body">' +
      `<div class="error output-id-1"><div class="output_subarea output_text output_error">${pre}</div></div>` +
      '</div><span id="output-footer"></span></div>',
  };
}

/**
 * A library that launches its training as a child process (`trainer.train()` calling `subprocess.run(...,
 * check=True)`), whose child the kernel's OOM killer ended: the cell's error output (autotrain-advanced#456,
 * kohya-colab#106 as REFERENCE §12.8 quotes them).
 */
export function childKilled(): ErrorOutputSpec {
  return error(
    'CalledProcessError',
    "Command '['/usr/bin/python3', '-m', 'trainer.clm', '--config', 'params.json']' died with <Signals.SIGKILL: 9>.",
    [frame(CELL(5), '<cell line: 0>()', [[1, 'trainer.train()']], 1)],
  );
}

/** A handled OOM (README finding 3, hard negatives): logged to stdout, the cell then finishes normally. */
export function caughtOomOutputs(): StreamOutputSpec[] {
  return [
    { type: 'stream', text: 'epoch 1/3: batch_size=64\n' },
    {
      type: 'stream',
      text: `2026-03-25 10:15:02 | WARNING | trainer | OOM: Ran out of memory with exception: ${CUDA_OOM_MESSAGE}\n`,
    },
    { type: 'stream', text: 'retrying with batch_size=32\nepoch 1/3: loss=0.4817\n' },
  ];
}

const FAILURES: Record<Exclude<FailPreset, 'caught-oom'>, () => ErrorOutputSpec> = {
  'cuda-oom': cudaOom,
  'cuda-oom-legacy': cudaOomLegacy,
  'tf-oom': tfOom,
  'jax-oom': jaxOom,
  'host-ram': hostRam,
  'value-error': valueError,
};

/** The error output of a preset failure (a fresh object each call). */
export function failureOutput(preset: Exclude<FailPreset, 'caught-oom'>): ErrorOutputSpec {
  return FAILURES[preset]();
}

/** A minimal traceback for a custom error given without one. */
export function defaultTraceback(ename: string, evalue: string): string[] {
  return [...header(ename), frame(CELL(2), '<cell line: 0>()', [[1, 'main()']], 1), finalLine(ename, evalue)];
}

/**
 * How a process started from a shell cell ends, as ready-made runs for `cells[i].runs[n]`. Their shapes
 * come from test/fixtures/oom-corpus/launcher-tails.jsonl and the launchers' sources: the child's uncaught traceback
 * (shell-005), the bar tqdm redraws when it closes (Colab's non-terminal form, bmaltais/kohya_ss#3300), accelerate's
 * own traceback (shell-001; accelerate raises `subprocess.CalledProcessError(returncode, cmd)`), bash's job line for a
 * killed command on Colab (shell-002), and IPython's `%%bash` error (shell-neg-005).
 * - `accelerate-oom`: `!accelerate launch train.py` whose child died of CUDA OOM; the cell ends without an error.
 * - `bash-oom`: a `%%bash` cell running `python train.py`, which died of CUDA OOM; the cell's error is a
 *   CalledProcessError.
 * - `python-killed`: `!python train.py` killed by the kernel's OOM killer (host RAM); no error.
 * - `logged-oom-finished`: a run that logs a CUDA OOM with its traceback, skips the batch and finishes; no error.
 * - `accelerate-oom-wandb`: `accelerate-oom` by a script that logs to W&B: wandb's exit summary (`wandb:` lines) comes
 *   between the child's traceback and accelerate's.
 * - `old-log`: `!tail -n 40 train.log`, printing last night's log, which ends with that run's CUDA OOM traceback.
 */
export type ShellEnding =
  | 'accelerate-oom'
  | 'accelerate-oom-wandb'
  | 'bash-oom'
  | 'python-killed'
  | 'logged-oom-finished'
  | 'old-log';

const SHELL_PROGRESS = 'epoch 1/3: step 100/2300 loss=0.8421\nepoch 1/3: step 200/2300 loss=0.7315\n';

/** The child's traceback as Python prints it to stderr (no IPython colours: it is a plain subprocess). */
function childOomTraceback(): string {
  return [
    'Traceback (most recent call last):',
    '  File "/content/train.py", line 88, in <module>',
    '    main()',
    '  File "/content/train.py", line 61, in main',
    '    loss = model(**batch).loss',
    '           ^^^^^^^^^^^^^^^^^^',
    `  File "${TORCH}/nn/modules/linear.py", line 125, in forward`,
    '    return F.linear(input, self.weight, self.bias)',
    '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^',
    `torch.OutOfMemoryError: ${CUDA_OOM_MESSAGE}`,
    '',
  ].join('\n');
}

const ACCELERATE = '/usr/local/lib/python3.12/dist-packages/accelerate/commands';

function accelerateFailure(): string {
  return [
    'Traceback (most recent call last):',
    '  File "/usr/local/bin/accelerate", line 10, in <module>',
    '    sys.exit(main())',
    '             ^^^^^^',
    `  File "${ACCELERATE}/accelerate_cli.py", line 50, in main`,
    '    args.func(args)',
    `  File "${ACCELERATE}/launch.py", line 1199, in launch_command`,
    '    simple_launcher(args)',
    `  File "${ACCELERATE}/launch.py", line 785, in simple_launcher`,
    '    raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)',
    "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train.py']' returned non-zero exit status 1.",
    '',
  ].join('\n');
}

const stream = (text: string, name: 'stdout' | 'stderr' = 'stdout'): StreamOutputSpec => ({
  type: 'stream',
  text,
  name,
});

function bashError(): ErrorOutputSpec {
  return error('CalledProcessError', "Command 'b'python train.py\\n'' returned non-zero exit status 1.", [
    frame(CELL(3), '<cell line: 0>()', [[1, "get_ipython().run_cell_magic('bash', '', 'python train.py\\n')"]], 1),
  ]);
}

/** wandb's exit summary in a terminal (every line prefixed `wandb:`), as a dying script prints it at exit. */
const WANDB_EXIT = [
  'wandb: Waiting for W&B process to finish... (failed 1). Press Control-C to abort syncing.',
  'wandb: ',
  'wandb: Run history:',
  'wandb:   train/loss █▆▅▃▂▁',
  'wandb: ',
  'wandb: Run summary:',
  'wandb:   train/loss 0.73152',
  'wandb: ',
  'wandb: 🚀 View run glorious-sun-12 at: https://wandb.ai/me/llm/runs/3f9x2k1a',
  'wandb: Synced 5 W&B file(s), 0 media file(s), 0 artifact file(s) and 0 other file(s)',
  'wandb: Find logs at: ./wandb/run-20261128_031502-3f9x2k1a/logs',
  '',
].join('\n');

const SHELL_RUNS: Record<ShellEnding, () => RunSpec> = {
  'accelerate-oom': () => ({
    outputs: [
      stream(SHELL_PROGRESS),
      stream(childOomTraceback()),
      stream('steps:   4% 200/2300 [01:40<17:30,  2.00it/s]\n'),
      stream(accelerateFailure()),
    ],
  }),
  'accelerate-oom-wandb': () => ({
    outputs: [stream(SHELL_PROGRESS), stream(childOomTraceback()), stream(WANDB_EXIT), stream(accelerateFailure())],
  }),
  'old-log': () => ({ outputs: [stream(`${SHELL_PROGRESS}${childOomTraceback()}`)] }),
  'bash-oom': () => ({
    outputs: [stream(SHELL_PROGRESS), stream(childOomTraceback(), 'stderr')],
    fail: bashError(),
  }),
  'python-killed': () => ({
    outputs: [
      stream(`${SHELL_PROGRESS}loading the validation set into RAM\n`),
      stream('/bin/bash: line 1:  2292 Killed                  python3 train.py\n'),
    ],
  }),
  'logged-oom-finished': () => ({
    outputs: [
      stream(SHELL_PROGRESS),
      stream(`CUDA OOM in batch 250, skipping it:\n${childOomTraceback()}`),
      stream('epoch 1/3: step 300/2300 loss=0.6904\nepoch 3/3: step 2300/2300 loss=0.2113\n'),
      stream('Training complete. Model saved to /content/output\n'),
    ],
  }),
};

/** A ready-made run of a shell cell (a fresh object each call). */
export function shellRun(ending: ShellEnding): RunSpec {
  return SHELL_RUNS[ending]();
}
