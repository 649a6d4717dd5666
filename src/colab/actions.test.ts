// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClosureMenu, mount, recordEvents, setRunState, snippet } from '../../test/support/colab-dom';
import { type ActionOptions, checkUi, restartAndRunAll, runAll } from './actions';
import { deepQuery } from './dom';
import { takeRunSnapshot, verifyRunStarted } from './verify';

const FAST: ActionOptions = { menuTimeoutMs: 100, dialogTimeoutMs: 150, verifyTimeoutMs: 150 };
const CELL = 'T2BNeFUZ1OGZ';

afterEach(() => {
  document.body.innerHTML = '';
});

const cell = () => document.getElementById(`cell-${CELL}`)!;
const startRun = (classes = 'pending') => setTimeout(() => setRunState(cell(), classes), 5);

function page(opts: { menubar?: boolean; toolbar?: boolean } = {}) {
  if (opts.toolbar) mount(snippet('toolbar-run-all-split-button-2026-03.html'));
  if (opts.menubar !== false) mount(snippet('menubar-and-runtime-menu-2026-03.html'));
  mount(snippet('code-cell-with-static-output-2026-03.html'));
}

const RESTART_DIALOG =
  `<mwc-dialog class="yes-no-dialog" open heading="Restart session?">` +
  `<div>Are you sure you want to restart the runtime? Runtime state including all local variables will be lost.</div>
  <md-text-button slot="secondaryAction" dialogaction="cancel">No</md-text-button>` +
  `<md-text-button slot="primaryAction" dialogaction="ok">Yes</md-text-button></mwc-dialog>`;
const GPU_DIALOG =
  `<mwc-dialog open heading="Cannot connect to GPU backend"><md-text-button slot="primaryAction" ` +
  `dialogaction="ok">Connect without GPU</md-text-button></mwc-dialog>`;

/** A yes/no dialog whose Yes closes it and starts the run, as Colab would. */
function showConfirmation(html = RESTART_DIALOG): Element {
  const [dialog] = mount(html);
  dialog!.querySelector('[slot=primaryAction]')!.addEventListener('click', () => {
    dialog!.remove();
    startRun();
  });
  return dialog!;
}

describe('restartAndRunAll through the Runtime menu', () => {
  it('opens the menu, activates the item by command, confirms and verifies', async () => {
    page();
    const fake = fakeClosureMenu(document, { onCommand: () => showConfirmation() });
    const log = recordEvents(document);
    const result = await restartAndRunAll(document, FAST);
    expect(result).toEqual({
      ok: true,
      path: 'menu',
      via: 'command',
      dialog: 'confirmed',
      evidence: `cell ${CELL} pending`,
    });
    expect(fake.commands).toEqual(['restart-and-run-all']);
    expect(fake.isOpen()).toBe(false);
    const targets = log.filter((e) => e.type === 'mousedown').map((e) => e.target);
    expect(targets).toEqual(['runtime-menu-button', 'restart-and-run-all', 'md-text-button']);
  });

  it('works with a menu created on first open and no confirmation dialog', async () => {
    page();
    fakeClosureMenu(document, { lazy: true, onCommand: () => startRun('running animating') });
    const result = await restartAndRunAll(document, { ...FAST, dialogTimeoutMs: 5000 });
    expect(result).toMatchObject({ ok: true, dialog: 'no-dialog', evidence: `cell ${CELL} running` });
  });

  it('finds the item by its English label when the command attribute is gone', async () => {
    page();
    document.querySelector('[command="restart-and-run-all"]')!.removeAttribute('command');
    const fake = fakeClosureMenu(document, { onCommand: () => showConfirmation() });
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: true, via: 'label', dialog: 'confirmed' });
    expect(fake.labels).toEqual(['Restart session and run all']);
  });

  it('confirms a non-English confirmation that appears right after the action', async () => {
    page();
    document.querySelector('[command="restart-and-run-all"] .goog-menuitem-content')!.textContent =
      'セッションを再起動してすべて実行';
    fakeClosureMenu(document, {
      onCommand: () =>
        showConfirmation(
          '<mwc-dialog open heading="セッションを再起動しますか？"><md-text-button ' +
            'slot="primaryAction">はい</md-text-button></mwc-dialog>',
        ),
    });
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: true, dialog: 'confirmed' });
  });

  it('refuses a dialog that is not the restart confirmation and reports what it saw', async () => {
    page();
    const clicks: string[] = [];
    document.addEventListener('click', (e) => clicks.push((e.target as Element).localName), true);
    const fake = fakeClosureMenu(document, { onCommand: () => mount(GPU_DIALOG) });
    const result = await restartAndRunAll(document, FAST);
    expect(result).toMatchObject({ ok: false, step: 'confirm', detail: 'other-dialog: gpu-quota' });
    expect(!result.ok && result.saw).toContain('Cannot connect to GPU backend');
    expect(clicks).toEqual(['div']);
    expect(fake.isOpen()).toBe(false);
  });

  it('fails at verification when nothing starts', async () => {
    page();
    fakeClosureMenu(document);
    const result = await restartAndRunAll(document, FAST);
    expect(result).toMatchObject({ ok: false, step: 'verify', detail: 'no-run-started (dialog: no-dialog)' });
  });

  it('closes the menu when the activation did not take (mouseup at the opening coordinates)', async () => {
    page();
    const fake = fakeClosureMenu(document, { itemsAtButton: true });
    const result = await restartAndRunAll(document, FAST);
    expect(fake.commands).toEqual([]);
    expect(result).toMatchObject({ ok: false, step: 'verify' });
    expect(!result.ok && result.detail).toContain('menu stayed open');
    expect(fake.isOpen()).toBe(false);
  });

  it('does nothing while another dialog is open', async () => {
    page();
    const fake = fakeClosureMenu(document);
    mount(
      '<mwc-dialog open heading="Runtime disconnected"><md-text-button ' +
        'slot="primaryAction">Reconnect</md-text-button></mwc-dialog>',
    );
    const log = recordEvents(document);
    expect(await restartAndRunAll(document, FAST)).toMatchObject({
      ok: false,
      step: 'precheck',
      detail: 'dialog-open: disconnected',
    });
    expect(log).toEqual([]);
    expect(fake.isOpen()).toBe(false);
  });
});

/** The md-menu of the toolbar split button, acting on clicks as Material Web does (§1.3). */
function fakeToolbar(onCommand: (command: string) => void) {
  const root = deepQuery(document, 'colab-notebook-toolbar-run-button')!.shadowRoot!;
  const menu = root.querySelector('md-menu')!;
  root.querySelector('#toolbar-run-button-more-actions')!.addEventListener('click', () => menu.toggleAttribute('open'));
  for (const item of menu.querySelectorAll('md-menu-item')) {
    item.addEventListener('click', () => {
      menu.removeAttribute('open');
      onCommand(item.getAttribute('command')!);
    });
  }
  root.querySelector('#toolbar-run-button')!.addEventListener('click', () => onCommand('runall'));
  return menu;
}

describe('toolbar fallback', () => {
  it('restarts through the split button when the menubar is missing', async () => {
    page({ menubar: false, toolbar: true });
    const commands: string[] = [];
    fakeToolbar((c) => {
      commands.push(c);
      showConfirmation();
    });
    const result = await restartAndRunAll(document, FAST);
    expect(result).toMatchObject({ ok: true, path: 'toolbar', via: 'command', dialog: 'confirmed' });
    expect(commands).toEqual(['restart-and-run-all']);
  });

  it('selects an md-menu-item the Material Web way: the listener is on its shadow li#item', async () => {
    page({ menubar: false, toolbar: true });
    const root = deepQuery(document, 'colab-notebook-toolbar-run-button')!.shadowRoot!;
    const menu = root.querySelector('md-menu')!;
    root
      .querySelector('#toolbar-run-button-more-actions')!
      .addEventListener('click', () => menu.setAttribute('open', ''));
    const chosen: string[] = [];
    for (const item of menu.querySelectorAll('md-menu-item')) {
      item.shadowRoot!.querySelector('#item')!.addEventListener('click', () => {
        chosen.push(item.getAttribute('command')!);
        menu.removeAttribute('open');
        startRun();
      });
    }
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: true, path: 'toolbar', dialog: 'no-dialog' });
    expect(chosen).toEqual(['restart-and-run-all']);
  });

  it('falls back when the menu lacks the item, and reports both failures when the toolbar lacks it too', async () => {
    page({ toolbar: true });
    document.querySelector('#runtime-menu [command="restart-and-run-all"]')!.remove();
    const fake = fakeClosureMenu(document);
    const menu = fakeToolbar(() => startRun());
    menu.querySelector('[command="restart-and-run-all"]')!.remove();
    const result = await restartAndRunAll(document, FAST);
    expect(result).toMatchObject({
      ok: false,
      step: 'find-item',
      detail: 'item-missing; toolbar fallback: item-missing',
    });
    expect(!result.ok && result.saw).toContain('runall: Run all');
    expect(fake.isOpen()).toBe(false);
    expect(menu.hasAttribute('open')).toBe(false);
  });
});

describe('runAll (after a RAM crash)', () => {
  it('chooses Run all and confirms nothing', async () => {
    page();
    const fake = fakeClosureMenu(document, { onCommand: () => startRun('running') });
    expect(await runAll(document, FAST)).toEqual({
      ok: true,
      path: 'menu',
      via: 'command',
      dialog: 'none',
      evidence: `cell ${CELL} running`,
    });
    expect(fake.commands).toEqual(['runall']);
  });

  it('declines the high-RAM offer ("No") first, and never accepts it', async () => {
    page();
    const fake = fakeClosureMenu(document, { onCommand: () => startRun('running') });
    const [offer] = mount(
      `<mwc-dialog open class="yes-no-dialog" heading="Switch to a high-RAM runtime?">` +
        `<div>Your session crashed after using all available RAM. ` +
        `Would you like to use a high-RAM runtime with this notebook?</div>
      <md-text-button slot="secondaryAction" dialogaction="cancel">No</md-text-button>` +
        `<md-text-button slot="primaryAction" dialogaction="ok">Yes</md-text-button></mwc-dialog>`,
    );
    const pressed: string[] = [];
    offer!.addEventListener('click', (e) => {
      pressed.push((e.target as Element).textContent ?? '');
      offer!.removeAttribute('open');
    });
    expect(await runAll(document, FAST)).toMatchObject({ ok: true, path: 'menu' });
    expect(pressed).toEqual(['No']);
    expect(fake.commands).toEqual(['runall']);
  });

  it('leaves a dialog that appears to the user and says so', async () => {
    page();
    const clicks: string[] = [];
    fakeClosureMenu(document, {
      onCommand: () =>
        mount(
          '<mwc-dialog open heading="Warning: This notebook was not authored by Google"><md-filled-button ' +
            'slot="primaryAction">Run anyway</md-filled-button></mwc-dialog>',
        ),
    });
    document.addEventListener('click', (e) => clicks.push((e.target as Element).localName), true);
    const result = await runAll(document, FAST);
    expect(result).toMatchObject({ ok: false, step: 'verify' });
    expect(!result.ok && result.saw).toContain('open dialogs: unknown');
    expect(clicks).not.toContain('md-filled-button');
  });

  it("falls back to the toolbar's Run all button", async () => {
    page({ menubar: false, toolbar: true });
    fakeToolbar(() => startRun());
    expect(await runAll(document, FAST)).toMatchObject({ ok: true, path: 'toolbar' });
  });
});

describe('checkUi (dry run)', () => {
  it('finds the item by command and closes the menu without choosing it', async () => {
    page({ toolbar: true });
    const fake = fakeClosureMenu(document);
    const result = await checkUi(document, FAST);
    expect(result).toMatchObject({
      ready: true,
      via: 'command',
      label: 'Restart session and run all',
      disabled: false,
      toolbar: true,
    });
    expect(fake.commands).toEqual([]);
    expect(fake.isOpen()).toBe(false);
  });

  it('reports a label match and a disabled item', async () => {
    page();
    const item = document.querySelector('[command="restart-and-run-all"]')!;
    item.removeAttribute('command');
    item.classList.add('goog-menuitem-disabled');
    fakeClosureMenu(document);
    const result = await checkUi(document, FAST);
    expect(result).toMatchObject({ ready: true, via: 'label', disabled: true, toolbar: false });
    expect(result.detail).toContain('disabled');
  });

  it('says exactly what is missing', async () => {
    page();
    document.querySelector('[command="restart-and-run-all"]')!.remove();
    const fake = fakeClosureMenu(document);
    const result = await checkUi(document, FAST);
    expect(result).toMatchObject({ ready: false, step: 'find-item', detail: 'item-missing' });
    expect(!result.ready && result.saw).toContain('restart: Restart session');
    expect(fake.isOpen()).toBe(false);
    document.getElementById('runtime-menu-button')!.remove();
    document.getElementById('top-menubar')!.remove();
    expect(await checkUi(document, FAST)).toMatchObject({
      ready: false,
      step: 'open-menu',
      detail: 'menu-button-missing',
    });
  });
});

describe('verifyRunStarted', () => {
  it('sees an execution count change and the connect button turning busy', async () => {
    page();
    mount(snippet('connect-button-connected-2026-03.html'));
    const since = takeRunSnapshot(document);
    const counter = cell().querySelector('colab-run-button')!.shadowRoot!.querySelector('.execution-count')!;
    setTimeout(() => {
      counter.textContent = '[1]';
    }, 5);
    expect(await verifyRunStarted(document, { since, timeoutMs: 200 })).toEqual({
      ok: true,
      evidence: `cell ${CELL} execution count 11 -> 1`,
    });

    const again = takeRunSnapshot(document);
    const icon = deepQuery(document, '#connect-icon md-icon')!;
    setTimeout(() => {
      icon.textContent = 'more_horiz';
    }, 5);
    expect(await verifyRunStarted(document, { since: again, timeoutMs: 200 })).toEqual({
      ok: true,
      evidence: 'connect button busy',
    });
  });
});
