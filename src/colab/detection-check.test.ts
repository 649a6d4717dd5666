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
