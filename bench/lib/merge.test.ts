import { describe, expect, it } from 'vitest';
import { measuredLine, measuredParts, mergeRun } from './merge';

const machine = (date: string, cpuModel = 'Xeon') => ({ date, cpuModel, cores: 2, memoryGiB: 23.5 });

/** A full run as published before parts had their own dates. */
const published = {
  machine: machine('2026-11-27T10:00:00Z'),
  sizes: [{ what: 'old sizes' }],
  sizeBreakdown: {},
  reaction: { main: 'old' },
  stream: { summary: ['old stream'] },
  memory: { extensionGrowthMB: 0.1 },
  scale: { srcCommit: 'aaa1111', summary: ['old scale'] },
  settings: { trials: 20 },
};

describe('a bench run of some parts merged into the published results', () => {
  it('replaces the parts it ran and keeps the others with the date they were measured', () => {
    const run = { machine: machine('2026-11-28T13:00:00Z', 'EPYC'), stream: { summary: ['new'] }, memory: {} };
    const merged = mergeRun(published, run, ['stream'], 'bbb2222');
    expect(merged.stream).toEqual({ summary: ['new'] });
    expect(merged.memory).toEqual({});
    expect(merged.scale).toEqual(published.scale);
    expect(merged.reaction).toEqual(published.reaction);
    expect(merged.sizes).toEqual(published.sizes);
    expect(merged.machine.date).toBe('2026-11-28T13:00:00Z');
    expect(merged.measured).toEqual({
      size: { date: '2026-11-27T10:00:00Z', machine: 'Xeon ×2, 23.5 GiB', srcCommit: 'aaa1111' },
      reaction: { date: '2026-11-27T10:00:00Z', machine: 'Xeon ×2, 23.5 GiB', srcCommit: 'aaa1111' },
      stream: { date: '2026-11-28T13:00:00Z', machine: 'EPYC ×2, 23.5 GiB', srcCommit: 'bbb2222' },
      scale: { date: '2026-11-27T10:00:00Z', machine: 'Xeon ×2, 23.5 GiB', srcCommit: 'aaa1111' },
    });
  });

  it('drops a key of a part the run measured and no longer writes, rather than keep the old figure beside new', () => {
    const run = { machine: machine('2026-11-28T13:00:00Z'), stream: { summary: [] } };
    const merged = mergeRun(published, run, ['stream'], 'bbb2222');
    expect(merged).not.toHaveProperty('memory');
  });

  it('keeps a part measured in an earlier separate run dated as it was', () => {
    const first = mergeRun(
      published,
      { machine: machine('2026-11-28T09:00:00Z'), reaction: { main: 'r' } },
      ['reaction'],
      'c1',
    );
    const second = mergeRun(
      first,
      { machine: machine('2026-11-28T13:00:00Z'), stream: { summary: [] } },
      ['stream'],
      'c2',
    );
    expect(measuredParts(second).reaction).toEqual({
      date: '2026-11-28T09:00:00Z',
      machine: 'Xeon ×2, 23.5 GiB',
      srcCommit: 'c1',
    });
    expect(measuredParts(second).stream?.srcCommit).toBe('c2');
  });

  it('with nothing published, holds only what the run measured', () => {
    const merged = mergeRun(null, { machine: machine('2026-11-28T13:00:00Z'), sizes: [] }, ['size'], 'c1');
    expect(Object.keys(merged.measured as object)).toEqual(['size']);
    expect(merged).not.toHaveProperty('scale');
  });
});

describe("the table's measured line", () => {
  it('names one date and machine when every part came from one run', () => {
    expect(measuredLine(measuredParts(published), 'Chromium 156')).toBe(
      'Measured 2026-11-27 on Xeon ×2, 23.5 GiB (source aaa1111), Chromium 156.',
    );
  });

  it('names each run and its parts when they were measured apart', () => {
    const merged = mergeRun(
      published,
      { machine: machine('2026-11-28T13:00:00Z'), stream: {}, reaction: {} },
      ['reaction', 'stream'],
      'b2',
    );
    expect(measuredLine(measuredParts(merged), 'Chromium 156')).toBe(
      'Measured in separate runs: sizes, notebook scale (Run all, switching on) 2026-11-27 on Xeon ×2, 23.5 GiB ' +
        '(source aaa1111); reaction, streaming 2026-11-28 on Xeon ×2, 23.5 GiB (source b2). Chromium 156.',
    );
  });
});
