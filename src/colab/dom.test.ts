// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, recordEvents, setRect, snippet, tick } from '../../test/support/colab-dom';
import {
  deepQuery,
  deepQueryAll,
  deepText,
  dispatchMouseSequence,
  isVisible,
  nodeText,
  pressEscape,
  squash,
  streamAppender,
  waitFor,
} from './dom';

afterEach(() => {
  vi.unstubAllGlobals();
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
    // Timeouts far beyond the test's own: only an observed change can end these waits in time.
    const first = waitFor(() => state.classList.contains('running'), { timeoutMs: 60_000, observeShadowRoots: true });
    setTimeout(() => state.classList.add('running'), 5);
    expect(await first).toBe(true);

    const second = waitFor(() => deepQuery(document, '.later.on'), { timeoutMs: 60_000, observeShadowRoots: true });
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

describe('streamAppender: the text each record appends to a stream', () => {
  const text = (s: string) => document.createTextNode(s);
  const childList = (target: Node, removed: Node[], added: Node[]) =>
    ({ type: 'childList', target, removedNodes: removed, addedNodes: added }) as unknown as MutationRecord;
  const characterData = (target: CharacterData, oldValue: string | null) =>
    ({ type: 'characterData', target, oldValue }) as unknown as MutationRecord;

  it('a text node that grew: only its new tail; one rewritten or without its old value: all of it', () => {
    const read = streamAppender();
    expect(read(characterData(text('epoch 1\nepoch 2'), 'epoch 1\n'))).toBe('epoch 2');
    expect(read(characterData(text('loss 0.1'), 'epoch 1'))).toBe('loss 0.1');
    expect(read(characterData(text('loss 0.1'), null))).toBe('loss 0.1');
  });

  it('a text node replaced by a longer one: only the new tail, whether in one record or two on the same target', () => {
    const pre = document.createElement('pre');
    const read = streamAppender();
    expect(read(childList(pre, [text('a\n')], [text('a\nb\n')]))).toBe('b\n');
    expect(read(childList(pre, [text('a\nb\n')], []))).toBe('');
    expect(read(childList(pre, [], [text('a\nb\nc\n')]))).toBe('c\n');
  });

  it('joins removals that come in several records before the addition', () => {
    const pre = document.createElement('pre');
    const read = streamAppender();
    read(childList(pre, [text('a\n')], []));
    read(childList(pre, [text('b\n')], []));
    expect(read(childList(pre, [], [text('a\nb\nc\n')]))).toBe('c\n');
  });

  it('an addition after a removal elsewhere, or after an addition, is all new; comments add nothing', () => {
    const [one, two] = [document.createElement('pre'), document.createElement('pre')];
    const read = streamAppender();
    read(childList(one, [text('a\n')], []));
    expect(read(childList(two, [], [text('a\nb\n')]))).toBe('a\nb\n');
    expect(read(childList(two, [], [text('a\nb\n')]))).toBe('a\nb\n');
    const span = document.createElement('span');
    span.textContent = 'x';
    expect(read(childList(two, [], [document.createComment('?lit$1$'), span]))).toBe('x');
  });
});

describe('text helpers', () => {
  it('deepText collapses whitespace and stops at its bound', () => {
    const [el] = mount('<p>  a \n\n b  </p>');
    expect(deepText(el!)).toBe('a b');
    expect(deepText(el!, 2)).toBe('a ');
  });

  it('squash collapses whitespace and reads a missing text as empty', () => {
    expect(squash(' Run\n  all ')).toBe('Run all');
    expect(squash(null)).toBe('');
    expect(squash(undefined)).toBe('');
  });

  it("nodeText reads text and elements, not comments (Lit's markers)", () => {
    const [el] = mount('<b>bold</b>');
    expect(nodeText(el!)).toBe('bold');
    expect(nodeText(document.createTextNode('t'))).toBe('t');
    expect(nodeText(document.createComment('?lit$1$'))).toBe('');
  });

  it("pressEscape sends Closure's Escape: key, code and keyCode 27, bubbling out of shadow roots", () => {
    const [el] = mount('<div></div>');
    const seen: KeyboardEvent[] = [];
    document.addEventListener('keydown', (e) => seen.push(e), { once: true });
    pressEscape(el!);
    expect(seen[0]).toMatchObject({ key: 'Escape', code: 'Escape', keyCode: 27, bubbles: true, composed: true });
    expect(seen[0]?.cancelable).toBe(true);
  });
});

describe('isVisible and waitFor at their edges', () => {
  it('an element in the shadow root of a hidden host is hidden', () => {
    const [host] = mount('<x-a style="display: none"><template shadowmode="open"><p>in</p></template></x-a>');
    expect(isVisible(host!.shadowRoot!.querySelector('p')!)).toBe(false);
    host!.removeAttribute('style');
    expect(isVisible(host!.shadowRoot!.querySelector('p')!)).toBe(true);
  });

  it('checks once more at the timeout: a change without a mutation (layout) is still seen', async () => {
    let ready = false;
    setTimeout(() => {
      ready = true;
    }, 5);
    expect(await waitFor(() => ready, { timeoutMs: 40 })).toBe(true);
  });

  it('watches the root it is given, not the document', async () => {
    const [inside, outside] = mount('<div id="in"></div><div id="out"></div>');
    const seen = waitFor(() => outside!.hasAttribute('data-x') || null, { root: inside!, timeoutMs: 40 });
    outside!.setAttribute('data-x', '');
    await tick(1);
    outside!.removeAttribute('data-x');
    expect(await seen).toBeNull();
  });
});

describe('dom helpers in a document without a window, and boxes with one side empty', () => {
  const viewless = () => {
    const doc = document.implementation.createHTMLDocument('');
    doc.body.innerHTML = '<div id="target"></div>';
    return doc.getElementById('target')!;
  };

  it('presses an element of a document without a window, with or without pointer events', () => {
    const el = viewless();
    const seen: string[] = [];
    for (const type of ['pointerdown', 'mousedown', 'mouseup', 'keydown'])
      el.addEventListener(type, () => seen.push(type));
    dispatchMouseSequence(el, 'press');
    pressEscape(el);
    expect(seen).toEqual(['pointerdown', 'mousedown', 'mouseup', 'keydown']);
    vi.stubGlobal('PointerEvent', undefined);
    seen.length = 0;
    dispatchMouseSequence(viewless(), 'press');
    dispatchMouseSequence(el, 'press');
    expect(seen).toEqual(['mousedown', 'mouseup']);
  });

  it('sends pointer events as the primary mouse pointer', () => {
    const [el] = mount('<div></div>');
    const pointers: PointerEvent[] = [];
    el!.addEventListener('pointerdown', (e) => pointers.push(e as PointerEvent));
    dispatchMouseSequence(el!, 'press');
    expect(pointers[0]).toMatchObject({ pointerId: 1, pointerType: 'mouse', isPrimary: true });
  });

  it('reads an element of a document without a window as visible by its attributes alone', () => {
    const el = viewless();
    expect(isVisible(el)).toBe(true);
    el.setAttribute('hidden', '');
    expect(isVisible(el)).toBe(false);
  });

  it('with layout, a box empty on either side is not shown', () => {
    const [a] = mount('<div></div>');
    setRect(document.documentElement, 0, 0, 1024, 768);
    setRect(a!, 0, 0, 10, 0);
    expect(isVisible(a!)).toBe(false);
    setRect(a!, 0, 0, 0, 10);
    expect(isVisible(a!)).toBe(false);
  });
});

describe('waitFor: what wakes it', () => {
  /** Resolves to the wait's value, or 'late' when nothing ended it within 300 ms of a 60 s wait. */
  const soon = <T>(wait: Promise<T>) => Promise.race([wait, tick(300).then(() => 'late' as const)]);

  it('wakes on a text change or an attribute deep below the root', async () => {
    const [p] = mount('<div><p><b>epoch 1</b></p></div>');
    const text = p!.querySelector('b')!.firstChild as Text;
    const edited = soon(waitFor(() => text.data === 'epoch 2' || null, { timeoutMs: 60_000 }));
    text.data = 'epoch 2';
    expect(await edited).toBe(true);
    const flagged = soon(waitFor(() => p!.querySelector('b[data-x]'), { timeoutMs: 60_000 }));
    p!.querySelector('b')!.setAttribute('data-x', '');
    expect(await flagged).not.toBe('late');
  });

  it('watches shadow roots only when asked: a change in one is then seen at the timeout', async () => {
    const [host] = mount('<x-a><template shadowmode="open"><div class="state"></div></template></x-a>');
    const state = host!.shadowRoot!.querySelector('.state')!;
    const unasked = soon(waitFor(() => state.classList.contains('on') || null, { timeoutMs: 60_000 }));
    state.classList.add('on');
    expect(await unasked).toBe('late');
  });

  it('resolves null, not false, when the time is up', async () => {
    expect(await waitFor(() => false, { timeoutMs: 5 })).toBeNull();
  });
});

describe('dom helpers: the last edges', () => {
  it('presses in a page that has no pointer events at all (the name undefined, not only empty)', () => {
    const doc = document.implementation.createHTMLDocument('');
    doc.body.innerHTML = '<div id="target"></div>';
    const el = doc.getElementById('target')!;
    const seen: string[] = [];
    for (const type of ['pointerdown', 'mousedown', 'mouseup']) el.addEventListener(type, () => seen.push(type));
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'PointerEvent');
    Reflect.deleteProperty(globalThis, 'PointerEvent');
    try {
      expect(() => dispatchMouseSequence(el, 'press')).not.toThrow();
    } finally {
      if (descriptor) Object.defineProperty(globalThis, 'PointerEvent', descriptor);
    }
    expect(seen).toEqual(['mousedown', 'mouseup']);
  });

  it('does not watch a shadow root that appears while waiting unless asked', async () => {
    const [root] = mount('<div></div>');
    const [host] = mount('<x-a><template shadowmode="open"><div class="state"></div></template></x-a>', root!);
    host!.remove();
    const state = host!.shadowRoot!.querySelector('.state')!;
    const wait = waitFor(() => state.classList.contains('on') || null, { root: root!, timeoutMs: 300 });
    root!.append(host!);
    await tick();
    state.classList.add('on');
    const early = await Promise.race([wait, tick(100).then(() => 'late' as const)]);
    expect(early).toBe('late');
    expect(await wait).toBe(true);
  });

  it('reads a stream rewritten from its start as all new, not as the tail of the old text', () => {
    const pre = document.createElement('pre');
    const text = (s: string) => document.createTextNode(s);
    const record = { type: 'childList', target: pre, removedNodes: [text('50%\n')], addedNodes: [text('done\n')] };
    expect(streamAppender()(record as unknown as MutationRecord)).toBe('done\n');
  });
});
