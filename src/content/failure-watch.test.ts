// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, setRunState, snippet, tick } from '../colab/test-support';
import { defaultSettings } from '../state/schema';
import { createFailureWatch, type FailureWatch } from './failure-watch';

/** Marker patterns on text from output frames, and settings whose pattern engine loads after newer settings. */
describe('failure watch: user patterns', () => {
  const reports = { failure: vi.fn(), marker: vi.fn(), disconnect: vi.fn(), needsPerson: vi.fn() };
  let watch: FailureWatch;
  let cell: Element;

  beforeEach(async () => {
    vi.clearAllMocks();
    mount(snippet('code-cell-with-static-output-2026-03.html'));
    cell = document.querySelector('.cell')!;
    watch = createFailureWatch(document, reports);
    watch.setActive(true);
    setRunState(cell, 'running animating');
    await tick();
  });

  afterEach(() => {
    watch.setActive(false);
    document.body.replaceChildren();
  });

  /** Resolves once the watch's own import of the engine has resolved and its continuation ran. */
  const engineLoaded = async () => {
    await import('../detector/engine');
    await tick();
  };

  it("matches the marker patterns in an output frame's text, in a cell running here", async () => {
    watch.configure({ ...defaultSettings(), markerPatterns: ['^@@RESTART@@$'] });
    await engineLoaded();
    watch.frameText(cell, 'epoch 3\n@@RESTART@@ now\n');
    expect(reports.marker).not.toHaveBeenCalled();
    watch.frameText(cell, 'epoch 3\n@@RESTART@@\n');
    expect(reports.marker).toHaveBeenCalledWith({ pattern: '^@@RESTART@@$', line: '@@RESTART@@' });
  });

  it('keeps the newest settings when the pattern engine of older ones loads after them', async () => {
    watch.configure({ ...defaultSettings(), markerPatterns: ['^@@RESTART@@$'] });
    watch.configure(defaultSettings());
    await engineLoaded();
    watch.frameText(cell, '@@RESTART@@');
    expect(reports.marker).not.toHaveBeenCalled();
  });
});
