// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { tailOf } from '../detector/text';
import { mainOutputTail, outputAreaOf, streamOutputsIn, streamTail } from './stream-tail';

afterEach(() => {
  document.body.innerHTML = '';
});

/** A `<pre>` whose textContent must not be read: the reader walks its text nodes. */
function guardedPre(): HTMLPreElement {
  const pre = document.createElement('pre');
  Object.defineProperty(pre, 'textContent', {
    get: () => {
      throw new Error('textContent read');
    },
  });
  document.body.append(pre);
  return pre;
}

describe('streamTail', () => {
  it('reads the real static renderer of 2026', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const cell = document.getElementById('cell-T2BNeFUZ1OGZ')!;
    const outputs = streamOutputsIn(cell);
    expect(outputs).toHaveLength(1);
    expect(streamTail(outputs)).toBe(outputs[0]!.textContent);
    expect(streamTail(outputs)).toMatch(/3\. python is widely used in data science and machine learning\.\n$/);
  });

  it('keeps the last N characters in whole lines, like tailOf, from a stream grown by appends', () => {
    const pre = guardedPre();
    let all = '';
    for (let i = 0; i < 3000; i++) {
      const chunk = `step ${i}/3000 loss=0.${i}\n`;
      pre.append(chunk);
      all += chunk;
    }
    expect(streamTail([pre], 1000)).toBe(tailOf(all, 1000));
    expect(streamTail([pre], 1000).startsWith('step ')).toBe(true);
  });

  it('takes only the end of one megabyte-long text node', () => {
    const pre = guardedPre();
    const text = `${'x'.repeat(1_000_000)}\nTraceback (most recent call last):\nKilled\n`;
    pre.append(text);
    expect(streamTail([pre], 100)).toBe('Traceback (most recent call last):\nKilled\n');
  });

  it('reads through the ANSI spans of an output frame', () => {
    const [out] = mount(
      '<div class="stream output-id-2"><div class="output_subarea output_text output_stream"><pre>epoch 1\n' +
        '<span class="ansi-red-fg">torch.OutOfMemoryError</span>: CUDA out of memory.\n' +
        '<span class="ansi-bold"><span class="ansi-green-fg">done</span></span>\n<!--?lit$1$--></pre></div></div>',
    );
    expect(streamTail([out!])).toBe('epoch 1\ntorch.OutOfMemoryError: CUDA out of memory.\ndone\n');
    expect(streamTail([out!], 10)).toBe('done\n');
  });

  it('keeps \\r progress redraws as they are (the detector reads each redraw as a line)', () => {
    const pre = document.createElement('pre');
    pre.append('Training:  10%|█ | 1/10\r', 'Training:  20%|██ | 2/10\r', 'Training:  30%|███ | 3/10');
    expect(streamTail([pre])).toBe('Training:  10%|█ | 1/10\rTraining:  20%|██ | 2/10\rTraining:  30%|███ | 3/10');
    expect(streamTail([pre], 30)).toBe('Training:  30%|███ | 3/10');
  });

  it("joins a cell's stdout and stderr outputs in page order, each on its own lines", () => {
    const outputs = mount(
      '<div class="stream output-id-1 output_text"><pre>epoch 1</pre></div>' +
        '<div class="stream output-id-2 output_text output_stderr">' +
        '<pre>Traceback (most recent call last):\n</pre></div>',
    );
    expect(streamTail(outputs)).toBe('epoch 1\nTraceback (most recent call last):\n');
    expect(streamTail([])).toBe('');
    expect(streamTail([document.createElement('pre')])).toBe('');
  });
});

describe('streamOutputsIn', () => {
  it('finds the stream outputs of an output frame body, not its other outputs', () => {
    const [body] = mount(
      '<div id="output-body"><div class="stream output-id-1"><div class="output_subarea output_text"><pre>a</pre>' +
        '</div></div><div class="display_data output-id-2"><pre>b</pre></div>' +
        '<div class="stream output-id-3"><pre>c</pre></div></div>',
    );
    expect(streamOutputsIn(body!).map((el) => el.className)).toEqual(['stream output-id-1', 'stream output-id-3']);
  });
});

describe('mainOutputTail', () => {
  it("reads the end of a cell's main-document outputs, any kind, and changes when the cell prints more", () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const cell = document.getElementById('cell-T2BNeFUZ1OGZ')!;
    const before = mainOutputTail(cell);
    expect(before).toMatch(/machine learning\.\n$/);
    expect(before.length).toBeLessThanOrEqual(256);
    const list = cell.querySelector('colab-static-output-renderer > div')!;
    mount('<div class="error output-id-9"><pre>OutOfMemoryError: CUDA out of memory.</pre></div>', list);
    const withError = mainOutputTail(cell);
    expect(withError).toMatch(/CUDA out of memory\.$/);
    list.querySelector('.error pre')!.append('');
    expect(mainOutputTail(cell)).toBe(withError);
    mount('<div class="stream output-id-10"><pre>retrying with batch_size=32\n</pre></div>', list);
    expect(mainOutputTail(cell)).not.toBe(withError);
  });

  it("reads the same from the frame's output area as from its cell", () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const cell = document.getElementById('cell-T2BNeFUZ1OGZ')!;
    const [frame] = mount('<iframe></iframe>', cell.querySelector('.output-iframe-sizer')!);
    const area = outputAreaOf(frame!);
    expect(area?.classList.contains('output-iframe-sizer')).toBe(true);
    expect(mainOutputTail(area!)).toBe(mainOutputTail(cell));
  });

  it('is empty for a cell without a static renderer', () => {
    const [cell] = mount('<div class="cell"><iframe></iframe></div>');
    expect(mainOutputTail(cell!)).toBe('');
  });
});
