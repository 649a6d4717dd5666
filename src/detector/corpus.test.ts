import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDetector, testOutput } from './index';
import { ALL_ON, DEFAULTS, WITH_FAULTS } from './test-configs';
import type { Category } from './types';

interface CorpusRecord {
  id: string;
  label: string;
  framework: string;
  text: string;
}

// The shared corpus sits beside the clone: /work/main and /work/shared locally, `../shared` in CI.
const CORPUS = resolve(import.meta.dirname, '../../../shared/oom-corpus/corpus.jsonl');
const records: CorpusRecord[] = readFileSync(CORPUS, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as CorpusRecord);

const CATEGORY_OF_LABEL: Record<string, Category> = {
  cuda_oom: 'gpu-oom',
  tf_oom: 'tf-oom',
  jax_oom: 'jax-oom',
  cpu_ram_oom: 'host-ram',
  colab_ram_crash: 'colab-crash',
  gpu_fatal_other: 'gpu-fault',
};

const crashes = records.filter((r) => r.label === 'colab_ram_crash');
const faults = records.filter((r) => r.label === 'gpu_fatal_other');
const failures = records.filter((r) => r.label !== 'negative' && r.label !== 'colab_ram_crash' && r.label !== 'gpu_fatal_other');
const negatives = records.filter((r) => r.label === 'negative');

describe('corpus', () => {
  it('is the 98-record sample with every label present', () => {
    expect(records).toHaveLength(98);
    expect(new Set(records.map((r) => r.label)).size).toBe(7);
  });

  describe('memory failures: the right category by default, and still with gpu-fault on', () => {
    it.each(failures)('$id ($label)', ({ label, text }) => {
      const expected = CATEGORY_OF_LABEL[label];
      expect(createDetector(DEFAULTS).classifyError(text)?.category).toBe(expected);
      expect(createDetector(ALL_ON).classifyError(text)?.category).toBe(expected);
    });
  });

  describe('GPU faults: detected once gpu-fault is on, silent by default', () => {
    it.each(faults)('$id', ({ text }) => {
      expect(createDetector(WITH_FAULTS).classifyError(text)?.category).toBe('gpu-fault');
      expect(createDetector(DEFAULTS).classifyError(text)).toBeNull();
    });
  });

  describe('Colab and Jupyter crashes: detected as notice or error text', () => {
    it.each(crashes)('$id', ({ text }) => {
      expect(testOutput(text, DEFAULTS)?.category).toBe('colab-crash');
    });
  });

  describe('negatives: nothing fires, with every category on', () => {
    it.each(negatives)('$id', ({ text }) => {
      const detector = createDetector(ALL_ON);
      expect(detector.classifyError(text)).toBeNull();
      expect(detector.classifyNotice(text)).toBeNull();
      expect(testOutput(text, ALL_ON)).toBeNull();
    });
  });
});
