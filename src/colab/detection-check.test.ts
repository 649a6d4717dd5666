// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { checkDetection } from './detection-check';

afterEach(() => {
  document.body.innerHTML = '';
});

/** An output frame as Colab places it (happy-dom does not load it). */
function addFrame(parent: Element, host = 'abc123-0-colab.googleusercontent.com'): void {
  parent.insertAdjacentHTML('beforeend', `<iframe src="https://${host}/outputframe.html?vrz=colab_20260325"></iframe>`);
}

describe('what detection needs from the page', () => {
  it('is there on the real 2026 capture: cells, a readable run state, frames inside output areas', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    addFrame(document.querySelector('.output-iframe-sizer')!);
    expect(checkDetection(document)).toEqual({
      ok: true,
      detail: '1 cells, 1 of 1 run states readable, 1 output frames in their cells',
    });
  });

  it('says so when no cell is found', () => {
    mount('<div class="notebook-cell-list"><div class="cell-v2" id="c-1"></div></div>');
    expect(checkDetection(document)).toMatchObject({ ok: false, failed: { step: 'find-cells', reason: 'no-cells' } });
  });

  it('says so when no run button shows a state it can read', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const execution = document.querySelector('colab-run-button')!.shadowRoot!.querySelector('.cell-execution')!;
    execution.className = 'run-state is-idle';
    expect(checkDetection(document)).toMatchObject({
      ok: false,
      failed: {
        step: 'read-run-states',
        reason: 'no-run-states',
        saw: expect.stringContaining('none of 1 run buttons'),
      },
    });
  });

  it('says so when an output frame is outside any cell', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    addFrame(document.body);
    expect(checkDetection(document)).toMatchObject({
      ok: false,
      failed: {
        step: 'match-output-frames',
        reason: 'frames-outside-cells',
        saw: expect.stringContaining('1 of 1 output frames'),
      },
    });
  });

  it('says, naming the host, when output frames come from a host the guard does not know', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    addFrame(document.querySelector('.output-iframe-sizer')!, 'abc-0-colab.googleusercontent.com');
    addFrame(document.querySelector('.output-iframe-sizer')!, 'x1-0-colab.outputs.google.com');
    expect(checkDetection(document)).toEqual({
      ok: false,
      failed: {
        step: 'unknown-frame-host',
        reason: 'x1-0-colab.outputs.google.com',
        saw: expect.stringMatching(/cannot be seen$/),
      },
    });
  });

  it("takes the notebook's own frames of other pages for none of Colab's", () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const sizer = document.querySelector('.output-iframe-sizer')!;
    addFrame(sizer);
    sizer.insertAdjacentHTML('beforeend', '<iframe src="https://www.youtube.com/embed/abc"></iframe>');
    expect(checkDetection(document)).toMatchObject({ ok: true });
  });
});

describe('what detection needs: every answer in its words', () => {
  const capture = () => mount(snippet('code-cell-with-static-output-2026-03.html'));
  const textCell = () =>
    mount('<div class="cell text notebook-cell" id="cell-md1"><div class="markdown">Notes</div></div>');

  it('names the cell selector when no cell is found', () => {
    expect(checkDetection(document)).toEqual({
      ok: false,
      failed: {
        step: 'find-cells',
        reason: 'no-cells',
        saw: expect.stringMatching(/^no notebook cells found \(.+\): no failure can be seen$/),
      },
    });
  });

  it('says so when no cell has a run button, and counts only the cells that have one', () => {
    textCell();
    expect(checkDetection(document)).toMatchObject({
      ok: false,
      failed: { step: 'read-run-states', saw: expect.stringMatching(/^no cell has a run button \(/) },
    });
    capture();
    expect(checkDetection(document)).toEqual({
      ok: true,
      detail: '2 cells, 1 of 1 run states readable, 0 output frames in their cells',
    });
  });

  it('reads a pre-2024 run button, without a shadow root, by its title', () => {
    mount(
      `<div class="cell code notebook-cell" id="cell-abc123">${snippet('code-cell-static-output-2025.html')}</div>`,
    );
    const button = document.querySelector('colab-run-button')!;
    for (const el of button.querySelectorAll('.cell-execution')) el.remove();
    button.setAttribute('title', 'Run cell (Ctrl+Enter)');
    expect(checkDetection(document)).toMatchObject({ ok: true });
  });

  it('names every unknown host, one after the other', () => {
    capture();
    const sizer = document.querySelector('.output-iframe-sizer')!;
    addFrame(sizer, 'x1-0-colab.outputs.google.com');
    addFrame(sizer, 'x2-0-colab.example.com');
    expect(checkDetection(document)).toMatchObject({
      ok: false,
      failed: { reason: 'x1-0-colab.outputs.google.com, x2-0-colab.example.com' },
    });
  });

  it('counts a frame in an output area outside any cell, or in a cell outside its output area, as lost', () => {
    capture();
    mount('<div class="output"></div>');
    addFrame(document.querySelector('body > .output')!);
    expect(checkDetection(document)).toMatchObject({ ok: false, failed: { reason: 'frames-outside-cells' } });
    document.body.innerHTML = '';
    capture();
    addFrame(document.getElementById('cell-T2BNeFUZ1OGZ')!);
    expect(checkDetection(document)).toMatchObject({ ok: false, failed: { reason: 'frames-outside-cells' } });
  });

  it("takes frames without an address, or not on https, for none of Colab's", () => {
    capture();
    document.body.insertAdjacentHTML('beforeend', '<iframe srcdoc="<p>widget</p>"></iframe>');
    document.body.insertAdjacentHTML(
      'beforeend',
      '<iframe src="http://abc-0-colab.googleusercontent.com/outputframe.html"></iframe>',
    );
    expect(checkDetection(document)).toMatchObject({ ok: true });
  });
});
