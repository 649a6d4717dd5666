import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSpec } from '../../e2e/colab-sim/scenario';
import { type ShellEnding, shellRun } from '../../e2e/colab-sim/texts';
import { ALL_ON, configWith, DEFAULTS } from '../../test/support/detector-configs';
import { createDetector } from './index';
import { classifyShellEnd } from './shell-tail';
import type { Category, Verdict } from './types';

/** README: "the guard reads the last 16 KiB of what it printed". */
const MAX_SHELL_TAIL_CHARS = 16 * 1024;

interface TailRecord {
  id: string;
  label: string;
  text: string;
  cellEnd: 'no-error' | 'called-process-error';
  errorOutput?: string;
  source: string;
}

// Launcher tails copied from public issues (test/fixtures/README.md).
const FIXTURE = resolve(import.meta.dirname, '../../test/fixtures/oom-corpus/launcher-tails.jsonl');
const records: TailRecord[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as TailRecord);

const CATEGORY_OF_LABEL: Record<string, Category> = { cuda_oom: 'gpu-oom', cpu_ram_oom: 'host-ram' };

const classify = (stream: string, error: string | null = null, config = DEFAULTS): Verdict | null =>
  createDetector(config).classifyShellEnd({ stream, error });

describe('launcher tails from public issues', () => {
  it('every record names its source, and says how its cell ends', () => {
    for (const record of records) {
      expect(record.source).toMatch(/^https:\/\/github\.com\//);
      expect(record.cellEnd === 'called-process-error').toBe(record.errorOutput !== undefined);
    }
    expect(records.filter((r) => r.label === 'negative').length).toBeGreaterThan(0);
  });

  const positives = records.filter((r) => r.label !== 'negative');
  it.each(positives)('$id is $label', ({ label, text, errorOutput }) => {
    expect(classify(text, errorOutput ?? null)?.category).toBe(CATEGORY_OF_LABEL[label]);
  });

  const negatives = records.filter((r) => r.label === 'negative');
  it.each(negatives)('$id: nothing, with every category on', ({ text, errorOutput }) => {
    expect(classify(text, errorOutput ?? null, ALL_ON)).toBeNull();
  });
});

describe('the main corpus read as shell tails', () => {
  const corpus = readFileSync(resolve(import.meta.dirname, '../../test/fixtures/oom-corpus/corpus.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TailRecord);
  it.each(corpus.filter((r) => r.label === 'negative'))('$id: nothing, with every category on', ({ text }) => {
    expect(classify(text, null, ALL_ON)).toBeNull();
  });
});

// Hand-written tails in the formats of the records above and of the launchers' sources.
const CUDA_OOM =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 14.74 GiB ' +
  'of which 6.12 MiB is free. Process 8417 has 14.73 GiB memory in use.';

const childTraceback = (prefix = '', last = CUDA_OOM) =>
  [
    'Traceback (most recent call last):',
    '  File "/content/train.py", line 88, in <module>',
    '    main()',
    '  File "/content/train.py", line 61, in main',
    '    loss = model(batch).loss',
    '           ^^^^^^^^^^^^',
    last,
  ]
    .map((line) => prefix + line)
    .join('\n');

const accelerateTail = (status = 'returned non-zero exit status 1.') =>
  [
    'Traceback (most recent call last):',
    '  File "/usr/local/bin/accelerate", line 8, in <module>',
    '    sys.exit(main())',
    '  File "/usr/local/lib/python3.12/dist-packages/accelerate/commands/launch.py", line 1106, in launch_command',
    '    simple_launcher(args)',
    '  File "/usr/local/lib/python3.12/dist-packages/accelerate/commands/launch.py", line 704, in simple_launcher',
    '    raise subprocess.CalledProcessError(returncode=process.returncode, cmd=cmd)',
    `subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train.py']' ${status}`,
  ].join('\n');

const torchrunTail = (exitcode = '1 (pid: 907695)', traceback = 'To enable traceback see: https://pytorch.org') =>
  [
    '[rank0]:[W819 19:29:00.828498674 ProcessGroupNCCL.cpp:1168] Warning: WARNING: process group has NOT been ' +
      'destroyed before we destruct ProcessGroupNCCL.',
    'E0819 19:29:01.101000 140406652626752 torch/distributed/elastic/multiprocessing/api.py:869] failed ' +
      '(exitcode: 1) local_rank: 0 (pid: 907695) of binary: /usr/bin/python3',
    'Traceback (most recent call last):',
    '  File "/usr/local/bin/torchrun", line 8, in <module>',
    '    sys.exit(main())',
    '  File "/usr/local/lib/python3.12/dist-packages/torch/distributed/launcher/api.py", line 269, in launch_agent',
    '    raise ChildFailedError(',
    'torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ',
    '============================================================',
    'train.py FAILED',
    '------------------------------------------------------------',
    'Failures:',
    '  <NO_OTHER_FAILURES>',
    '------------------------------------------------------------',
    'Root Cause (first observed failure):',
    '[0]:',
    '  time      : 2026-02-05_01:02:51',
    '  host      : 4b9c1f2e7a10',
    '  rank      : 0 (local_rank: 0)',
    `  exitcode  : ${exitcode}`,
    '  error_file: <N/A>',
    `  traceback : ${traceback}`,
    '============================================================',
  ].join('\n');

const BASH_ERROR = [
  '---------------------------------------------------------------------------',
  'CalledProcessError                        Traceback (most recent call last)',
  "<ipython-input-3-9f1c> in <cell line: 0>()\n----> 1 get_ipython().run_cell_magic('bash', '', 'python train.py\\n')",
  '',
  "CalledProcessError: Command 'b'python train.py\\n'' returned non-zero exit status 1.",
].join('\n');

const lines = (...parts: string[]) => parts.join('\n');

describe('the launchers', () => {
  it('`!python train.py`: the traceback is the last thing printed', () => {
    const verdict = classify(lines('epoch 1/3', childTraceback()));
    expect(verdict).toMatchObject({ category: 'gpu-oom', rule: 'shell:torch-cuda-oom', line: CUDA_OOM });
    expect(verdict?.description).toMatch(/shell cell/);
  });

  it("a traceback glued to a progress bar is read only within a line's first 4 KiB", () => {
    const glued = (bar: number) => `${'#'.repeat(bar)}${childTraceback()}`;
    expect(classify(glued(4000))).toMatchObject({ category: 'gpu-oom' });
    expect(classify(glued(4096))).toBeNull();
  });

  it('`!accelerate launch`: its own traceback ends in CalledProcessError, after the bar redrawn at exit', () => {
    const stream = lines(childTraceback(), 'steps:   0% 0/2300 [00:01<?, ?it/s]', accelerateTail());
    expect(classify(stream)).toMatchObject({ category: 'gpu-oom', line: CUDA_OOM });
  });

  it('`!accelerate launch`: a child that died of SIGKILL is host RAM, whatever it printed before', () => {
    const stream = lines(childTraceback(), accelerateTail('died with <Signals.SIGKILL: 9>.'));
    expect(classify(stream)).toMatchObject({ category: 'host-ram', rule: 'shell-killed' });
  });

  it('`!torchrun`: rank-prefixed child lines, the agent log, the failure box', () => {
    expect(classify(lines(childTraceback('[rank0]: '), torchrunTail()))?.category).toBe('gpu-oom');
  });

  it('`!torchrun`: a root cause killed by SIGKILL is host RAM', () => {
    const box = torchrunTail('-9 (pid: 208585)', 'Signal 9 (SIGKILL) received by PID 208585');
    expect(classify(lines('step 10/100', box))).toMatchObject({
      category: 'host-ram',
      line: 'exitcode  : -9 (pid: 208585)',
    });
  });

  it("`!accelerate launch` on several GPUs: torchrun's box, then accelerate's own traceback", () => {
    const multi = accelerateTail().replace("['/usr/bin/python3', 'train.py']", "['torchrun', 'train.py']");
    expect(classify(lines(childTraceback('[rank0]: '), torchrunTail(), multi))?.category).toBe('gpu-oom');
  });

  it("DeepSpeed's launcher: `exits with return code = 1` after killing the other ranks", () => {
    const stream = lines(
      childTraceback('[rank0]: '),
      '[2024-10-01 01:17:14,554] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 198906',
      "[2024-10-01 01:17:14,772] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', " +
        "'--local_rank=1'] exits with return code = 1",
    );
    expect(classify(stream)?.category).toBe('gpu-oom');
  });

  it('`%%bash`: the traceback in the stream, CalledProcessError as the only error output', () => {
    expect(classify(childTraceback(), BASH_ERROR)?.category).toBe('gpu-oom');
    const killed = BASH_ERROR.replace('returned non-zero exit status 1.', 'died with <Signals.SIGKILL: 9>.');
    expect(classify('epoch 1/3', killed)?.category).toBe('host-ram');
    expect(classify('epoch 1/3\nbash: line 1:   412 Killed   python train.py', BASH_ERROR)?.category).toBe('host-ram');
  });

  it('a cell that ended with any other error output is left to the error-output classifier', () => {
    const valueError = BASH_ERROR.replace(/CalledProcessError: Command .*$/, 'ValueError: bad batch');
    expect(classify(childTraceback(), valueError)).toBeNull();
  });

  it('a launcher failure without a child traceback says nothing about memory', () => {
    expect(classify(lines('loading data', accelerateTail()))).toBeNull();
    expect(classify(lines('loading data', torchrunTail()))).toBeNull();
  });

  it('respects switched-off categories', () => {
    const noGpu = configWith({ 'gpu-oom': false });
    expect(classify(childTraceback(), null, noGpu)).toBeNull();
    expect(classify('training...\nKilled', null, configWith({ 'host-ram': false }))).toBeNull();
  });
});

describe("W&B's exit summary after the child's traceback (a run that logs to W&B)", () => {
  /** wandb's terminal form at exit (its `wandb:` prefix on every line, some coloured), after an uncaught error. */
  const WANDB_EXIT = [
    '\u001b[34m\u001b[1mwandb\u001b[0m: Waiting for W&B process to finish... \u001b[31m(failed 1).\u001b[0m Press ' +
      'Control-C to abort syncing.',
    'wandb: ',
    'wandb: Run history:',
    'wandb:   train/loss █▆▅▃▂▁',
    'wandb: train/lr ▁▃▅▇██',
    'wandb:',
    'wandb: Run summary:',
    'wandb:   train/loss 0.41237',
    'wandb: ',
    'wandb: 🚀 View run glorious-sun-12 at: https://wandb.ai/me/llm/runs/3f9x2k1a',
    'wandb: ⭐️ View project at: https://wandb.ai/me/llm',
    'wandb: Synced 5 W&B file(s), 0 media file(s), 2 artifact file(s) and 0 other file(s)',
    'wandb: Find logs at: ./wandb/run-20261128_031502-3f9x2k1a/logs',
  ].join('\n');

  it('`!python train.py`: the traceback, then the summary: the traceback still ends the stream', () => {
    expect(classify(lines('epoch 1/3', childTraceback(), WANDB_EXIT))).toMatchObject({
      category: 'gpu-oom',
      line: CUDA_OOM,
    });
  });

  it("`!accelerate launch`: the child's traceback, its summary, then accelerate's own traceback", () => {
    expect(classify(lines(childTraceback(), WANDB_EXIT, accelerateTail()))?.category).toBe('gpu-oom');
  });

  it('`!torchrun`: rank-prefixed summary lines', () => {
    const ranked = WANDB_EXIT.split('\n').map((line) => `[rank0]: ${line}`);
    expect(classify(lines(childTraceback('[rank0]: '), ...ranked, torchrunTail()))?.category).toBe('gpu-oom');
  });

  it('a run that logged an OOM, went on and finished: still nothing after its summary', () => {
    const stream = lines(childTraceback(), 'skipping batch 1834', 'Training complete.', WANDB_EXIT);
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it('only lines that start with `wandb:` are skipped', () => {
    expect(classify(lines(childTraceback(), 'syncing wandb: done'), null, ALL_ON)).toBeNull();
  });
});

describe('a process killed by SIGKILL (REFERENCE §12.8)', () => {
  it("bash's job line on Colab: `/bin/bash: line 1: <pid> Killed <command>`", () => {
    const stream = lines(
      'loading the validation set',
      '/bin/bash: line 1:  4012 Killed                  python3 train.py',
    );
    expect(classify(stream)).toMatchObject({ category: 'host-ram', rule: 'shell-killed' });
  });

  it('a `%%bash` cell whose command the OOM killer ended: its error says 137 or SIGKILL', () => {
    const status137 = BASH_ERROR.replace('exit status 1.', 'exit status 137.');
    expect(classify('epoch 1/3', status137)?.category).toBe('host-ram');
  });
});

describe('not a death by out of memory', () => {
  it('a traceback the code logged before going on', () => {
    const stream = lines(childTraceback(), 'skipping batch 1834', 'epoch 2/3: loss=0.412', 'saving checkpoint-2000');
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it('a traceback in the middle, then normal progress to the end of the bar', () => {
    const stream = lines(childTraceback(), 'Training: 100%|██████████| 500/500 [04:12<00:00,  1.98it/s]');
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it('a bar that kept advancing after the traceback (each redraw a line)', () => {
    const redraws = ['\rTraining:  40%|████      | 200/500', '\rTraining:  41%|████      | 205/500', '\rT 42% 210/500']
      .map((bar) => `${bar} [01:40<02:30,  2.00it/s]`)
      .join('');
    expect(classify(lines(childTraceback(), redraws), null, ALL_ON)).toBeNull();
  });

  it("the person's Stop while the program handled an OOM: KeyboardInterrupt chained after it", () => {
    const stream = lines(
      childTraceback(),
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      childTraceback('', 'KeyboardInterrupt'),
    );
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it('a final exception that is not out of memory', () => {
    expect(
      classify(childTraceback('', 'ValueError: Expected input batch_size (32) to match target'), null, ALL_ON),
    ).toBeNull();
  });

  it('an exception line without its traceback', () => {
    expect(classify(lines('epoch 1/3', CUDA_OOM), null, ALL_ON)).toBeNull();
  });

  it('an OOM traceback older than the last 16 KiB of the stream', () => {
    const progress = 'step 1234/100000 loss=0.1234\n'.repeat(Math.ceil(MAX_SHELL_TAIL_CHARS / 28) + 1);
    expect(classify(lines(childTraceback(), progress), null, ALL_ON)).toBeNull();
  });
});

describe('how tracebacks really look', () => {
  it('chained: the OOM, then `During handling of the above exception`, then the exception that ended the run', () => {
    const stream = lines(
      childTraceback(),
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      childTraceback('', 'RuntimeError: training failed, see above'),
    );
    expect(classify(stream)).toMatchObject({ category: 'gpu-oom', line: CUDA_OOM });
  });

  it('ANSI colour codes around the exception', () => {
    const colored = childTraceback('', `\u001b[31m${CUDA_OOM}\u001b[0m`);
    expect(classify(lines(colored, '\u001b[0m'))?.category).toBe('gpu-oom');
  });

  it('Windows line ends (a pty turns \\n into \\r\\n)', () => {
    expect(classify(lines(childTraceback(), accelerateTail()).replaceAll('\n', '\r\n'))?.category).toBe('gpu-oom');
  });

  it('a traceback whose header the tail bound cut off', () => {
    const frames = '  File "/content/model.py", line 12, in forward\n    return self.block(x)\n'.repeat(400);
    const stream = `Traceback (most recent call last):\n${frames}${CUDA_OOM}`;
    expect(stream.length).toBeGreaterThan(MAX_SHELL_TAIL_CHARS);
    expect(classify(stream)?.category).toBe('gpu-oom');
  });

  it('the header glued to a progress bar that had no newline', () => {
    const stream = childTraceback().replace('Traceback', 'steps:   0%|          | 1/1600 [00:00<20:09]Traceback');
    expect(classify(stream)?.category).toBe('gpu-oom');
  });

  it("CUDA error: out of memory, with PyTorch's hint lines after the message", () => {
    const stream = childTraceback('', 'torch.AcceleratorError: CUDA error: out of memory').concat(
      "\nSearch for `cudaErrorMemoryAllocation' in https://docs.nvidia.com/cuda/ for more information.",
      '\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be',
      '\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1',
      '\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n',
    );
    expect(classify(stream)?.rule).toBe('shell:cuda-error-oom');
  });

  it("TensorFlow's multi-line graph error", () => {
    const message = [
      'tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:',
      '',
      "Detected at node 'model/conv2d_3/Conv2D' defined at (most recent call last):",
      '    File "/content/train.py", line 40, in <module>',
      "Node: 'model/conv2d_3/Conv2D'",
      'OOM when allocating tensor with shape[64,256,56,56] and type float on ' +
        '/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
      '\t [[{{node model/conv2d_3/Conv2D}}]]',
      'Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom.',
      ' [Op:__inference_train_function_1234]',
    ].join('\n');
    expect(classify(childTraceback('', message))?.category).toBe('tf-oom');
  });

  it("rich's boxed tracebacks (kohya on Colab, accelerate ≤0.20), messages wrapped at the console width", () => {
    const box = (frame: string) =>
      [
        `╭${'─'.repeat(31)} Traceback (most recent call last) ${'─'.repeat(32)}╮`,
        `│ ${frame.padEnd(96)} │`,
        `╰${'─'.repeat(98)}╯`,
      ].join('\n');
    const stream = lines(
      box('/content/kohya-trainer/train_network.py:873 in <module>'),
      'OutOfMemoryError: CUDA out of memory. Tried to allocate 1024.00 MiB (GPU 0; 14.75 GiB total capacity; 12.19',
      'GiB already allocated; 0 bytes free; 12.68 GiB reserved in total by PyTorch)',
      box('/usr/local/lib/python3.10/dist-packages/accelerate/commands/launch.py:567 in simple_launcher'),
      "CalledProcessError: Command '['/usr/bin/python3', 'train_network.py', ",
      "'--dataset_config=/content/LoRA/config/dataset_config.toml']' returned non-zero",
      'exit status 1.',
    );
    expect(classify(stream)?.category).toBe('gpu-oom');
  });

  it('reads the tail only, so a megabyte of output costs what 16 KiB does', () => {
    const stream = `${'step 1/10 loss=0.5\n'.repeat(60_000)}${childTraceback()}`;
    expect(classifyShellEnd({ stream, error: null }, () => true)?.category).toBe('gpu-oom');
  });
});

describe("the simulator's shell endings read as the page will read them", () => {
  const ended = (run: RunSpec) => {
    const stream = (run.outputs ?? []).map((out) => (out.type === 'stream' ? out.text : '')).join('');
    const fail = run.fail;
    const error = typeof fail === 'object' && fail.traceback ? [fail.traceback].flat().join('\n') : null;
    return { stream, error };
  };
  const expected: Record<ShellEnding, Category | null> = {
    'accelerate-oom': 'gpu-oom',
    'bash-oom': 'gpu-oom',
    'python-killed': 'host-ram',
    'logged-oom-finished': null,
    'accelerate-oom-wandb': 'gpu-oom',
    // An old log ending in a traceback reads as a death: only the launcher list (launchers.ts) tells it apart.
    'old-log': 'gpu-oom',
  };
  it.each(Object.entries(expected))('%s: %s', (ending, category) => {
    const verdict = createDetector(DEFAULTS).classifyShellEnd(ended(shellRun(ending as ShellEnding)));
    expect(verdict?.category ?? null).toBe(category);
  });
});

describe("the cell's error output, read to its last line", () => {
  it('a CalledProcessError of one line, or with a line end after it, or padded', () => {
    const last = BASH_ERROR.split('\n').at(-1) ?? '';
    expect(classify(childTraceback(), last)?.category).toBe('gpu-oom');
    expect(classify(childTraceback(), `${BASH_ERROR}\n`)?.category).toBe('gpu-oom');
    expect(classify(childTraceback(), `${BASH_ERROR}  `)?.category).toBe('gpu-oom');
  });

  it('any other error whose message reads like an exit status is left to the error-output classifier', () => {
    const runtime = BASH_ERROR.replace(/CalledProcessError: /, 'RuntimeError: ');
    expect(classify(childTraceback(), runtime, ALL_ON)).toBeNull();
  });

  it("a CalledProcessError whose status the guard cannot read (Python's `died with unknown signal`)", () => {
    const unknown = BASH_ERROR.replace('returned non-zero exit status 1.', 'died with unknown signal 65.');
    expect(classify(childTraceback(), unknown, ALL_ON)).toBeNull();
    const stream = lines(childTraceback(), accelerateTail('died with unknown signal 65.'));
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });
});

describe('the launchers, at the edges of their output', () => {
  it("a bar stopped at 999/1000, which tqdm shows as 100%, is the dying script's last redraw", () => {
    const stream = lines(
      childTraceback(),
      'steps: 100%|█████████▉| 999/1000 [10:00<00:00, 1.66it/s]',
      accelerateTail(),
    );
    expect(classify(stream)?.category).toBe('gpu-oom');
  });

  it("output after torchrun's failure box (the notebook went on) is no death", () => {
    const stream = lines(childTraceback('[rank0]: '), torchrunTail(), 'Restarting from checkpoint-2000');
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it("torchrun's root cause decides, not another rank's failure listed above it", () => {
    const box = torchrunTail().replace(
      '  <NO_OTHER_FAILURES>',
      [
        '[1]:',
        '  time      : 2026-02-05_01:02:51',
        '  rank      : 1 (local_rank: 1)',
        '  exitcode  : -9 (pid: 907696)',
      ].join('\n'),
    );
    expect(classify(lines(childTraceback('[rank0]: '), box))?.category).toBe('gpu-oom');
  });

  it('a kill names SIGKILL, with the launcher line that says so in full', () => {
    const stream = lines(
      rich('/content/kohya-trainer/train_network.py:873 in <module>'),
      'OutOfMemoryError: CUDA out of memory.',
      rich('/usr/local/lib/python3.10/dist-packages/accelerate/commands/launch.py:567 in simple_launcher'),
      "CalledProcessError: Command '['/usr/bin/python3', 'train_network.py']' died with",
      '<Signals.SIGKILL: 9>.',
    );
    expect(classify(stream)).toMatchObject({
      category: 'host-ram',
      line: "CalledProcessError: Command '['/usr/bin/python3', 'train_network.py']' died with <Signals.SIGKILL: 9>.",
    });
    expect(classify(stream)?.description).toMatch(/SIGKILL/);
  });
});

/** rich's boxed traceback of one frame. */
const rich = (frame: string) =>
  [
    `╭${'─'.repeat(31)} Traceback (most recent call last) ${'─'.repeat(32)}╮`,
    `│ ${frame.padEnd(96)} │`,
    `╰${'─'.repeat(98)}╯`,
  ].join('\n');

describe('what a traceback needs to be one', () => {
  it('a header and indented lines without a single frame is not one', () => {
    const stream = lines('Traceback (most recent call last):', '    <frames not shown>', CUDA_OOM);
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it('a rich box whose footer does not close is not one', () => {
    const open = rich('/content/train.py:88 in <module>').replace(/╰─+╯$/, '╰──── (cut)');
    expect(classify(lines(open, CUDA_OOM), null, ALL_ON)).toBeNull();
  });

  it('a chained traceback whose last exception line never came (the program killed while printing it)', () => {
    const frames = childTraceback().split('\n').slice(0, -1);
    const stream = lines(
      childTraceback(),
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      ...frames,
    );
    expect(classify(stream, null, ALL_ON)).toBeNull();
    expect(classify(lines(stream, 'Fatal Python error: Aborted'), null, ALL_ON)).toBeNull();
    // Then W&B's summary, whose `wandb:` lines read like an exception line.
    const summary = 'wandb: Waiting for W&B process to finish... (failed 1).';
    expect(classify(lines(stream, summary), null, ALL_ON)).toBeNull();
  });

  it('a traceback logged earlier is no link of the chain that ended the run', () => {
    const stream = lines(childTraceback(), 'skipping batch 1834', childTraceback('', 'ValueError: bad batch'));
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it('a chain whose first link is older than the tail: its last traceback decides', () => {
    const stream = lines('During handling of the above exception, another exception occurred:', '', childTraceback());
    expect(classify(stream)?.category).toBe('gpu-oom');
  });

  it("rich's message wrapped over a dozen lines is one message; output after a rich traceback is not", () => {
    const wrapped = Array.from({ length: 12 }, (_, i) => `GiB reserved in total by PyTorch, line ${i} of the wrap`);
    const box = rich('/content/kohya-trainer/train_network.py:873 in <module>');
    expect(classify(lines(box, 'OutOfMemoryError: CUDA out of memory. Tried to allocate', ...wrapped))?.category).toBe(
      'gpu-oom',
    );
    const wentOn = Array.from({ length: 20 }, (_, i) => `epoch ${i + 2}/30: loss=0.41`);
    expect(classify(lines(box, 'OutOfMemoryError: CUDA out of memory.', ...wentOn), null, ALL_ON)).toBeNull();
  });

  it('a message of a hundred indented lines (an XLA buffer dump) is one; more means the run went on', () => {
    const dump = (n: number) => Array.from({ length: n }, (_, i) => `\tBuffer ${i}: 1.00GiB, operand 0 of fusion.${i}`);
    expect(classify(lines(childTraceback(), ...dump(100)))?.category).toBe('gpu-oom');
    expect(classify(lines(childTraceback(), ...dump(101)), null, ALL_ON)).toBeNull();
  });
});

describe("accelerate's CalledProcessError line, and what may follow it", () => {
  it('a line the cell printed after it is no part of it, even one that ends like an exit status', () => {
    const stream = lines(childTraceback(), accelerateTail(), 'retry 1 of 3 returned non-zero exit status 1.');
    expect(classify(stream, null, ALL_ON)).toBeNull();
  });

  it('rich wraps it over at most a dozen lines', () => {
    const wrappedCommand = (n: number) => [
      "CalledProcessError: Command '['/usr/bin/python3', 'train_network.py',",
      ...Array.from({ length: n - 2 }, (_, i) => `'--option_${i}=value_${i}',`),
      "'--seed=1']' returned non-zero exit status 1.",
    ];
    const stream = (n: number) =>
      lines(
        rich('/content/kohya-trainer/train_network.py:873 in <module>'),
        'OutOfMemoryError: CUDA out of memory.',
        rich('/usr/local/lib/python3.10/dist-packages/accelerate/commands/launch.py:567 in simple_launcher'),
        ...wrappedCommand(n),
      );
    expect(classify(stream(12))?.category).toBe('gpu-oom');
    expect(classify(stream(13), null, ALL_ON)).toBeNull();
  });
});
