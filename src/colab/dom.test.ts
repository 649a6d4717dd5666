// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, recordEvents, setRect, snippet, tick } from '../../test/support/colab-dom';
import { deepQuery, deepQueryAll, deepText, dispatchMouseSequence, isVisible, waitFor } from './dom';

afterEach(() => {
  document.body.innerHTML = '';
  Reflect.deleteProperty(document.documentElement, 'getBoundingClientRect');
});

describe('deepQuery', () => {
  it('finds elements inside nested open shadow roots of the real toolbar capture', () => {
    mount(snippet('toolbar-run-all-split-button-2026-03.html'));
    expect(document.querySelector('md-menu-item')).toBeNull();
    const item = deepQuery(document, 'md-menu-item[command="restart-and-run-all"]');
    expect(item?.textContent?.trim()).toBe('Restart session and run all');
    expect(deepQueryAll(document, 'md-menu-item').map((el) => el.getAttribute('command'))).toEqual([
      'restart',
      'restart-and-run-all',
      'runafter',
      'interrupt',
      'clear-outputs',
    ]);
  });

  it('prefers the light DOM and returns null when nothing matches', () => {
    mount('<x-host><template shadowmode="open"><p class="a">shadow</p></template><p class="a">light</p></x-host>');
    expect(deepQuery(document, '.a')?.textContent).toBe('light');
    expect(deepQuery(document, '.none')).toBeNull();
  });

  it('reads text through shadow roots', () => {
    mount(
      '<x-dialog heading="H"><template shadowmode="open"><h2 id="title">Restart ' +
        'session?</h2><slot></slot></template>Body</x-dialog>',
    );
    expect(deepText(document.querySelector('x-dialog')!)).toBe('Body Restart session?');
  });
});

describe('dispatchMouseSequence', () => {
  it('sends the Closure-compatible press at the element centre: left button, bubbling, composed, with a view', () => {
    const [el] = mount('<div id="target"></div>');
    setRect(el!, 100, 20, 60, 20);
    const log = recordEvents(document);
    dispatchMouseSequence(el!, 'press');
    expect(log.map((e) => `${e.type}:${e.buttons}`)).toEqual([
      'mouseover:0',
      'pointerdown:1',
      'mousedown:1',
      'pointerup:0',
      'mouseup:0',
    ]);
    for (const e of log) {
      expect(e).toMatchObject({
        target: 'target',
        button: 0,
        x: 130,
        y: 30,
        bubbles: true,
        cancelable: true,
        composed: true,
        hasView: true,
      });
    }
  });

  it("'click' ends with a click", () => {
    const [el] = mount('<div id="target"></div>');
    const log = recordEvents(document);
    dispatchMouseSequence(el!, 'click');
    expect(log.at(-1)?.type).toBe('click');
    expect(log).toHaveLength(6);
  });
});

describe('waitFor', () => {
  it('resolves on the mutation that satisfies the condition', async () => {
    const pending = waitFor(() => document.querySelector('#late'), { timeoutMs: 1000 });
    setTimeout(() => mount('<div id="late"></div>'), 5);
    expect((await pending)?.id).toBe('late');
  });

  it('resolves null after the timeout', async () => {
    const started = Date.now();
    expect(await waitFor(() => document.querySelector('#never'), { timeoutMs: 30 })).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('sees changes inside shadow roots, including roots that appear while waiting', async () => {
    const [host] = mount('<x-a><template shadowmode="open"><div class="state"></div></template></x-a>');
    const state = host!.shadowRoot!.querySelector('.state')!;
    const first = waitFor(() => state.classList.contains('running'), { timeoutMs: 1000, observeShadowRoots: true });
    setTimeout(() => state.classList.add('running'), 5);
    expect(await first).toBe(true);

    const second = waitFor(() => deepQuery(document, '.later.on'), { timeoutMs: 1000, observeShadowRoots: true });
    mount('<x-b><template shadowmode="open"><div class="later"></div></template></x-b>');
    await tick(5);
    deepQuery(document, '.later')!.classList.add('on');
    expect(await second).not.toBeNull();
  });
});

describe('isVisible', () => {
  it('uses styles when the document has no layout (test DOMs)', () => {
    const [a, b, c, d] = mount(
      '<div id="a"></div><div id="b" style="display: none"><span></span></div><div id="c" hidden></div><div id="d" ' +
        'style="visibility: hidden"></div>',
    );
    expect(isVisible(a!)).toBe(true);
    expect(isVisible(b!)).toBe(false);
    expect(isVisible(b!.firstElementChild!)).toBe(false);
    expect(isVisible(c!)).toBe(false);
    expect(isVisible(d!)).toBe(false);
    expect(isVisible(document.createElement('div'))).toBe(false);
  });

  it('requires a non-zero box when the document has layout', () => {
    const [a] = mount('<div id="a"></div>');
    setRect(document.documentElement, 0, 0, 1024, 768);
    expect(isVisible(a!)).toBe(false);
    setRect(a!, 0, 0, 10, 10);
    expect(isVisible(a!)).toBe(true);
  });
});
