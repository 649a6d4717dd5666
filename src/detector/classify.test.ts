import { describe, expect, it } from 'vitest';
import { ALL_ON, DEFAULTS } from '../../test/support/detector-configs';
import { createDetector, endsInInterrupt } from './index';

const classify = (text: string, config = DEFAULTS) => createDetector(config).classifyError(text);
const lines = (...parts: string[]) => parts.join('\n');

describe('endsInInterrupt', () => {
  it('blank and space-only lines after KeyboardInterrupt do not hide it', () => {
    expect(endsInInterrupt(lines('Traceback (most recent call last):', 'KeyboardInterrupt', '   ', ''))).toBe(true);
  });
});

describe('where a message may start (lines.ts), seen through the error-output classifier', () => {
  it('a native log line glued after 4 KiB or more of a progress bar is not read: rules look near a line start', () => {
    const oom =
      ' E tensorflow/core/common_runtime/bfc_allocator.cc:457] OOM when allocating tensor with shape[256,1024]';
    expect(classify(`${'='.repeat(4000)}${oom}`, ALL_ON)?.category).toBe('tf-oom');
    expect(classify(`${'='.repeat(4096)}${oom}`, ALL_ON)).toBeNull();
  });

  it("an error-level log line's message is strong evidence: no allocator opening needed", () => {
    expect(classify('2024-05-01 10:00:00,123 - ERROR - CUDA out of memory on rank 0')?.category).toBe('gpu-oom');
  });

  it("a pasted line's indentation before torchrun's rank prefix", () => {
    const line = '  [rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.';
    expect(classify(line)?.category).toBe('gpu-oom');
  });

  it('a class name at deep indentation, tabs counted as four spaces, is source code (a docstring)', () => {
    expect(classify(lines('    Raises:', '\t\tMemoryError: when the array does not fit'), ALL_ON)).toBeNull();
  });

  it("the C++ runtime's what(): line carries the message", () => {
    const text = lines(
      "terminate called after throwing an instance of 'c10::Error'",
      '  what():  CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 14.75 GiB total capacity)',
    );
    expect(classify(text)?.category).toBe('gpu-oom');
  });

  it('a status word or a word that only contains "Error" is no exception class', () => {
    expect(classify('WARNING: CUDA out of memory, retrying with a smaller batch', ALL_ON)).toBeNull();
    expect(classify('ErrorSummary: CUDA out of memory on 2 of 100 batches', ALL_ON)).toBeNull();
  });

  it('a native log message read after a separator with extra spaces', () => {
    const line =
      'E0101 00:00:00.000000 1234 gpu_compiler.cc:123] Execution failed:  ' +
      'Out of memory while trying to allocate 1024 bytes.';
    expect(classify(line)?.category).toBe('jax-oom');
  });

  /** A JAX program that reads its data with tf.data: TensorFlow's frames are in the traceback. */
  const withTensorFlowFrames = (logLine: string) =>
    lines(
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.10/dist-packages/tensorflow/python/data/ops/iterator_ops.py", line 810, in next',
      logLine,
    );

  it("JAX's own log paths say JAX, whatever else the text shows", () => {
    for (const path of ['external/xla/xla/pjrt/pjrt_stream_executor_client.cc', 'xla/service/gpu/gpu_executable.cc']) {
      const line = `E0101 00:00:00.000000 1234 ${path}:2809] Out of memory while trying to allocate 1024 bytes.`;
      expect(classify(withTensorFlowFrames(line))?.category).toBe('jax-oom');
    }
    const tf =
      'E0101 00:00:00.000000 1234 tensorflow/compiler/xla/stream_executor/x.cc:1] ' +
      'Out of memory while trying to allocate 1024 bytes.';
    expect(classify(withTensorFlowFrames(tf))?.category).toBe('tf-oom');
  });
});

describe('warning-level native log lines', () => {
  it('only rules made for warnings read them: an allocation the library retried is no failure', () => {
    const line =
      'W0101 00:00:00.000000 1234 gpu_util.cc:12] RESOURCE_EXHAUSTED: Out of memory while trying to allocate ' +
      '1024 bytes; retrying with a smaller workspace';
    expect(classify(line, ALL_ON)).toBeNull();
  });
});
