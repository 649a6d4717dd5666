/**
 * Serialises tasks per key with promise chains: a task starts once every task queued before it for the same key has
 * settled, whatever its outcome. `exclusive` tasks wait for everything queued before them and hold back everything
 * after.
 */
export function createQueue<K>() {
  const tails = new Map<K, Promise<unknown>>();
  let barrier: Promise<unknown> = Promise.resolve();
  const settle = (p: Promise<unknown>) => p.then(noop, noop);

  function run<T>(key: K, task: () => Promise<T>): Promise<T> {
    const result = Promise.all([tails.get(key), barrier]).then(task);
    const tail = settle(result);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return result;
  }

  function exclusive<T>(task: () => Promise<T>): Promise<T> {
    const result = Promise.all([...tails.values(), barrier]).then(task);
    barrier = settle(result);
    return result;
  }

  return { run, exclusive };
}

function noop(): void {}
