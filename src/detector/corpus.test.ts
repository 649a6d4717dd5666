import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_ON, configWith, DEFAULTS, WITH_FAULTS } from '../../test/support/detector-configs';
import { createDetector, testOutput } from './index';
import type { Category } from './types';

interface CorpusRecord {
  id: string;
  label: string;
  framework: string;
  text: string;
}

// A copy of the shared corpus, kept in the repository (test/fixtures/README.md says where it comes from).
const CORPUS = resolve(import.meta.dirname, '../../test/fixtures/oom-corpus/corpus.jsonl');
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

/** Labels whose records are not plain memory failures: each has its own describe block below. */
const SPECIAL = new Set(['negative', 'colab_ram_crash', 'colab_crash_unknown', 'gpu_fatal_other']);

const crashes = records.filter((r) => r.label === 'colab_ram_crash');
const faults = records.filter((r) => r.label === 'gpu_fatal_other');
const unknownCrashes = records.filter((r) => r.label === 'colab_crash_unknown');
const failures = records.filter((r) => !SPECIAL.has(r.label));
const negatives = records.filter((r) => r.label === 'negative');

describe('corpus', () => {
  it('is the 101-record sample with every label present', () => {
    expect(records).toHaveLength(101);
    expect(new Set(records.map((r) => r.label))).toEqual(
      new Set([...Object.keys(CATEGORY_OF_LABEL), 'colab_crash_unknown', 'negative']),
    );
  });

  describe('Colab crashes for an unknown reason: not a RAM crash, acted on only when their own category is on', () => {
    it.each(unknownCrashes)('$id', ({ text }) => {
      expect(testOutput(text, DEFAULTS)).toBeNull();
      expect(testOutput(text, configWith({ 'colab-crash-unknown': true }))?.category).toBe('colab-crash-unknown');
    });
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
