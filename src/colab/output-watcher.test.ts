// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { type TestContext, testContext } from '../../test/support/watch-context';
import { watchOutputs } from './output-watcher';

const ID = 'T2BNeFUZ1OGZ';
let ctx: TestContext;

/** An output watcher whose cell watcher logs the cells that showed an error output. */
function outputsWanting(all: boolean) {
  return watchOutputs(
    ctx,
    { idOf: (cell) => cell.id.replace(/^cell-/, ''), errorShown: (cell) => ctx.log.push(`error shown ${cell.id}`) },
    all,
  );
}

const renderer = () => document.querySelector('colab-static-output-renderer > div')!;
const add = (html: string) => mount(html, renderer())[0]!;
const ERROR = '<div class="error output-id-4"><pre>OutOfMemoryError: CUDA out of memory.</pre></div>';
const STREAM = '<div class="stream output-id-5 output_text"><pre>epoch 1</pre></div>';

beforeEach(() => {
  ctx = testContext();
  mount(snippet('code-cell-with-static-output-2026-03.html'));
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the output watcher', () => {
  it('reports an error output once a batch, after its cell hurries and what waits is read', () => {
    const outputs = outputsWanting(false);
    const error = add(ERROR);
    outputs.report(error.querySelector('pre')!);
    outputs.report(error);
    expect(ctx.log).toEqual([`error shown cell-${ID}`, 'settle', `output ${ID} error`]);
    outputs.flush();
    outputs.report(error);
    expect(ctx.log.at(-1)).toBe(`output ${ID} error`);
    expect(ctx.log).toHaveLength(6);
  });

  it('reports other outputs only while all text is wanted', () => {
    const outputs = outputsWanting(false);
    outputs.report(add(STREAM));
    expect(ctx.log).toEqual([]);
    outputs.setWantAll(true);
    expect(outputs.wantAll).toBe(true);
    outputs.report(add(STREAM.replace('output-id-5', 'output-id-6')));
    expect(ctx.log).toEqual(['settle', `output ${ID} stream`]);
  });

  it('reports nothing outside a cell', () => {
    const outputs = outputsWanting(true);
    const [stray] = mount(ERROR);
    outputs.report(stray!);
    // An output renderer of its own, outside any cell (a copy of an output elsewhere on the page).
    const [copy] = mount(`<colab-static-output-renderer><div>${ERROR}</div></colab-static-output-renderer>`);
    outputs.report(copy!.querySelector('.error')!);
    expect(ctx.log).toEqual([]);
  });

  it('says a renderer added alone holds nothing to report unless it has an error mark or all text is wanted', () => {
    const [plain] = mount(`<colab-static-output-renderer><div>${STREAM}</div></colab-static-output-renderer>`);
    const [failing] = mount(`<colab-static-output-renderer><div>${ERROR}</div></colab-static-output-renderer>`);
    const outputs = outputsWanting(false);
    expect(outputs.nothingIn(plain!)).toBe(true);
    expect(outputs.nothingIn(failing!)).toBe(false);
    outputs.setWantAll(true);
    expect(outputs.nothingIn(plain!)).toBe(false);
  });

  it('finds the output holding a node, in a static renderer only', () => {
    const outputs = outputsWanting(false);
    const stream = add(STREAM);
    const text = stream.querySelector('pre')!.firstChild!;
    expect(outputs.holding(text)).toBe(stream);
    expect(outputs.holding(text)).toBe(stream);
    expect(outputs.holding(document.body)).toBeNull();
    expect(outputs.holding(null)).toBeNull();
  });

  it('says text appended to a stream while all text is wanted, not for an output reported in the same batch', () => {
    const outputs = outputsWanting(true);
    const stream = add(STREAM);
    const pre = stream.querySelector('pre')!;
    const appended = () => {
      pre.append('loss 0.1\n');
      outputs.streamRecord(stream, childListRecord(pre, 'loss 0.1\n'));
    };
    appended();
    expect(ctx.log).toEqual(['settle', `stream ${ID} "loss 0.1\\n"`]);
    outputs.report(stream);
    ctx.log.length = 0;
    appended();
    expect(ctx.log).toEqual([]);
    outputs.flush();
    outputs.setWantAll(false);
    appended();
    expect(ctx.log).toEqual([]);
  });

  it('says no text of an output that is no stream (an error growing, a display updated)', () => {
    const outputs = outputsWanting(true);
    const error = add(ERROR);
    outputs.flush();
    const pre = error.querySelector('pre')!;
    pre.append('Traceback line\n');
    outputs.streamRecord(error, childListRecord(pre, 'Traceback line\n'));
    expect(ctx.log).toEqual([]);
  });

  it('says an output frame added once the page is shown, not at the first look', () => {
    ctx = testContext(true);
    const outputs = outputsWanting(false);
    const [frame] = mount('<iframe class="output-iframe"></iframe>', renderer());
    outputs.frameAdded(frame!);
    ctx.nextBatch();
    outputs.frameAdded(frame!);
    expect(ctx.log).toEqual(['frame iframe']);
  });
});

/** A childList record of `text` appended to `target`, as a document's observer gives it. */
function childListRecord(target: Element, text: string): MutationRecord {
  const added = [...target.childNodes].filter((node) => node.textContent === text);
  return { type: 'childList', target, addedNodes: added, removedNodes: [] } as unknown as MutationRecord;
}
