/**
 * A page-observer context for testing one watcher alone (src/colab/*-watcher.ts): a real MutationObserver that calls
 * nothing back (the test takes its records, as the dispatcher would), every handler and `settle` logged in order.
 */

import type { PageHandlers, WatchContext } from '../../src/colab/watch-context';

export interface TestContext extends WatchContext {
  /** What the watcher did, in order: `settle`, `watchClass <id or tag>`, and each handler's call. */
  readonly log: string[];
  /** The records the watcher's observe() calls have queued since last taken. */
  records(): MutationRecord[];
  /** A new batch: its number goes up, made at `at`. */
  nextBatch(at?: number): void;
}

const nameOf = (el: Element) => (el.id ? `#${el.id}` : el.localName);

export function testContext(initial = false): TestContext {
  const log: string[] = [];
  const handlers: Required<PageHandlers> = {
    cellState: (_cell, id, state, previous, at) => log.push(`state ${id} ${previous}->${state} at ${at}`),
    outputAdded: (_cell, id, _element, kind) => log.push(`output ${id} ${kind}`),
    streamText: (_cell, id, text) => log.push(`stream ${id} ${JSON.stringify(text)}`),
    frameAdded: (frame) => log.push(`frame ${frame.localName}`),
    toast: (text) => log.push(`toast ${text}`),
    dialogOpened: (kind) => log.push(`dialog ${kind}`),
    kernelChanged: () => log.push('kernel changed'),
  };
  const observer = new MutationObserver(() => {});
  const batch = { number: 1, at: Date.now(), initial };
  return {
    handlers,
    observer,
    batch,
    log,
    settle: () => log.push('settle'),
    watchClass: (el) => log.push(`watchClass ${nameOf(el)}`),
    records: () => observer.takeRecords(),
    nextBatch(at = Date.now()) {
      batch.number++;
      batch.at = at;
      batch.initial = false;
    },
  };
}
