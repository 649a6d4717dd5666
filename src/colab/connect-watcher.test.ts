// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount, snippet, tick } from '../../test/support/colab-dom';
import { type TestContext, testContext } from '../../test/support/watch-context';
import { type ConnectWatcher, watchConnectButton } from './connect-watcher';

let ctx: TestContext;
let connect: ConnectWatcher;

const host = () => document.querySelector('colab-connect-button')!;
const icon = () => host().shadowRoot!.querySelector('#connect-icon md-icon')!;

beforeEach(() => {
  ctx = testContext();
  connect = watchConnectButton(ctx);
});

afterEach(() => {
  connect.stop();
  document.body.innerHTML = '';
});

describe('the connect-button watcher', () => {
  it('reads whether the runtime is busy running code from the button hooked last; not busy without one', () => {
    expect(connect.busy()).toBe(false);
    mount(snippet('connect-button-connected-2026-03.html'));
    connect.hook(host());
    expect(connect.busy()).toBe(false);
    icon().textContent = 'more_horiz';
    expect(connect.busy()).toBe(true);
  });

  it('says the button changed only while watched, with an observer of its own', async () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    connect.hook(host());
    icon().textContent = 'more_horiz';
    await tick();
    expect(ctx.log).toEqual([]);
    connect.watch(true);
    connect.watch(true);
    icon().textContent = 'done';
    await tick();
    expect(ctx.log).toEqual(['kernel changed']);
    connect.watch(false);
    icon().textContent = 'more_horiz';
    await tick();
    expect(ctx.log).toEqual(['kernel changed']);
    expect(ctx.records()).toEqual([]);
  });

  it("says a button rendered anew while watched changed, at the batch's end, and watches it", async () => {
    connect.watch(true);
    mount(snippet('connect-button-connected-2026-03.html'));
    connect.hook(host());
    expect(ctx.log).toEqual([]);
    connect.flush();
    connect.flush();
    expect(ctx.log).toEqual(['kernel changed']);
    icon().textContent = 'more_horiz';
    await tick();
    expect(ctx.log).toEqual(['kernel changed', 'kernel changed']);
  });

  it('says nothing of a button rendered anew while not watched', () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    connect.hook(host());
    connect.flush();
    expect(ctx.log).toEqual([]);
  });
});

describe('the connect-button watcher at its edges', () => {
  it('takes a button not rendered yet (no shadow root), and a stop before any watch, without a fault', () => {
    connect.watch(false);
    connect.watch(true);
    const [bare] = mount('<colab-connect-button></colab-connect-button>');
    connect.hook(bare!);
    expect(connect.busy()).toBe(false);
  });

  it("sees the icon's text edited in place, and nothing once stopped", async () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    connect.hook(host());
    connect.watch(true);
    (icon().firstChild as Text).data = 'more_horiz';
    await tick();
    expect(ctx.log).toEqual(['kernel changed']);
    connect.stop();
    (icon().firstChild as Text).data = 'done';
    await tick();
    expect(ctx.log).toEqual(['kernel changed']);
  });
});
