// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, setRunState, snippet } from '../../test/support/colab-dom';
import { type TestContext, testContext } from '../../test/support/watch-context';
import { SETTLE_MS, watchCells } from './cell-watcher';

const ID = 'T2BNeFUZ1OGZ';
let ctx: TestContext;
let cells: ReturnType<typeof watchCells>;

const cell = () => document.getElementById(`cell-${ID}`)!;

/** The page changes: the records the watcher's observe() calls queued are handed to it, then the batch ends. */
function batchOf(change: () => void, at = Date.now()): boolean[] {
  ctx.nextBatch(at);
  change();
  const taken = ctx.records().map((record) => cells.takeRecord(record.target));
  cells.flush();
  return taken;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(1000);
  ctx = testContext(true);
  cells = watchCells(ctx);
});

afterEach(() => {
  cells.stop();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('the cell watcher', () => {
  it("takes its run button's state element's records and reads the cell once, at the batch's end", () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cells.hookListed(cell());
    cells.flush();
    expect(ctx.log).toEqual([]);
    const taken = batchOf(() => {
      setRunState(cell(), 'pending');
      setRunState(cell(), 'pending focused');
    }, 2000);
    expect(taken).toEqual([true, true]);
    expect(ctx.log).toEqual([`state ${ID} idle->pending at 2000`]);
  });

  it('leaves every other record to the dispatcher', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cells.hookListed(cell());
    expect(cells.takeRecord(cell())).toBe(false);
    expect(cells.takeRecord(document.body)).toBe(false);
    expect(cells.owns(cell().querySelector('colab-run-button')!.shadowRoot!)).toBe(true);
    expect(cells.owns(document)).toBe(false);
  });

  it('reports a cell first seen queued or running as a change from idle, and one first seen ended not at all', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    setRunState(cell(), 'error');
    cells.hookListed(cell());
    cells.flush();
    expect(ctx.log).toEqual([]);
    const other = mount(snippet('code-cell-with-static-output-2026-03.html').replaceAll(ID, 'OTHER'))[0]!;
    setRunState(document.getElementById('cell-OTHER')!, 'running animating');
    cells.hookButton(other.querySelector('colab-run-button')!);
    cells.flush();
    expect(ctx.log).toEqual([`state OTHER idle->running at 1000`]);
  });

  it('lets the changes of a cell under way wait SETTLE_MS, dated when made, unless something asks to settle', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cells.hookListed(cell());
    batchOf(() => setRunState(cell(), 'pending'), 1100);
    batchOf(() => setRunState(cell(), 'running animating'), 1200);
    expect(ctx.log).toEqual([`state ${ID} idle->pending at 1100`]);
    vi.advanceTimersByTime(SETTLE_MS - 1);
    expect(ctx.log).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(ctx.log.at(-1)).toBe(`state ${ID} pending->running at 1200`);
    batchOf(() => setRunState(cell(), 'error'), 3000);
    cells.settle();
    expect(ctx.log.at(-1)).toBe(`state ${ID} running->error at 3000`);
  });

  it('reads a cell told to hurry, or one that showed an error output, at once until its execution ends', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cells.hookListed(cell());
    batchOf(() => setRunState(cell(), 'pending'));
    batchOf(() => setRunState(cell(), 'running'));
    expect(ctx.log).toEqual([`state ${ID} idle->pending at 1000`]);
    cells.hurry(cell());
    expect(ctx.log.at(-1)).toBe(`state ${ID} pending->running at 1000`);
    batchOf(() => setRunState(cell(), 'error'));
    expect(ctx.log.at(-1)).toBe(`state ${ID} running->error at 1000`);
    batchOf(() => setRunState(cell(), 'pending'));
    batchOf(() => setRunState(cell(), 'running'));
    expect(ctx.log.at(-1)).toBe(`state ${ID} error->pending at 1000`);
    cells.settle();
    cells.errorShown(cell());
    batchOf(() => setRunState(cell(), 'error'));
    expect(ctx.log.at(-1)).toBe(`state ${ID} running->error at 1000`);
  });

  it('follows a state element rendered anew, and waits for a run button not rendered yet', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cells.hookListed(cell());
    const root = cell().querySelector('colab-run-button')!.shadowRoot!;
    batchOf(() => root.replaceChildren());
    expect(ctx.log).toEqual([]);
    const state = Object.assign(document.createElement('div'), { className: 'cell-execution pending' });
    expect(batchOf(() => root.replaceChildren(state))).toEqual([true]);
    expect(ctx.log).toEqual([`state ${ID} idle->pending at 1000`]);
    expect(batchOf(() => (state.className = 'cell-execution error'))).toEqual([true]);
    cells.settle();
    expect(ctx.log.at(-1)).toBe(`state ${ID} pending->error at 1000`);
  });

  it("watches the class of an older cell (its run button holds no state element), and its button's title", () => {
    mount(`<div class="cell code" id="cell-old">${snippet('code-cell-static-output-2025.html')}</div>`);
    const old = document.getElementById('cell-old')!;
    cells.cellChanged(old);
    cells.flush();
    expect(ctx.log).toEqual(['watchClass #cell-old']);
    old.classList.add('pending');
    cells.cellChanged(old);
    cells.flush();
    expect(ctx.log.at(-1)).toBe('state old idle->pending at 1000');
    old.classList.remove('pending');
    old.querySelector('colab-run-button')!.setAttribute('title', 'executing');
    cells.buttonChanged(old.querySelector('colab-run-button')!);
    cells.flush();
    cells.settle();
    expect(ctx.log.at(-1)).toBe('state old pending->running at 1000');
  });

  it('reads each cell id once', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const el = cell();
    expect(cells.idOf(el)).toBe(ID);
    el.id = 'cell-RENAMED';
    expect(cells.idOf(el)).toBe(ID);
  });

  it('sets no timer after it stops', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cells.hookListed(cell());
    batchOf(() => setRunState(cell(), 'running'));
    batchOf(() => setRunState(cell(), 'error'));
    cells.stop();
    vi.advanceTimersByTime(10 * SETTLE_MS);
    expect(ctx.log).toEqual([`state ${ID} idle->running at 1000`]);
  });
});

describe('the cell watcher where a cell or button is not the usual', () => {
  it('a text cell (no run button), a run button in no cell, a cell never seen: nothing read, nothing thrown', () => {
    const [text] = mount('<div class="cell text" id="cell-TEXT"><div class="markdown">Notes</div></div>');
    const [loose] = mount('<colab-run-button></colab-run-button>');
    cells.hookListed(text!);
    cells.cellChanged(text!);
    cells.hookButton(loose!);
    cells.buttonChanged(loose!);
    cells.hurry(document.body);
    cells.flush();
    cells.settle();
    expect(ctx.log.filter((line) => line.startsWith('state'))).toEqual([]);
  });

  it('reads the new run button when Colab renders the cell its button anew', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cells.hookListed(cell());
    cells.flush();
    const old = cell().querySelector('colab-run-button')!;
    const fresh = old.cloneNode(false) as Element;
    fresh.attachShadow({ mode: 'open' }).innerHTML = '<div class="cell-execution running"></div>';
    old.replaceWith(fresh);
    cells.hookButton(fresh);
    cells.flush();
    expect(ctx.log.at(-1)).toBe(`state ${ID} idle->running at 1000`);
  });

  it("reads a cell at once once it showed an error output, before the watcher hooked its button's records", () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    setRunState(cell(), 'running');
    cells.errorShown(cell());
    cells.hookListed(cell());
    cells.flush();
    batchOf(() => setRunState(cell(), 'error'));
    expect(ctx.log.at(-1)).toBe(`state ${ID} running->error at 1000`);
  });
});
