// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mount } from '../../test/support/colab-dom';
import { type TestContext, testContext } from '../../test/support/watch-context';
import { watchDialogs } from './dialog-watcher';

let ctx: TestContext;

beforeEach(() => {
  ctx = testContext();
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the dialog watcher', () => {
  it('reports a dialog when it opens, after what waits is read, once until it closes', () => {
    const dialogs = watchDialogs(ctx);
    const [dialog] = mount('<mwc-dialog heading="Runtime disconnected"></mwc-dialog>');
    dialogs.hook(dialog!);
    expect(ctx.log).toEqual([]);
    dialog!.setAttribute('open', '');
    dialogs.check(dialog!);
    dialogs.check(dialog!);
    expect(ctx.log).toEqual(['settle', 'dialog disconnected']);
    dialog!.removeAttribute('open');
    dialogs.check(dialog!);
    dialog!.setAttribute('open', '');
    dialogs.check(dialog!);
    expect(ctx.log).toEqual(['settle', 'dialog disconnected', 'settle', 'dialog disconnected']);
  });

  it('remembers, without reporting, a dialog already open at the first look', () => {
    ctx = testContext(true);
    const dialogs = watchDialogs(ctx);
    const [dialog] = mount('<mwc-dialog open heading="Cannot connect to GPU backend"></mwc-dialog>');
    dialogs.hook(dialog!);
    ctx.nextBatch();
    dialogs.check(dialog!);
    expect(ctx.log).toEqual([]);
  });

  it('reads a dialog from an element inside it, by its kind', () => {
    const dialogs = watchDialogs(ctx);
    const [wrapper] = mount(
      '<colab-dialog><paper-dialog opened><h2>Runtime disconnected</h2></paper-dialog></colab-dialog>',
    );
    dialogs.check(wrapper!.querySelector('paper-dialog')!);
    expect(ctx.log).toEqual(['settle', 'dialog disconnected']);
  });

  it('watches the class of an MDC dialog (it shows it is open by it), and of nothing else', () => {
    const dialogs = watchDialogs(ctx);
    const [mdc] = mount('<div class="mdc-dialog" id="mdc"></div>');
    const [other] = mount('<mwc-dialog heading="Runtime disconnected"></mwc-dialog>');
    dialogs.hook(mdc!);
    dialogs.hook(other!);
    expect(ctx.log).toEqual(['watchClass #mdc']);
  });
});
