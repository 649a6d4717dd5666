import { describe, expect, it } from 'vitest';
import { LAUNCH_HINT, launchesProgram } from './launchers';

/** Cells that launch a program that could be training: their stream's end is judged. */
const LAUNCHERS = [
  '!python train.py',
  '!python3 -u train.py --epochs 3',
  '!/usr/bin/python3.11 train.py',
  '!python -m torch.distributed.run --nproc_per_node 2 train.py',
  '!python3 -W ignore -X importtime train.py',
  '!{sys.executable} train.py',
  '  !accelerate launch --mixed_precision fp16 train.py',
  '!accelerate launch \\\n  --num_processes 1 \\\n  train_network.py',
  '!torchrun --nproc_per_node=2 train.py',
  '!deepspeed train.py --deepspeed ds_config.json',
  '!autotrain llm --train --project-name my-llm --model tiiuae/falcon-7b-instruct',
  '!bash train.sh',
  '!sh -x scripts/run.sh',
  '!bash -c "cd /content/repo && python train.py"',
  '!./darknet detector train data/obj.data cfg/yolov4.cfg yolov4.conv.137 -dont_show',
  '!../build/train --config cfg.yml',
  '!cd /content/kohya && accelerate launch train_network.py',
  '!CUDA_VISIBLE_DEVICES=0 nohup python train.py > train.log 2>&1',
  '!timeout 3600 python train.py | tee train.log',
  '!env PYTHONUNBUFFERED=1 python train.py',
  'out = !python evaluate.py',
  '%sx python train.py',
  '%%bash\npython train.py',
  '%%bash\ncd /content\n# train\npython train.py --seed 1\necho done',
  '%%sh\ntorchrun train.py',
  '%%shell\n./train.sh',
  '%%script bash\naccelerate launch train.py',
  '%%capture log\n!python train.py',
  "import subprocess\nsubprocess.run(['python', 'train.py'], check=True)",
  'import subprocess, sys\nsubprocess.check_call([sys.executable, "-m", "trainer", "--epochs", "3"])',
  'subprocess.run(\n    [\n        sys.executable,\n        script_path,\n    ],\n    check=True,\n)',
  "subprocess.Popen('torchrun train.py', shell=True).wait()",
  'os.system(f"python {script} --lr {lr}")',
  "get_ipython().system('python train.py')",
  'for seed in range(3):\n    !python train.py --seed {seed}',
];

/** Cells that read or fetch, install, print, or launch nothing the detector can read. */
const NOT_LAUNCHERS = [
  '!tail -n 40 train.log',
  '!cat nohup.out',
  '!less log.txt',
  '!head -100 log.txt',
  '!grep -A5 Error log.txt',
  "!awk '/Traceback/,0' log.txt",
  "!sed -n '/Error/p' log.txt",
  '!echo "python train.py"',
  '!ls -la /content',
  '!nvidia-smi',
  '!pip install accelerate',
  '!python -m pip install -U transformers',
  '!{sys.executable} -m pip install wandb',
  '!python --version',
  '!python -c "import torch; print(torch.cuda.is_available())"',
  '!wget https://example.com/model.bin',
  '!curl -L -o data.zip https://example.com/data.zip',
  '!git clone https://github.com/kohya-ss/sd-scripts',
  '!accelerate config default',
  '!bash',
  '%%bash\ntail -n 40 train.log\ngrep -c OutOfMemoryError train.log',
  '%%writefile train.py\nimport subprocess\nsubprocess.run(["python", "inner.py"])',
  '%%script python3\nprint("hi")',
  '%%html\n<pre>!python train.py</pre>',
  "import subprocess\nsubprocess.run(['tail', '-n', '40', 'train.log'])",
  'subprocess.run(cmd, check=True)',
  "os.system('nvidia-smi')",
  'try:\n    train()\nexcept torch.OutOfMemoryError:\n    traceback.print_exc()',
  'x = 1 != 2',
  'print("run !python train.py in a terminal")',
  '%time train()',
  '%run train.py',
  '',
];

describe('launchesProgram: the cells whose stream end is judged', () => {
  it.each(LAUNCHERS)('%j launches', (source) => {
    expect(launchesProgram(source)).toBe(true);
  });

  it.each(NOT_LAUNCHERS)('%j does not', (source) => {
    expect(launchesProgram(source)).toBe(false);
  });

  it('a shell cell holding one launcher among log reads launches', () => {
    expect(launchesProgram('%%bash\ntail -n 5 old.log\npython train.py')).toBe(true);
  });
});

describe('LAUNCH_HINT: the quick look at the editor text before reading its lines', () => {
  it('lets every launching source through, its lines run together', () => {
    for (const source of LAUNCHERS) expect(LAUNCH_HINT.test(source.replaceAll('\n', ''))).toBe(true);
  });

  it('turns away a Python cell with none of the marks', () => {
    expect(LAUNCH_HINT.test('model.fit(x, y, epochs=3)history = model.history')).toBe(false);
  });
});

describe('launchesProgram: how the shell and IPython read a cell', () => {
  /** Each case: the cell, whether it launches, and why (the shell's or IPython's rule it depends on). */
  const CASES: [string, boolean, string][] = [
    ['\n%%bash\npython train.py', true, 'IPython drops blank lines before a cell magic'],
    ['   \n%%bash\npython train.py', true, 'a line of spaces is blank too'],
    ['  %%bash\n  python train.py', true, 'IPython drops the indentation of an indented cell'],
    ['%%capture log\n!python train.py\nprint("done")', true, 'a launcher before the last line of a %%capture cell'],
    ['!python \\\n  -m pip install -U transformers', false, 'a continued line is one command: pip'],
    ['!python train.py \\', true, 'a cell that ends in a continuation still runs its command'],
    ['!echo "done; python train.py"', false, 'a `;` in double quotes separates nothing'],
    ["!echo 'done; python train.py'", false, 'a `;` in single quotes separates nothing'],
    ['!echo "x" ; python train.py', true, 'the quote closes at its partner'],
    ['!bash -c "python train.py"', true, 'a quoted command is one word'],
    ['!echo "say \\"hi\\"; python train.py"', false, 'an escaped double quote leaves the quote open'],
    ["!echo 'C:\\' && python train.py", true, 'a backslash escapes nothing in single quotes'],
    ['!bash -c "echo \\"; python train.py\\""', false, 'the escaped quotes quote the inner `;`'],
    ['!echo done\\; python train.py', false, 'an escaped `;` is a character of the word'],
    ['!\\python train.py', true, 'a backslash before a letter is the letter (bypassing an alias)'],
    ['!echo hi # ; python train.py', false, 'a comment ends the line'],
    ['!echo issue#1; python train.py', true, 'a `#` inside a word starts no comment'],
    ['!> train.log python train.py', true, 'a redirection and its target come before the program'],
    ['!>train.log python train.py', true, 'a redirection glued to its target is one word'],
    ['!time -p python train.py', true, "`time`'s own option before the program"],
    ['!nice -n 10 python train.py', true, "`nice`'s option and its value before the program"],
    ['!CUDA_LAUNCH_BLOCKING=1', false, 'an assignment alone runs nothing'],
    ['!/usr/bin/../bin/nvidia-smi', false, 'a path through `..` is judged by its program'],
    ['!torchrun --help', false, 'torchrun with options only'],
    ['!autotrain llm --help', false, 'autotrain without --train or --config'],
    ['!autotrain --config config.yml', true, 'autotrain --config, its value apart'],
    ['!autotrain --config=config.yml', true, 'autotrain --config=, its value glued'],
    ['!python', false, 'python without a script reads its input'],
    ['!python -m', false, '`-m` without a module runs nothing'],
    ['!python -X importtime -c "import torch"', false, "`-X`'s value is not a script"],
    ['!python -W ignore -m pip install wandb', false, "`-W`'s value is not a script"],
    ['!python -u -m pip install wandb', false, 'an option before `-m pip`'],
    ['!bash --version', false, 'bash with options only'],
    ['!bash -e +x', false, "bash's `+` options are options too"],
    ['!bash -c "echo hi"', false, 'bash -c runs only its command'],
    ['%%bash\npython - --epochs 3 <<EOF\nprint(1)\nEOF', false, '`python -` runs what its input holds, not a script'],
  ];
  it.each(CASES)('%j: %s (%s)', (source, launches) => {
    expect(launchesProgram(source)).toBe(launches);
  });
});

describe('launchesProgram: process calls whose command is a literal', () => {
  const CASES: [string, boolean, string][] = [
    ["subprocess.run(('python', 'train.py'))", true, 'a tuple is a list of words too'],
    ["subprocess.run(['python', 'train.py',", false, 'an unfinished list is no command (a syntax error)'],
    ["subprocess.run([sys_executable, 'train.py'])", false, 'a variable is not sys.executable'],
    ["subprocess.run(['python' 'train.py'])", false, "Python joins adjacent strings: one word, 'pythontrain.py'"],
    [
      "subprocess.run([sys.executable, os.path.join('src', 'train.py'), '--lr', '3e-4'])",
      true,
      'an expression with commas of its own is one word',
    ],
    ['subprocess.run([sys.executable, script])', true, 'a variable last in the list is a word'],
    ["subprocess.run([sys.executable, '-W', warnings, 'train.py'])", true, 'a variable between strings is one word'],
    ['subprocess.run([sys.executable, s, "--seed", "1"])', true, 'a short variable before a string'],
    ['os.system("python train.py\n")', false, 'a quote left open at the line end (a syntax error)'],
    ['subprocess.run("""\npython train.py\n""", shell=True)', true, 'a triple-quoted string spans lines'],
    ['os.system("echo \\"x\\"; python train.py")', true, "Python's escaped quote inside the string"],
    ['os.system("bash -c \\"python train.py\\"")', true, 'the escaped quotes make one word for bash -c'],
  ];
  it.each(CASES)('%j: %s (%s)', (source, launches) => {
    expect(launchesProgram(source)).toBe(launches);
  });
});
