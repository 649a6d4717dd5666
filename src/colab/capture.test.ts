// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { buildCapture } from '../../test/support/capture-dom';
import { mount, snippet } from '../../test/support/colab-dom';
import { capture, captureDialog, captureNotices, captureRuntimeMenu } from './capture';

afterEach(() => {
  document.body.innerHTML = '';
  document.documentElement.removeAttribute('lang');
});

const DIALOG =
  '<mwc-dialog class="yes-no-dialog" open heading="Restart session?"><div>Variables of train_secret.py will be ' +
  'lost.</div><md-text-button slot="secondaryAction" dialogaction="cancel" title="t" value="no">No</md-text-button>' +
  '<md-text-button slot="primaryAction" dialogaction="ok">Yes</md-text-button></mwc-dialog>';

describe('a capture of what the guard met in the page', () => {
  it("keeps the Runtime menu's structure, its commands and labels, and the menu bar it sits in", () => {
    mount(snippet('menubar-and-runtime-menu-2026-03.html'));
    document.documentElement.lang = 'en';
    const taken = captureRuntimeMenu(
      document.getElementById('runtime-menu-button')!,
      document.getElementById('runtime-menu')!,
      'check',
    );
    expect(taken).toMatchObject({ v: 1, kind: 'runtime-menu', occasion: 'check', language: 'en' });
    expect(taken.nodes.map((n) => n.attrs?.id)).toEqual(['top-menubar', 'runtime-menu']);
    const json = JSON.stringify(taken);
    expect(json).toContain('"command":"restart-and-run-all"');
    expect(json).toContain('"text":"Restart session and run all"');
    expect(json).toContain('"text":"Runtime"');
    expect(taken.cut).toBeUndefined();
  });

  it("keeps a dialog's title and its buttons' labels, never its body, nor a value that could be text", () => {
    const [dialog] = mount(DIALOG);
    const taken = captureDialog(dialog!, 'restart');
    const json = JSON.stringify(taken);
    expect(json).not.toMatch(/train_secret|Variables/);
    expect(taken.nodes[0]).toMatchObject({
      tag: 'mwc-dialog',
      attrs: { class: 'yes-no-dialog', open: '', heading: 'Restart session?' },
    });
    expect(taken.nodes[0]!.children).toEqual([
      { tag: 'div' },
      {
        tag: 'md-text-button',
        attrs: { slot: 'secondaryAction', dialogaction: 'cancel', title: 't', value: 'no' },
        text: 'No',
      },
      { tag: 'md-text-button', attrs: { slot: 'primaryAction', dialogaction: 'ok' }, text: 'Yes' },
    ]);
  });

  it('empties the values of attributes that could hold text outside buttons: addresses, titles, messages', () => {
    const [host] = mount(
      '<colab-snackbar labeltext="Saved secret.ipynb" title="secret"><a href="https://drive/secret">x</a>' +
        '<input value="secret"></colab-snackbar>',
    );
    const json = JSON.stringify(capture(document, [host!], 'notice', 'disconnect'));
    expect(json).not.toContain('secret');
    expect(json).toContain('"labeltext":""');
    expect(json).toContain('"href":""');
  });

  it('walks open shadow roots, and builds back to the same capture', () => {
    const [dialog] = mount(DIALOG);
    const root = dialog!.attachShadow({ mode: 'open' });
    root.innerHTML = '<div class="mdc-dialog mdc-dialog--open" role="alertdialog"><h2 id="title">Restart?</h2></div>';
    const taken = captureDialog(dialog!, 'restart');
    expect(taken.nodes[0]!.shadow).toEqual([
      {
        tag: 'div',
        attrs: { class: 'mdc-dialog mdc-dialog--open', role: 'alertdialog' },
        children: [{ tag: 'h2', attrs: { id: 'title' }, text: 'Restart?' }],
      },
    ]);
    document.body.innerHTML = '';
    const [rebuilt] = buildCapture(taken.nodes, document.body);
    expect(captureDialog(rebuilt!, 'restart').nodes).toEqual(taken.nodes);
  });

  it('stays within its bounds: 300 elements, 24 levels, labels of 80 characters, attributes of 200', () => {
    const [menu] = mount(`<div role="menu">${'<div role="menuitem">x</div>'.repeat(400)}</div>`);
    const wide = capture(document, [menu!], 'runtime-menu', 'check');
    expect(wide.nodes[0]!.children).toHaveLength(299);
    expect(wide.cut).toBe(101);
    document.body.innerHTML = '';
    const [deep] = mount(`${'<div>'.repeat(30)}${'</div>'.repeat(30)}`);
    const levels = (n: { children?: unknown[] } | undefined): number =>
      n?.children ? 1 + levels(n.children[0] as { children?: unknown[] }) : 1;
    const taken = capture(document, [deep!], 'dialog', 'blocked');
    expect(levels(taken.nodes[0])).toBe(25);
    expect(taken.cut).toBe(1);
    document.body.innerHTML = '';
    const [button] = mount(`<button class="${'c'.repeat(300)}">${'L'.repeat(100)}</button>`);
    const long = capture(document, [button!], 'dialog', 'restart').nodes[0]!;
    expect(long.text).toHaveLength(80);
    expect(long.attrs!.class).toHaveLength(200);
  });

  it('takes every open dialog, and the toasts together, when the guard leaves something to the person', () => {
    mount(DIALOG);
    mount('<mwc-dialog heading="closed"></mwc-dialog><colab-snackbar></colab-snackbar>');
    const taken = captureNotices(document, 'left-to-person');
    expect(taken.map((c) => [c.kind, c.nodes.map((n) => n.attrs?.heading ?? n.tag)])).toEqual([
      ['dialog', ['Restart session?']],
      ['notice', ['colab-snackbar']],
    ]);
    document.querySelector('colab-snackbar')!.remove();
    expect(captureNotices(document, 'disconnect').map((c) => c.kind)).toEqual(['dialog']);
  });
});
