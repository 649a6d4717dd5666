// Outputs written from the corpus README's format descriptions (not copies of corpus records): each framework's
// message generations, the wrappers and prefixes around them, and the hard negatives.
import { describe, expect, it } from 'vitest';
import { ALL_ON, DEFAULTS } from '../../test/support/detector-configs';
import { createDetector, endsInInterrupt, testOutput } from './index';

const lines = (...parts: string[]): string => parts.join('\n');

const TORCH_25 =
  'CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 14.74 GiB of which 1.12 GiB is ' +
  'free. ' +
  'Process 4312 has 13.61 GiB memory in use. Of the allocated memory 12.90 GiB is allocated by PyTorch, and 512.33 ' +
  'MiB ' +
  'is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting ' +
  'PYTORCH_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  ' +
  '(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)';
const TORCH_1X =
  'CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 7.79 GiB total capacity; 6.50 GiB already allocated; ' +
  '12.19 MiB free; 6.71 GiB reserved in total by PyTorch)';

const IPYTHON_FRAMES = lines(
  'Cell In[7], line 3',
  '      1 for epoch in range(10):',
  '----> 3     loss = train_one_epoch(model, loader)',
  '',
  'File /usr/local/lib/python3.11/dist-packages/torch/nn/modules/module.py:1750, in Module._call_impl(self, *args, ' +
    '**kwargs)',
  '   1749 def _call_impl(self, *args, **kwargs):',
  '-> 1750     return forward_call(*args, **kwargs)',
);

interface Case {
  name: string;
  text: string;
  category: string;
  rule?: string;
}

const positives: Case[] = [
  // PyTorch GPU memory, every generation.
  {
    name: 'PyTorch 2.5 in Colab: header row, frames, short class name, PYTORCH_ALLOC_CONF wording',
    text: lines(
      'OutOfMemoryError                          Traceback (most recent call last)',
      IPYTHON_FRAMES,
      `OutOfMemoryError: ${TORCH_25}`,
    ),
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
  },
  {
    name: 'IPython header row alone, when the last line was cut off',
    text: lines(
      '---------------------------------------------------------------------------',
      'OutOfMemoryError                          Traceback (most recent call last)',
      IPYTHON_FRAMES,
    ),
    category: 'gpu-oom',
    rule: 'oom-error-class',
  },
  {
    name: 'OOM followed by "During handling of the above exception"',
    text: lines(
      'Traceback (most recent call last):',
      '  File "train.py", line 88, in step',
      '    out = model(batch)',
      `torch.OutOfMemoryError: ${TORCH_25}`,
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'Traceback (most recent call last):',
      '  File "train.py", line 95, in <module>',
      '    save_checkpoint(model)',
      'RuntimeError: checkpoint directory is read-only',
    ),
    category: 'gpu-oom',
  },
  {
    name: 'torchrun rank prefix, then launcher lines',
    text: lines(
      '[rank3]: Traceback (most recent call last):',
      '[rank3]:   File "/content/train.py", line 41, in <module>',
      `[rank3]: torch.OutOfMemoryError: ${TORCH_25}`,
      'E1104 10:11:12.345000 812 torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) ' +
        'local_rank: 3 (pid: 9921) of binary: /usr/bin/python3',
      'torch.distributed.elastic.multiprocessing.errors.ChildFailedError:',
      '============================================================',
      'train.py FAILED',
    ),
    category: 'gpu-oom',
  },
  {
    name: 'PyTorch 1.1x RuntimeError with max_split_size_mb hint',
    text:
      `RuntimeError: ${TORCH_1X} If reserved memory is >> allocated memory try setting max_split_size_mb to ` +
      `avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF`,
    category: 'gpu-oom',
  },
  {
    name: 'PyTorch 1.0 "cached" layout',
    text:
      'RuntimeError: CUDA out of memory. Tried to allocate 1.50 GiB (GPU 0; 11.17 GiB total capacity; 9.01 GiB ' +
      'already allocated; 801.81 MiB free; 1.06 GiB cached)',
    category: 'gpu-oom',
  },
  {
    name: 'PyTorch 2.1 "capacty" typo with the non-PyTorch memory clause',
    text:
      'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 256.00 MiB. GPU 0 has a total capacty ' +
      'of 22.19 GiB of which 101.50 MiB is free. Including non-PyTorch memory, this process has 22.08 GiB memory in ' +
      'use. Of the allocated memory 21.50 GiB is allocated by PyTorch, and 301.12 MiB is reserved by PyTorch but ' +
      'unallocated.',
    category: 'gpu-oom',
  },
  {
    name: 'PyTorch 0.x THCudaCheck line alone',
    text:
      'THCudaCheck FAIL file=/opt/conda/conda-bld/pytorch_1524586445097/work/aten/src/THC/generic/THCStorage.cu ' +
      'line=58 error=2 : out of memory',
    category: 'gpu-oom',
    rule: 'torch-thc-oom',
  },
  {
    name: 'ROCm HIP with private pools',
    text:
      'torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of ' +
      '63.98 GiB of which 512.00 MiB is free. Of the allocated memory 60.10 GiB is allocated by PyTorch, with 2.00 ' +
      'GiB allocated in private pools (e.g., HIP Graphs), and 1.20 GiB is reserved by PyTorch but unallocated.',
    category: 'gpu-oom',
    rule: 'torch-hip-oom',
  },
  {
    name: 'MPS with GiB units',
    text:
      'RuntimeError: MPS backend out of memory (MPS allocated: 17.95 GiB, other allocations: 1.20 MiB, max ' +
      'allowed: 18.13 GiB). Tried to allocate 256.00 MiB on shared pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 ' +
      'to disable upper limit for memory allocations (may cause system failure).',
    category: 'gpu-oom',
    rule: 'torch-mps-oom',
  },
  {
    name: 'XPU, current layout',
    text:
      'torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of ' +
      '15.11 GiB of which 1.00 GiB is free. Of the allocated memory 13.00 GiB is allocated by PyTorch, and 100.00 ' +
      'MiB is reserved by PyTorch but unallocated. Please use `empty_cache` to release all unoccupied cached memory.',
    category: 'gpu-oom',
    rule: 'torch-xpu-oom',
  },
  {
    name: 'torch.AcceleratorError with the search hint and CUDA_LOG_FILE line',
    text: lines(
      'torch.AcceleratorError: CUDA error: out of memory',
      "Search for `cudaErrorMemoryAllocation' in " +
        'https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html for more information.',
      'For more detailed error information, run with CUDA_LOG_FILE=stderr',
      'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.',
    ),
    category: 'gpu-oom',
    rule: 'cuda-error-oom',
  },
  {
    name: 'vLLM error-log prefix',
    text: `ERROR 05-12 08:14:02 [core.py:396] torch.OutOfMemoryError: ${TORCH_25}`,
    category: 'gpu-oom',
  },
  {
    name: 'pytest summary prefix',
    text: `FAILED tests/test_train.py::test_large_batch[fp16] - torch.OutOfMemoryError: ${TORCH_25}`,
    category: 'gpu-oom',
  },
  {
    name: 'pytest summary with a parametrized id containing spaces',
    text: `FAILED tests/test_train.py::test_fit[batch 512] - RuntimeError: ${TORCH_1X}`,
    category: 'gpu-oom',
  },
  {
    name: 'Hydra log format at ERROR level',
    text: `[2024-06-01 10:00:00,000][__main__][ERROR] - ${TORCH_1X}`,
    category: 'gpu-oom',
  },
  { name: 'pytest failure-detail prefix', text: `E       torch.OutOfMemoryError: ${TORCH_25}`, category: 'gpu-oom' },
  {
    name: 'loguru error line without a class',
    text: `ERROR    | 2025-02-03 11:00:00 | trainer.loop:run:88 - ${TORCH_25}`,
    category: 'gpu-oom',
  },
  {
    name: 'loguru with the timestamp first',
    text: `2025-02-03 11:00:00.123 | ERROR    | trainer.loop:run:88 - ${TORCH_1X}`,
    category: 'gpu-oom',
  },
  { name: 'Python logging ERROR:root:', text: `ERROR:root:${TORCH_1X}`, category: 'gpu-oom' },
  {
    name: 'VS Code: class on one line, message on the next',
    text: lines('Exception has occurred: OutOfMemoryError', TORCH_1X),
    category: 'gpu-oom',
  },
  {
    name: 'VS Code: RuntimeError then the cuBLAS message',
    text: lines(
      'Exception has occurred: RuntimeError',
      'CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`',
    ),
    category: 'gpu-oom',
    rule: 'cublas-alloc-failed',
  },
  {
    name: 'ComfyUI-style bare message, then wrapper-script lines',
    text: lines('!!! Exception during processing !!!', TORCH_25, 'Prompt executed in 12.31 seconds', 'got prompt'),
    category: 'gpu-oom',
  },
  {
    name: 'ComfyUI exception line',
    text: '!!! Exception during processing !!! CUDA error: out of memory',
    category: 'gpu-oom',
    rule: 'cuda-error-oom',
  },
  {
    name: 'ComfyUI exception line behind a log level',
    text: `[ERROR] !!! Exception during processing !!! ${TORCH_1X}`,
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
  },
  {
    name: 'ROCm: HIP error: out of memory',
    text: 'RuntimeError: HIP error: out of memory',
    category: 'gpu-oom',
    rule: 'cuda-error-oom',
  },
  {
    name: 'Ray worker prefix',
    text: `(RayTrainWorker pid=5521) torch.OutOfMemoryError: ${TORCH_25}`,
    category: 'gpu-oom',
  },
  {
    name: 'ANSI-coloured traceback, real escapes',
    text: lines(
      '\x1b[0;31m---------------------------------------------------------------------------\x1b[0m',
      '\x1b[0;31mOutOfMemoryError\x1b[0m                          Traceback (most recent call last)',
      `\x1b[0;31mOutOfMemoryError\x1b[0m: ${TORCH_25}`,
    ),
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
  },
  {
    name: 'ANSI codes that lost their ESC byte in a copy',
    text: `[0;31mOutOfMemoryError[0m: ${TORCH_25}`,
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
  },
  {
    name: 'ANSI codes in escaped JSON spelling',
    text: `\\u001b[0;31mOutOfMemoryError\\u001b[0m: ${TORCH_25}`,
    category: 'gpu-oom',
    rule: 'torch-cuda-oom',
  },

  // TensorFlow.
  {
    name: 'TF 2.9+ Graph execution error wrapper',
    text: lines(
      'ResourceExhaustedError: Graph execution error:',
      '',
      "Detected at node 'model/conv2d_3/Conv2D' defined at (most recent call last):",
      '    File "/usr/lib/python3.10/runpy.py", line 196, in _run_module_as_main',
      "Node: 'model/conv2d_3/Conv2D'",
      'OOM when allocating tensor with shape[64,128,128,64] and type float on ' +
        '/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
      '\t [[{{node model/conv2d_3/Conv2D}}]]',
      'Hint: If you want to see a list of allocated tensors when OOM happens, add ' +
        "report_tensor_allocations_upon_oom to RunOptions for current allocation info. This isn't available when " +
        'running in Eager mode.',
      ' [Op:__inference_train_function_5121]',
    ),
    category: 'tf-oom',
  },
  {
    name: 'TF1 see-above wrapper',
    text: lines(
      'ResourceExhaustedError (see above for traceback): OOM when allocating tensor with shape[32,256,56,56] and ' +
        'type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
      '\t [[Node: conv3/Conv2D = Conv2D[T=DT_FLOAT]()]]',
    ),
    category: 'tf-oom',
  },
  {
    name: 'TF root errors, RESOURCE_EXHAUSTED spelling',
    text: lines(
      '  (0) RESOURCE_EXHAUSTED: {{function_node __inference_train_step_812}} OOM when allocating tensor with ' +
        'shape[1024,4096] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
      '0 successful operations.',
      '0 derived errors ignored.',
    ),
    category: 'tf-oom',
  },
  {
    name: 'Dst tensor is not initialized',
    text:
      'InternalError: Failed copying input tensor from /job:localhost/replica:0/task:0/device:CPU:0 to ' +
      '/job:localhost/replica:0/task:0/device:GPU:0 in order to run _EagerConst: Dst tensor is not initialized.',
    category: 'tf-oom',
    rule: 'tf-dst-tensor',
  },
  {
    name: 'Keras 3 on TensorFlow with XLA: the XLA message under a TF class is TensorFlow',
    text: lines(
      'ResourceExhaustedError: Graph execution error:',
      '',
      'Detected at node StatefulPartitionedCall defined at (most recent call last):',
      '  File "/usr/local/lib/python3.11/dist-packages/keras/src/backend/tensorflow/trainer.py", line 113, in ' +
        'one_step_on_iterator',
      'Out of memory while trying to allocate 10737418240 bytes.',
      '\t [[{{node StatefulPartitionedCall}}]]',
      ' [Op:__inference_one_step_on_iterator_2345]',
    ),
    category: 'tf-oom',
    rule: 'xla-oom',
  },
  {
    name: 'TF root errors with failed to allocate memory',
    text: lines(
      'tensorflow.python.framework.errors_impl.ResourceExhaustedError: 2 root error(s) found.',
      '  (0) Resource exhausted: failed to allocate memory',
      '\t [[{{node mul_1}}]]',
      '  (1) Resource exhausted: failed to allocate memory',
      '0 successful operations.',
      '0 derived errors ignored.',
    ),
    category: 'tf-oom',
    rule: 'resource-exhausted',
  },
  {
    name: 'TF E-level executor line with the status mid-sentence',
    text:
      '2020-01-01 10:00:00.000000: E tensorflow/core/common_runtime/executor.cc:654] Executor failed to create ' +
      'kernel. Resource exhausted: failed to allocate memory',
    category: 'tf-oom',
    rule: 'resource-exhausted',
  },
  {
    name: 'TF E-level CUDA driver allocation failure',
    text:
      '2021-06-01 09:00:00.123456: E tensorflow/stream_executor/cuda/cuda_driver.cc:1010] failed to allocate ' +
      '3.00G (3221225472 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory',
    category: 'tf-oom',
    rule: 'tf-cuda-driver-oom',
  },
  {
    name: 'TF OP_REQUIRES warning, newer status spelling',
    text:
      '2024-03-02 12:00:00.000001: W tensorflow/core/framework/op_kernel.cc:1839] OP_REQUIRES failed at ' +
      'matmul_op_impl.h:731 : RESOURCE_EXHAUSTED: OOM when allocating tensor with shape[8192,8192] and type float ' +
      'on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
    category: 'tf-oom',
    rule: 'tf-op-requires',
  },

  // JAX / XLA.
  {
    name: 'JAX JaxRuntimeError (IPython short name)',
    text: 'JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 17179869184 bytes.',
    category: 'jax-oom',
    rule: 'xla-oom',
  },
  {
    name: 'JAX jax.errors.JaxRuntimeError with a BufferAssignment dump',
    text: lines(
      'jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 8589934592 bytes.',
      'BufferAssignment OOM Debugging.',
      'BufferAssignment stats:',
      '             parameter allocation:    1.00GiB',
      'Peak buffers:',
    ),
    category: 'jax-oom',
  },
  {
    name: 'old jaxlib RuntimeError: Resource exhausted',
    text: 'RuntimeError: Resource exhausted: Out of memory while trying to allocate 4294967296 bytes.',
    category: 'jax-oom',
  },
  {
    name: 'XLA pjrt E-level log line',
    text:
      '2024-01-01 00:00:00.000000: E external/xla/xla/pjrt/pjrt_stream_executor_client.cc:2732] Execution of ' +
      'replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1073741824 bytes.',
    category: 'jax-oom',
  },
  {
    name: 'JAX absl log with a base name only',
    text:
      'E0118 12:00:00.123456 4567 pjrt_stream_executor_client.cc:3067] Execution of replica 0 failed: ' +
      'RESOURCE_EXHAUSTED: Out of memory while trying to allocate 1073741824 bytes.',
    category: 'jax-oom',
    rule: 'xla-oom',
  },
  {
    name: 'absl-Python error log from the training script',
    text:
      'E0118 12:00:00.123456 140234 train.py:42] RESOURCE_EXHAUSTED: Out of memory while trying to allocate ' +
      '2147483648 bytes.',
    category: 'jax-oom',
    rule: 'xla-oom',
  },
  {
    name: 'JAX absl log, basename without pjrt',
    text:
      'E0118 12:00:00.123456 4567 gpu_executable.cc:812] Execution failed: RESOURCE_EXHAUSTED: Failed to ' +
      'allocate request for 4.00GiB (4294967296B) on device ordinal 0',
    category: 'jax-oom',
  },
  {
    name: 'TPU HBM compile error',
    text:
      'XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory space ' +
      'hbm. Used 20.50G of 15.48G hbm. Exceeded hbm capacity by 5.02G.',
    category: 'jax-oom',
    rule: 'tpu-memory-space',
  },
  {
    name: 'TPU VMEM on the stack',
    text:
      'RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem while allocating on stack for %fusion.12 = ' +
      'bf16[128,1024]',
    category: 'jax-oom',
    rule: 'tpu-memory-space',
  },
  {
    name: 'TPU program reservation',
    text:
      "XlaRuntimeError: RESOURCE_EXHAUSTED: Error loading program 'jit_train_step': Attempting to reserve " +
      '10.20G at the bottom of memory. That was not possible. There are 9.87G free, 0B reserved, and 9.87G reservable.',
    category: 'jax-oom',
    rule: 'tpu-allocation',
  },
  {
    name: 'XLA allocation request',
    text:
      'XlaRuntimeError: RESOURCE_EXHAUSTED: Failed to allocate request for 12.00GiB (12884901888B) on device ' +
      'ordinal 0',
    category: 'jax-oom',
    rule: 'xla-allocation-request',
  },
  {
    name: 'PyTorch/XLA on XRT: TF-style root errors, but JAX-family (not TensorFlow) memory',
    text: lines(
      'RuntimeError: Resource exhausted: From /job:localservice/replica:0/task:0:',
      '2 root error(s) found.',
      '  (0) Resource exhausted: Attempting to reserve 5.40G at the bottom of memory. That was not possible. There ' +
        'are 4.52G free, 0B reserved, and 4.52G reservable.',
      '\t [[{{node XRTExecute}}]]',
      '  (1) Resource exhausted: Attempting to reserve 5.40G at the bottom of memory. That was not possible. There ' +
        'are 4.52G free, 0B reserved, and 4.52G reservable.',
      '\t [[{{node XRTExecute}}]]',
      '0 successful operations.',
      '0 derived errors ignored.',
    ),
    category: 'jax-oom',
    rule: 'tpu-allocation',
  },
  {
    name: "JAX's UnfilteredStackTrace wrapper line",
    text:
      'jax._src.traceback_util.UnfilteredStackTrace: jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: ' +
      'Out of memory while trying to allocate 2147483648 bytes.',
    category: 'jax-oom',
    rule: 'xla-oom',
  },
  {
    name: 'PyTorch/XLA StatusOr',
    text:
      'RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to ' +
      'allocate 2.00G. That was not possible. There are 1.10G free.; (0x0x0_HBM0)',
    category: 'jax-oom',
  },

  // Host RAM.
  {
    name: 'bare MemoryError as the last line',
    text: lines(
      'Traceback (most recent call last):',
      '  File "prep.py", line 12, in <module>',
      '    rows = list(reader)',
      'MemoryError',
    ),
    category: 'host-ram',
    rule: 'python-memory-error',
  },
  {
    name: 'MemoryError with an empty message',
    text: lines(
      'Traceback (most recent call last):',
      '  File "prep.py", line 12, in <module>',
      '    frame = pd.concat(parts)',
      'MemoryError: ',
    ),
    category: 'host-ram',
  },
  {
    name: 'NumPy 2.x, qualified class',
    text:
      'numpy._core._exceptions._ArrayMemoryError: Unable to allocate 94.9 MiB for an array with shape (12441600,' +
      ') and data type float64',
    category: 'host-ram',
    rule: 'numpy-array-oom',
  },
  {
    name: 'PyTorch CPU allocator, alloc_cpu.cpp',
    text:
      "RuntimeError: [enforce fail at alloc_cpu.cpp:117] err == 0. DefaultCPUAllocator: can't allocate memory: " +
      'you tried to allocate 34359738368 bytes. Error code 12 (Cannot allocate memory)',
    category: 'host-ram',
    rule: 'torch-cpu-alloc',
  },
  {
    name: 'dmesg global OOM killer with timestamp',
    text:
      '[ 8123.456789] Out of memory: Killed process 4321 (python3) total-vm:52428800kB, anon-rss:12582912kB, ' +
      'file-rss:0kB, shmem-rss:0kB',
    category: 'host-ram',
    rule: 'oom-killer',
  },
  {
    name: 'dmesg OOM killer, older wording',
    text: '[12345.678901] Out of memory: Kill process 4321 (python3) score 912 or sacrifice child',
    category: 'host-ram',
    rule: 'oom-killer',
  },
  {
    name: 'std::bad_alloc from a C++ extension',
    text: lines("terminate called after throwing an instance of 'std::bad_alloc'", '  what():  std::bad_alloc'),
    category: 'host-ram',
    rule: 'cpp-bad-alloc',
  },
  {
    name: 'DataLoader worker killed, newer traceback',
    text: lines(
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.10/dist-packages/torch/utils/data/_utils/signal_handling.py", line 66, in ' +
        'handler',
      '    _error_if_any_worker_fails()',
      'RuntimeError: DataLoader worker (pid 2212) is killed by signal: Killed. ',
    ),
    category: 'host-ram',
    rule: 'dataloader-killed',
  },

  // GPU faults.
  {
    name: 'device-side assert with kernel assertion lines',
    text: lines(
      '../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [0,0,0], thread: [32,0,0] Assertion ' +
        '`-sizes[i] <= index && index < sizes[i] && "index out of bounds"` failed.',
      'RuntimeError: CUDA error: device-side assert triggered',
      'CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be ' +
        'incorrect.',
      'For debugging consider passing CUDA_LAUNCH_BLOCKING=1',
      'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.',
    ),
    category: 'gpu-fault',
    rule: 'cuda-device-assert',
  },
  {
    name: 'kernel assertion line alone',
    text:
      '/pytorch/aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], ' +
      'thread: [5,0,0] Assertion `t >= 0 && t < n_classes` failed.',
    category: 'gpu-fault',
    rule: 'cuda-kernel-assert',
  },
  {
    name: 'PyTorch 0.4 kernel assertion with a full kernel signature',
    text:
      '/pytorch/aten/src/THCUNN/ClassNLLCriterion.cu:105: void cunn_ClassNLLCriterion_updateOutput_kernel(Dtype ' +
      '*, Dtype *, Dtype *, long *, Dtype *, int, int, int, int, long) [with Dtype = float, Acctype = float]: ' +
      'block: [0,0,0], thread: [1,0,0] Assertion `t >= 0 && t < n_classes` failed.',
    category: 'gpu-fault',
    rule: 'cuda-kernel-assert',
  },
  {
    name: 'THCudaCheck device-side assert (error 59)',
    text:
      'THCudaCheck FAIL file=/pytorch/aten/src/THC/generic/THCTensorMathPointwise.cu line=207 error=59 : ' +
      'device-side assert triggered',
    category: 'gpu-fault',
    rule: 'cuda-device-assert',
  },
  {
    name: 'NCCL error class line alone',
    text: lines('ncclUnhandledCudaError: Call to CUDA function failed.', 'Last error:', "Cuda failure 'out of memory'"),
    category: 'gpu-fault',
    rule: 'nccl-error',
  },
  {
    name: 'ROCm: HIP error: device-side assert',
    text: 'torch.AcceleratorError: HIP error: device-side assert triggered',
    category: 'gpu-fault',
    rule: 'cuda-device-assert',
  },
  {
    name: 'PyTorch c10 E-level log in brackets',
    text:
      '[rank0]:[E1104 10:11:12.345678 ProcessGroupNCCL.cpp:1595] [PG 0 Rank 0] Process group watchdog thread ' +
      'terminated with exception: CUDA error: an illegal memory access was encountered',
    category: 'gpu-fault',
    rule: 'cuda-illegal-access',
  },
  {
    name: 'No CUDA GPUs are available',
    text: 'RuntimeError: No CUDA GPUs are available',
    category: 'gpu-fault',
    rule: 'torch-no-gpus',
  },
  {
    name: 'TF cuInit without a device',
    text:
      '2022-11-10 11:56:50.739326: E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call to cuInit: ' +
      'CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected',
    category: 'gpu-fault',
    rule: 'tf-cuinit-no-device',
  },
  {
    name: 'legacy no-device runtime error',
    text:
      'RuntimeError: cuda runtime error (38) : no CUDA-capable device is detected at ' +
      '/pytorch/aten/src/THC/THCGeneral.cpp:51',
    category: 'gpu-fault',
    rule: 'cuda-no-device',
  },
  {
    name: 'cuDNN NOT_INITIALIZED',
    text: 'RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED',
    category: 'gpu-fault',
    rule: 'cudnn-error',
  },
  {
    name: 'no valid cuDNN algorithm (1.5 suffix)',
    text:
      'RuntimeError: Unable to find a valid cuDNN algorithm to run convolution (try_all at ' +
      '/pytorch/aten/src/ATen/native/cudnn/Conv.cpp:693)',
    category: 'gpu-fault',
    rule: 'cudnn-no-algorithm',
  },
  {
    name: 'NCCL DistBackendError with a store message',
    text:
      'torch.distributed.DistBackendError: [2] is setting up NCCL communicator and retrieving ncclUniqueId from ' +
      "[0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer",
    category: 'gpu-fault',
    rule: 'dist-backend-error',
  },

  // Colab and Jupyter notices.
  {
    name: 'Colab older RAM-crash wording',
    text:
      'Your session crashed after using all available RAM. If you are interested in access to high-RAM runtimes,' +
      ' you may want to check out Colab Pro.',
    category: 'colab-crash',
    rule: 'colab-ram-crash',
  },
  {
    name: 'Colab "Automatically restarting" toast',
    text: 'Your session crashed. Automatically restarting.',
    category: 'colab-crash-unknown',
    rule: 'colab-crash-restarting',
  },
  {
    name: 'JupyterLab dead-kernel dialog',
    text: lines(
      'Kernel Restarting',
      'The kernel for Untitled3.ipynb appears to have died. It will restart automatically.',
    ),
    category: 'colab-crash',
  },
  {
    name: 'JupyterLab dialog title alone',
    text: 'Kernel Restarting',
    category: 'colab-crash',
    rule: 'jupyter-kernel-restarting',
  },
  {
    name: 'runtime log, kernel restarted',
    text: 'WARNING:root:kernel 0c2f5a4e-9b1d-4f39-8a57-31f1c8b2d7e0 restarted',
    category: 'colab-crash',
    rule: 'kernel-restarted-log',
  },
];

const negatives: Case[] = [
  {
    name: 'TF BFC warning, "but this may mean" wording',
    text:
      '2024-05-01 10:00:00.000000: W tensorflow/core/common_runtime/bfc_allocator.cc:296] Allocator (GPU_0_bfc) ' +
      'ran out of memory trying to allocate 4.00GiB with freed_by_count=0. The caller indicates that this is not a ' +
      'failure, but this may mean that there could be performance gains if more memory were available.',
    category: '',
  },
  {
    name: 'TF BFC warning, 2018 wording without freed_by_count',
    text:
      '2018-09-01 10:00:00.000000: W tensorflow/core/common_runtime/bfc_allocator.cc:219] Allocator (GPU_0_bfc) ' +
      'ran out of memory trying to allocate 3.51GiB. The caller indicates that this is not a failure, but may mean ' +
      'that there could be performance gains if more memory were available.',
    category: '',
  },
  {
    name: 'TF "exceeds 10% of system memory", older wording',
    text:
      '2019-03-01 10:00:00.000000: W tensorflow/core/framework/allocator.cc:107] Allocation of 1207959552 ' +
      'exceeds 10% of system memory.',
    category: '',
  },
  {
    name: 'TF I-level allocation retries',
    text: lines(
      '2022-01-01 10:00:00.000000: I tensorflow/stream_executor/cuda/cuda_driver.cc:732] failed to allocate 8.00G ' +
        '(8589934592 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory',
      '2022-01-01 10:00:00.000100: I tensorflow/stream_executor/cuda/cuda_driver.cc:732] failed to allocate 7.20G ' +
        '(7730941132 bytes) from device: CUDA_ERROR_OUT_OF_MEMORY: out of memory',
    ),
    category: '',
  },
  {
    name: 'printed source of an OOM handler',
    text: lines(
      'def run_with_backoff(step, batch_size):',
      '    """Halve the batch until it fits. Raises MemoryError when nothing fits."""',
      '    oom_markers = (',
      '        "CUDA out of memory. Tried to allocate",',
      '        "CUDA error: out of memory",',
      '        "DefaultCPUAllocator: can\'t allocate memory",',
      '    )',
      '    while batch_size > 0:',
      '        try:',
      '            return step(batch_size)',
      '        except RuntimeError as e:',
      '            if "out of memory" in str(e) or any(m in str(e) for m in oom_markers):',
      '                batch_size //= 2',
      '            else:',
      '                raise',
      '    raise MemoryError("No executable batch size found")',
    ),
    category: '',
  },
  {
    name: 'docstring that lists OOM exceptions',
    text: lines(
      'def fit(self, data):',
      '    """Train the model.',
      '',
      '    Raises:',
      '        OutOfMemoryError: If the batch does not fit on the GPU.',
      '        MemoryError: If the dataset does not fit in RAM.',
      '    """',
    ),
    category: '',
  },
  {
    name: 'fairseq OOM warning (recovered)',
    text: `2021-03-01 12:00:00 | WARNING | fairseq.trainer | OOM: Ran out of memory with exception: ${TORCH_1X}`,
    category: '',
  },
  {
    name: 'old fairseq OOM warning',
    text: lines(`| WARNING: ran out of memory with exception: ${TORCH_1X};`, ' Skipping batch'),
    category: '',
  },
  {
    name: 'a library logging a recovered OOM as a warning',
    text:
      `[2024-02-01 10:00:00,000] [WARNING] [engine.py:812:step] Caught ${TORCH_1X} Retrying with a smaller ` +
      `micro-batch.`,
    category: '',
  },
  {
    name: 'torch.cuda.memory_summary() table',
    text: lines(
      '|===========================================================================|',
      '|                  PyTorch CUDA memory summary, device ID 0                 |',
      '|---------------------------------------------------------------------------|',
      '|            CUDA OOMs: 3            |        cudaMalloc retries: 7         |',
      '|===========================================================================|',
    ),
    category: '',
  },
  {
    name: 'tqdm bars with memory words',
    text: lines(
      'Epoch 3: 100%|██████████| 500/500 [02:11<00:00, 3.80it/s, loss=0.31, gpu_mem=14.2G, oom_retries=0]',
      'Evaluating:  40%|████      | 40/100 [00:10<00:15, 3.9it/s, max_memory_allocated=11.2GB]',
    ),
    category: '',
  },
  {
    name: 'nvidia-smi output',
    text: lines(
      '+-----------------------------------------------------------------------------------------+',
      '| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |',
      '|-----------------------------------------+------------------------+----------------------+',
      '| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |',
      '|   0  Tesla T4                       Off |   00000000:00:04.0 Off |                    0 |',
      '| N/A   71C    P0             33W /   70W |   15101MiB /  15360MiB |    100%      Default |',
      '| Processes:                                                                              |',
      '|    0   N/A  N/A      4312      C   /usr/bin/python3                            15098MiB |',
    ),
    category: '',
  },
  {
    name: 'ValueError that mentions memory in a variable name',
    text: lines(
      'Traceback (most recent call last):',
      '  File "train.py", line 40, in <module>',
      '    memory_bank = build_memory(cfg.memory_size)',
      'ValueError: memory_size must be positive, got -1 (out_of_memory_policy=halve)',
    ),
    category: '',
  },
  {
    name: 'Lightning batch-size finder',
    text: lines(
      'Batch size 2 succeeded, trying batch size 4',
      'Batch size 4 succeeded, trying batch size 8',
      'Finished batch size finder, will continue with full run using batch size 8',
    ),
    category: '',
  },
  {
    name: 'TF device creation with memory size',
    text:
      '2023-06-01 10:00:00.000000: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1635] Created device ' +
      '/job:localhost/replica:0/task:0/device:GPU:0 with 13692 MB memory:  -> device: 0, name: Tesla T4, pci bus ' +
      'id: 0000:00:04.0, compute capability: 7.5',
    category: '',
  },
  {
    name: 'Gemini quota error (class ResourceExhausted, not ResourceExhaustedError)',
    text: 'ResourceExhausted: 429 Resource has been exhausted (e.g. check quota).',
    category: '',
  },
  {
    name: 'Gemini quota error with RESOURCE_EXHAUSTED status',
    text:
      "ClientError: 429 RESOURCE_EXHAUSTED. {'error': {'code': 429, 'message': 'You exceeded your current quota," +
      " please check your plan and billing details.', 'status': 'RESOURCE_EXHAUSTED'}}",
    category: '',
  },
  {
    name: 'gRPC quota status line',
    text: "RESOURCE_EXHAUSTED: Quota exceeded for quota metric 'Generate Content API requests per minute'",
    category: '',
  },
  {
    name: 'gRPC message-size limit',
    text: 'RESOURCE_EXHAUSTED: Received message larger than max (8388608 vs. 4194304)',
    category: '',
  },
  {
    name: 'warning that names the OOM class',
    text: 'UserWarning: Caught torch.OutOfMemoryError during warmup; retrying with a smaller batch',
    category: '',
  },
  {
    name: 'Colab X-window crash',
    text: 'Your session crashed after requesting an X window. The X window system is not available in Colab.',
    category: '',
  },
  {
    name: 'PyTorch c10 warning in brackets',
    text:
      '[W1104 10:11:12.345678 socket.cpp:464] [c10d] The server socket has failed to bind. CUDA error: out of ' +
      'memory',
    category: '',
  },
  {
    name: 'manual kernel restart in a server log',
    text: '[I 10:00:00.000 NotebookApp] Kernel restarted: 0c2f5a4e-9b1d-4f39-8a57-31f1c8b2d7e0',
    category: '',
  },
  {
    name: 'IPython header row of a different error',
    text: lines(
      'ValueError                                Traceback (most recent call last)',
      'ValueError: could not broadcast input array from shape (3,) into shape (4,)',
    ),
    category: '',
  },
  {
    name: 'TensorFlow ResourceExhaustedError for a full disk while saving a checkpoint',
    text:
      'tensorflow.python.framework.errors_impl.ResourceExhaustedError: ' +
      '/content/ckpt/tempstate8490917510693379885; No space left on device',
    category: '',
  },
  {
    name: 'TensorFlow disk quota, IPython form (the header row has no message)',
    text: lines(
      'ResourceExhaustedError                    Traceback (most recent call last)',
      ...IPYTHON_FRAMES.split('\n'),
      'ResourceExhaustedError: disk quota exceeded [Op:SaveV2]',
    ),
    category: '',
  },
  {
    name: 'RESOURCE_EXHAUSTED status for too many open files',
    text: 'RESOURCE_EXHAUSTED: /content/data/shard-00017.tfrecord; Too many open files',
    category: '',
  },
  {
    name: 'a line of many bracketed numbers with memory words (must not backtrack for hours)',
    text: `[${Array.from({ length: 40 }, (_, i) => `[${i}]`).join(',')}] out of memory`,
    category: '',
  },
  {
    name: 'DataLoader bus error (shared memory, not RAM)',
    text:
      'RuntimeError: DataLoader worker (pid 4113) is killed by signal: Bus error. It is possible that ' +
      "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.",
    category: '',
  },
];

describe('formats from the README', () => {
  it.each(positives)('detects: $name', ({ text, category, rule }) => {
    const verdict = testOutput(text, ALL_ON);
    expect(verdict?.category).toBe(category);
    if (rule) expect(verdict?.rule).toBe(rule);
  });

  it.each(negatives)('ignores: $name', ({ text }) => {
    expect(testOutput(text, ALL_ON)).toBeNull();
  });
});

describe('verdicts', () => {
  it('report the matched line, trimmed, with a stable rule id and a description', () => {
    const text = lines(
      'Traceback (most recent call last):',
      '  File "t.py", line 1, in <module>',
      `  torch.OutOfMemoryError: ${TORCH_25}   `,
      'Done.',
    );
    const verdict = createDetector(DEFAULTS).classifyError(text);
    expect(verdict).toEqual({
      category: 'gpu-oom',
      rule: 'torch-cuda-oom',
      description: 'PyTorch CUDA out of memory',
      line: `${`torch.OutOfMemoryError: ${TORCH_25}`.slice(0, 299)}…`,
    });
    expect(verdict?.line.length).toBeLessThanOrEqual(300);
  });

  it('keep short lines whole', () => {
    expect(createDetector(DEFAULTS).classifyError('  MemoryError  ')?.line).toBe('MemoryError');
  });

  it('come from notices only through classifyNotice, not classifyError', () => {
    const detector = createDetector(DEFAULTS);
    expect(detector.classifyError('Your session crashed after using all available RAM.')).toBeNull();
    expect(detector.classifyNotice('Your session crashed after using all available RAM.')?.rule).toBe(
      'colab-ram-crash',
    );
    expect(detector.classifyNotice(`OutOfMemoryError: ${TORCH_25}`)).toBeNull();
  });
});

describe('the out-of-memory texts of 2024-26 (REFERENCE §12.8)', () => {
  const known: Array<[string, string, string]> = [
    ['torch.AcceleratorError (PyTorch 2.8+)', 'torch.AcceleratorError: CUDA error: out of memory', 'cuda-error-oom'],
    [
      'torch.OutOfMemoryError without "CUDA out of memory"',
      'torch.OutOfMemoryError: Allocation on device 0 would exceed allowed memory. (out of memory)',
      'oom-error-class',
    ],
    [
      'cuBLAS handle',
      'RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`',
      'cublas-alloc-failed',
    ],
    ['cuDNN', 'RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED', 'cudnn-alloc-failed'],
    [
      "JAX's renamed error",
      'jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 4294967296 bytes.',
      'xla-oom',
    ],
    [
      'TPU compile (every restart the same)',
      'jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory ' +
        'space hbm. Used 20.5G of 15.48G hbm.',
      'tpu-memory-space',
    ],
    [
      "a launcher's child killed by SIGKILL",
      "subprocess.CalledProcessError: Command '['/usr/bin/python3', '-m', 'autotrain.trainers.clm']' died with " +
        '<Signals.SIGKILL: 9>.',
      'child-killed',
    ],
    [
      "the shell's kill status of a `shell=True` launch",
      "CalledProcessError: Command 'python train.py' returned non-zero exit status 137.",
      'child-killed',
    ],
    [
      'a DataLoader worker killed (colabtools#5201)',
      'RuntimeError: DataLoader worker (pid 5123) is killed by signal: Killed. ',
      'dataloader-killed',
    ],
  ];
  it.each(known)('%s', (_name, text, rule) => {
    expect(createDetector(DEFAULTS).classifyError(text)).toMatchObject({ rule });
  });

  const notFailures: Array<[string, string]> = [
    [
      "PyTorch 2.9's allocator setting deprecation (a warning)",
      'UserWarning: PYTORCH_CUDA_ALLOC_CONF is deprecated, use PYTORCH_ALLOC_CONF instead',
    ],
    [
      "vLLM's cache blocks (left to the user's patterns: a restart rarely fixes it)",
      'ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when ' +
        'initializing the engine.',
    ],
    [
      "vLLM's start-up check",
      'ValueError: Free memory on device (13.2/14.74 GiB) on startup is less than desired GPU memory utilization ' +
        '(0.9, 13.27 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.',
    ],
    [
      "transformers' dispatch to the CPU",
      'ValueError: Some modules are dispatched on the CPU or the disk. Make sure you have enough GPU RAM to fit the ' +
        'quantized model.',
    ],
    [
      'a DataLoader bus error (shared memory, yolov3#1151)',
      'RuntimeError: DataLoader worker (pid 4113) is killed by signal: Bus error. It is possible that ' +
        "dataloader's workers are out of shared memory.",
    ],
    [
      'a launched command failing for another reason',
      "subprocess.CalledProcessError: Command '['python3', 'train.py']' returned non-zero exit status 1.",
    ],
    ['a launched command stopped by SIGTERM', "CalledProcessError: Command 'x' died with <Signals.SIGTERM: 15>."],
    ['the person pressed Stop', 'KeyboardInterrupt: '],
  ];
  it.each(notFailures)('not a failure: %s', (_name, text) => {
    expect(createDetector(ALL_ON).classifyError(text)).toBeNull();
  });
});

describe('endsInInterrupt: the person pressed Stop', () => {
  it("reads the error output's last exception, colours and blank lines aside", () => {
    expect(
      endsInInterrupt(lines('KeyboardInterrupt      Traceback (most recent call last)', 'KeyboardInterrupt: ')),
    ).toBe(true);
    expect(endsInInterrupt('\u001b[0;31mKeyboardInterrupt\u001b[0m: \n\n')).toBe(true);
    const chained = lines(
      `torch.OutOfMemoryError: ${TORCH_25}`,
      '',
      'During handling of the above exception, another exception occurred:',
      '',
      'KeyboardInterrupt: ',
    );
    expect(endsInInterrupt(chained)).toBe(true);
    expect(createDetector(ALL_ON).classifyError(chained)?.category).toBe('gpu-oom');
  });

  it('not when the interrupt came first and something else ended the run', () => {
    expect(endsInInterrupt(lines('KeyboardInterrupt: ', '', 'During handling…', `OutOfMemoryError: ${TORCH_25}`))).toBe(
      false,
    );
    expect(endsInInterrupt('')).toBe(false);
  });
});
