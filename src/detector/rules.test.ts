// One sample line per rule, in the shape each format is printed, so every rule id is pinned to what it matches.
import { describe, expect, it } from 'vitest';
import { ALL_ON } from '../../test/support/detector-configs';
import { createDetector, NOTICE_RULES, RULES } from './index';

const ERROR_SAMPLES: Record<string, string> = {
  'torch-cuda-oom':
    'RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 3.95 GiB total capacity; 3.20 GiB ' +
    'already allocated)',
  'torch-hip-oom':
    'HIP out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 63.98 GiB of which 0 bytes is free.',
  'torch-xpu-oom':
    'RuntimeError: XPU out of memory. Tried to allocate 3.00 GiB (GPU 0; 15.56 GiB total capacity; 12.00 GiB ' +
    'already allocated)',
  'torch-mps-oom':
    'MPS backend out of memory (MPS allocated: 9.00 GB, other allocations: 2.00 GB, max allowed: 18.13 GB). Tried ' +
    'to allocate 512.00 MB on private pool.',
  'torch-thc-oom':
    'RuntimeError: cuda runtime error (2) : out of memory at /pytorch/aten/src/THC/generic/THCStorage.cu:58',
  'cuda-error-oom': 'RuntimeError: CUDA error: out of memory',
  'cublas-alloc-failed': 'RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`',
  'cudnn-alloc-failed': 'cuDNN error: CUDNN_STATUS_ALLOC_FAILED',
  'numpy-array-oom':
    'MemoryError: Unable to allocate 3.73 GiB for an array with shape (500000, 1000) and data type float64',
  'torch-cpu-alloc':
    "RuntimeError: [enforce fail at CPUAllocator.cpp:68] . DefaultCPUAllocator: can't allocate memory: you tried to " +
    'allocate 8589934592 bytes. Error code 12 (Cannot allocate memory)',
  'torch-posix-memalign':
    'RuntimeError: [enforce fail at CPUAllocator.cpp:56] posix_memalign(&data, gAlignment, nbytes) == 0. 12 vs 0',
  'dataloader-killed': 'RuntimeError: DataLoader worker (pid 812) is killed by signal: Killed.',
  'oom-killer':
    '[Tue Jan  2 10:00:00 2024] Memory cgroup out of memory: Killed process 812 (python3) total-vm:13000000kB, ' +
    'anon-rss:12000000kB',
  'child-killed':
    "subprocess.CalledProcessError: Command '['/usr/bin/python3', 'train.py']' died with <Signals.SIGKILL: 9>.",
  'cuda-device-assert': 'torch.AcceleratorError: CUDA error: device-side assert triggered',
  'cuda-kernel-assert':
    '/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1141: indexSelectLargeIndex: block: [10,0,0], thread: [64,0,0] ' +
    'Assertion `srcIndex < srcSelectDimSize` failed.',
  'cuda-illegal-access': 'RuntimeError: CUDA error: an illegal memory access was encountered',
  'cuda-sticky-error': 'RuntimeError: CUDA error: unspecified launch failure',
  'tf-cuinit-no-device':
    'E tensorflow/stream_executor/cuda/cuda_driver.cc:300] failed call to cuInit: CUDA_ERROR_NO_DEVICE: no ' +
    'CUDA-capable device is detected',
  'cuda-no-device': 'RuntimeError: CUDA error: no CUDA-capable device is detected',
  'torch-no-gpus': 'RuntimeError: No CUDA GPUs are available',
  'cuda-driver-init-failed': 'RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.',
  'no-nvidia-driver':
    'AssertionError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed ' +
    'a driver',
  'nccl-error':
    'RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1269, unhandled cuda error, ' +
    'NCCL version 2.14.3',
  'dist-backend-error': 'torch.distributed.DistBackendError: [Rank 0] Watchdog caught collective operation timeout',
  'cudnn-error': 'RuntimeError: cuDNN error: CUDNN_STATUS_INTERNAL_ERROR',
  'cudnn-no-algorithm': 'RuntimeError: GET was unable to find an engine to execute this computation',
  'tf-cudnn-handle':
    '2019-05-01 10:00:00.000000: E tensorflow/stream_executor/cuda/cuda_dnn.cc:334] could not create cudnn handle: ' +
    'CUDNN_STATUS_INTERNAL_ERROR',
  'tf-oom-tensor':
    'OOM when allocating tensor with shape[256,1024,14,14] and type float on ' +
    '/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc',
  'tf-dst-tensor': '  (0) Internal: Dst tensor is not initialized.',
  'tf-op-requires':
    '2020-01-01 10:00:00.000000: W tensorflow/core/framework/op_kernel.cc:1651] OP_REQUIRES failed at ' +
    'conv_ops.cc:1106 : Resource exhausted: failed to allocate memory',
  'tf-cuda-driver-oom':
    'E tensorflow/stream_executor/cuda/cuda_driver.cc:936] failed to allocate 11.17G (11996954624 bytes) from ' +
    'device: CUDA_ERROR_OUT_OF_MEMORY: out of memory',
  'oom-error-class': 'torch.OutOfMemoryError: MTIA out of memory while loading weights',
  'python-memory-error': 'MemoryError: ',
  'cpp-bad-alloc': "terminate called after throwing an instance of 'std::bad_alloc'",
  'tf-resource-exhausted': 'tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:',
  'xla-oom': 'XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory allocating 20029400304 bytes.',
  'xla-allocation-request':
    'XlaRuntimeError: RESOURCE_EXHAUSTED: Failed to allocate request for 2.99GiB (3206250496B) on device ordinal 0',
  'tpu-memory-space':
    'RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in ' +
    'memory space hbm. Used 17.2G of 15.48G hbm.',
  'tpu-allocation':
    'ValueError: RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 1.00G. That was not ' +
    'possible. There are 512.00M free.; (0x0x0_HBM0)',
  'tpu-compile-memory':
    "XlaRuntimeError: RESOURCE_EXHAUSTED: Compilation failure: Aborting compilation early because it's unlikely to " +
    'have enough memory. Requires 40.1G, has 15.5G available.',
  'resource-exhausted':
    'XlaRuntimeError: RESOURCE_EXHAUSTED: Allocation (size=134217728) would exceed memory (size=67108864) :: ' +
    "#allocation25 [shape = 'u8[134217728]{0}', space=vmem]",
};

const NOTICE_SAMPLES: Record<string, string> = {
  'colab-ram-crash': 'Your session crashed after using all available RAM.',
  'colab-unknown-crash': 'Your session crashed for an unknown reason. View runtime logs',
  'colab-crash-restarting': 'Your session crashed. Automatically restarting.',
  'jupyter-kernel-died': 'The kernel appears to have died. It will restart automatically.',
  'jupyter-kernel-restarting': 'Kernel Restarting',
  'kernel-restarter': 'KernelRestarter: restarting kernel (2/5), keep random ports',
  'kernel-restarted-log': 'kernel 9f1c2d3e-0000-4bf2-9ad3-3333312aaaaa restarted',
};

describe('built-in rules', () => {
  it('have unique ids, and every id has a sample here', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(ERROR_SAMPLES).sort()).toEqual([...ids].sort());
    expect(Object.keys(NOTICE_SAMPLES).sort()).toEqual(NOTICE_RULES.map((r) => r.id).sort());
  });

  it.each(Object.entries(ERROR_SAMPLES))('%s', (id, sample) => {
    const verdict = createDetector(ALL_ON).classifyError(sample);
    expect(verdict?.rule).toBe(id);
    expect(verdict?.category).toBe(RULES.find((r) => r.id === id)?.category);
  });

  it.each(Object.entries(NOTICE_SAMPLES))('notice %s', (id, sample) => {
    expect(createDetector(ALL_ON).classifyNotice(sample)?.rule).toBe(id);
  });
});
