import { describe, expect, it } from 'vitest';
import { createQueue } from './queue';

/** A task that records its start and end, and ends when `release` is called. */
function gated(log: string[], name: string) {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const task = async () => {
    log.push(`${name} start`);
    await done;
    log.push(`${name} end`);
    return name;
  };
  return { task, release };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createQueue', () => {
  it('runs the tasks of one key one after another, in order', async () => {
    const queue = createQueue<string>();
    const log: string[] = [];
    const a = gated(log, 'a');
    const b = gated(log, 'b');
    const first = queue.run('k', a.task);
    const second = queue.run('k', b.task);
    await flush();
    expect(log).toEqual(['a start']);
    a.release();
    b.release();
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end']);
  });

  it('runs the tasks of other keys beside each other', async () => {
    const queue = createQueue<number>();
    const log: string[] = [];
    const a = gated(log, 'a');
    const b = gated(log, 'b');
    void queue.run(1, a.task);
    void queue.run(2, b.task);
    await flush();
    expect(log).toEqual(['a start', 'b start']);
  });

  it('goes on after a task that failed, which its caller sees', async () => {
    const queue = createQueue<string>();
    const failed = queue.run('k', () => Promise.reject(new Error('no')));
    const next = queue.run('k', async () => 'next');
    await expect(failed).rejects.toThrow('no');
    expect(await next).toBe('next');
  });

  it('holds an exclusive task until every queued one has settled, and every later one until it has', async () => {
    const queue = createQueue<string>();
    const log: string[] = [];
    const a = gated(log, 'a');
    const x = gated(log, 'x');
    void queue.run('k1', a.task);
    const exclusive = queue.exclusive(x.task);
    const later = queue.run('k2', async () => log.push('later'));
    await flush();
    expect(log).toEqual(['a start']);
    a.release();
    await flush();
    expect(log).toEqual(['a start', 'a end', 'x start']);
    x.release();
    await exclusive;
    await later;
    expect(log).toEqual(['a start', 'a end', 'x start', 'x end', 'later']);
  });
});
