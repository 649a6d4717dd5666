// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { type TestContext, testContext } from '../../test/support/watch-context';
import { toastText, watchToasts } from './toast-watcher';

const CRASH = 'Your session crashed after using all available RAM.';
let ctx: TestContext;
let host: Element;

const surface = () => host.shadowRoot!.querySelector('.mdc-snackbar')!;
const open = (label: string) => {
  host.setAttribute('labeltext', label);
  surface().classList.add('mdc-snackbar--open');
};

beforeEach(() => {
  ctx = testContext();
  mount(snippet('snackbar-message-area-idle-2026-03.html'));
  host = document.getElementById('message-area')!;
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the toast watcher', () => {
  it('reports a toast open when hooked, after what waits is read, and each message once while it shows', () => {
    const toasts = watchToasts(ctx);
    open(CRASH);
    toasts.hook(host);
    toasts.hook(host);
    expect(ctx.log).toEqual(['settle', `toast ${CRASH}`]);
  });

  it('remembers, without reporting, a toast already open at the first look', () => {
    ctx = testContext(true);
    const toasts = watchToasts(ctx);
    open(CRASH);
    toasts.hook(host);
    expect(ctx.log).toEqual([]);
    ctx.nextBatch();
    toasts.reshow(host);
    expect(ctx.log).toEqual(['settle', `toast ${CRASH}`]);
  });

  it("watches the toast's shadow root, and reads each toast changed in a batch once, at its end", () => {
    const toasts = watchToasts(ctx);
    toasts.hook(host);
    ctx.records();
    surface().classList.add('mdc-snackbar--open');
    host.setAttribute('labeltext', CRASH);
    const records = ctx.records();
    expect(records.length).toBeGreaterThan(0);
    for (const record of records) {
      expect(toasts.shadowRecord(record.target.getRootNode(), record.target)).toBe(true);
    }
    expect(ctx.log).toEqual([]);
    toasts.flush();
    toasts.flush();
    expect(ctx.log).toEqual(['settle', `toast ${CRASH}`]);
    expect(toasts.owns(host.shadowRoot!)).toBe(true);
    expect(toasts.shadowRecord(document, document.body)).toBe(false);
  });

  it('reports the same message again when the sticky toast is shown anew: its label set, or MDC reopening it', () => {
    const toasts = watchToasts(ctx);
    open(CRASH);
    toasts.hook(host);
    toasts.reshow(host);
    expect(ctx.log.filter((line) => line.startsWith('toast'))).toHaveLength(1);
    ctx.nextBatch();
    toasts.reshow(host);
    ctx.nextBatch();
    surface().classList.add('mdc-snackbar--opening');
    toasts.shadowRecord(host.shadowRoot!, surface());
    toasts.flush();
    expect(ctx.log.filter((line) => line.startsWith('toast'))).toHaveLength(3);
  });

  it('reports another message written into a toast still open, not text added after the one reported', () => {
    const toasts = watchToasts(ctx);
    open('Unable to connect to the runtime.');
    toasts.hook(host);
    host.insertAdjacentHTML('beforeend', '<md-text-button slot="action">Retry</md-text-button>');
    toasts.reshow(host);
    host.setAttribute('labeltext', CRASH);
    toasts.reshow(host);
    expect(ctx.log).toEqual(['settle', 'toast Unable to connect to the runtime.', 'settle', `toast ${CRASH} Retry`]);
  });

  it('forgets a toast once it closes: the same message shown again is reported', () => {
    const toasts = watchToasts(ctx);
    open(CRASH);
    toasts.hook(host);
    surface().classList.remove('mdc-snackbar--open');
    toasts.reshow(host);
    surface().classList.add('mdc-snackbar--open');
    toasts.reshow(host);
    expect(ctx.log).toEqual(['settle', `toast ${CRASH}`, 'settle', `toast ${CRASH}`]);
  });

  it("reads a toast's message wherever it is: the attribute, the shadow root's label, slotted text", () => {
    expect(toastText(host)).toBe('');
    host.setAttribute('labeltext', 'A');
    host
      .shadowRoot!.querySelector('.mdc-snackbar__surface')!
      .insertAdjacentHTML('afterbegin', '<div class="mdc-snackbar__label">B</div>');
    host.insertAdjacentHTML('beforeend', '<span>C</span>');
    expect(toastText(host)).toBe('A B C');
  });
});

describe('toasts at their edges', () => {
  it('reads a toast Colab has not rendered yet (no shadow root) by its attributes', () => {
    const toasts = watchToasts(ctx);
    const [bare] = mount(
      '<colab-snackbar open labeltext="Your session crashed after using all available RAM."></colab-snackbar>',
    );
    toasts.hook(bare!);
    toasts.hook(bare!);
    expect(ctx.log).toEqual(['settle', `toast ${CRASH}`]);
  });

  it("takes a text change in a toast's shadow root as a change of that toast", () => {
    const toasts = watchToasts(ctx);
    toasts.hook(host);
    const text = document.createTextNode('x');
    surface().append(text);
    expect(toasts.shadowRecord(host.shadowRoot!, text)).toBe(true);
  });

  it("reads the label alone where the shadow root has one, not the action's text beside it", () => {
    host
      .shadowRoot!.querySelector('.mdc-snackbar__surface')!
      .insertAdjacentHTML('afterbegin', '<div class="mdc-snackbar__label">B</div><div>Dismiss</div>');
    expect(toastText(host)).toBe('B');
  });
});
