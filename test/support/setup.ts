/**
 * happy-dom calls a MutationObserver back once per observed node, each time with that node's records; a browser calls
 * it back once per task with every record it queued (the DOM standard's "notify mutation observers"). Tests in
 * happy-dom get the browser's batches: the first callback of a microtask takes what the observer queued besides.
 */
if (typeof window !== 'undefined' && 'happyDOM' in window) {
  const PerNode = window.MutationObserver;
  class Batching extends PerNode {
    constructor(callback: MutationCallback) {
      super((records, observer) => callback([...records, ...observer.takeRecords()], observer));
    }
  }
  globalThis.MutationObserver = Batching;
  window.MutationObserver = Batching;
}
