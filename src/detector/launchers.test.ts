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
