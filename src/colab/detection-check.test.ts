// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { checkDetection } from './detection-check';

afterEach(() => {
  document.body.innerHTML = '';
});

/** An output frame as Colab places it (happy-dom does not load it). */
function addFrame(parent: Element): void {
  parent.insertAdjacentHTML(
    'beforeend',
    '<iframe src="https://abc123-0-colab.googleusercontent.com/outputframe.html?vrz=colab_20260325"></iframe>',
  );
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
    expect(checkDetection(document)).toMatchObject({ ok: false, step: 'find-cells' });
  });

  it('says so when no run button shows a state it can read', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    const execution = document.querySelector('colab-run-button')!.shadowRoot!.querySelector('.cell-execution')!;
    execution.className = 'run-state is-idle';
    expect(checkDetection(document)).toMatchObject({
      ok: false,
      step: 'read-run-states',
      detail: expect.stringContaining('none of 1 run buttons'),
    });
  });

  it('says so when an output frame is outside any cell', () => {
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    addFrame(document.body);
    expect(checkDetection(document)).toMatchObject({
      ok: false,
      step: 'match-output-frames',
      detail: expect.stringContaining('1 of 1 output frames'),
    });
  });
});
