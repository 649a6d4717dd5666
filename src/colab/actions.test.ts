// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeClosureMenu, mount, recordEvents, setRunState, snippet, tick } from '../../test/support/colab-dom';
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

/** The captured page parts: menubar, toolbar split button, connect button (connected and idle), one cell. */
function page(opts: { menubar?: boolean; toolbar?: boolean; connect?: boolean } = {}) {
  if (opts.toolbar) mount(snippet('toolbar-run-all-split-button-2026-03.html'));
  if (opts.connect !== false) mount(snippet('connect-button-connected-2026-03.html'));
  if (opts.menubar !== false) mount(snippet('menubar-and-runtime-menu-2026-03.html'));
  mount(snippet('code-cell-with-static-output-2026-03.html'));
}

const connectRoot = () => deepQuery(document, 'colab-connect-button')!.shadowRoot!;

/** The connect button as Colab shows it while it brings a crashed kernel back (§11.5). */
function connecting() {
  connectRoot().querySelector('#connect-icon md-icon')!.textContent = 'more_horiz';
  connectRoot().querySelector('#connect')!.append('Connecting');
}

function connectedAndIdle() {
  connectRoot().querySelector('#connect-icon md-icon')!.textContent = 'done';
  const button = connectRoot().querySelector('#connect')!;
  for (const node of [...button.childNodes]) if (node.nodeType === Node.TEXT_NODE) node.remove();
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
          '<mwc-dialog open heading="セッションを再起動しますか？"><md-text-button slot="secondaryAction">いいえ' +
            '</md-text-button><md-text-button slot="primaryAction">はい</md-text-button></mwc-dialog>',
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
    expect(result).toMatchObject({
      ok: false,
      failed: { step: 'confirm', reason: 'other-dialog', saw: expect.stringContaining('gpu-quota') },
    });
    expect(!result.ok && result.failed.saw).toContain('Cannot connect to GPU backend');
    expect(clicks).toEqual(['div']);
    expect(fake.isOpen()).toBe(false);
  });

  it('gives the restart 60 s from the confirmation to show a run, then says none started', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      page();
      let confirmedAt = 0;
      fakeClosureMenu(document, {
        onCommand: () => {
          const [dialog] = mount(RESTART_DIALOG);
          dialog!.querySelector('[slot=primaryAction]')!.addEventListener('click', () => {
            confirmedAt = Date.now();
            dialog!.remove();
          });
        },
      });
      let result: unknown = null;
      void restartAndRunAll(document).then((r) => {
        result = r;
      });
      await vi.waitFor(async () => {
        await vi.advanceTimersByTimeAsync(10);
        expect(confirmedAt).toBeGreaterThan(0);
      });
      await vi.advanceTimersByTimeAsync(confirmedAt + 59_000 - Date.now());
      expect(result).toBeNull();
      await vi.advanceTimersByTimeAsync(1000);
      expect(result).toMatchObject({
        ok: false,
        failed: { step: 'verify', reason: 'no-run-started', saw: expect.stringContaining('dialog: confirmed') },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails at verification when nothing starts', async () => {
    page();
    fakeClosureMenu(document);
    const result = await restartAndRunAll(document, FAST);
    expect(result).toMatchObject({
      ok: false,
      failed: { step: 'verify', reason: 'no-run-started', saw: expect.stringContaining('dialog: no-dialog') },
    });
  });

  it('closes the menu when the activation did not take (mouseup at the opening coordinates)', async () => {
    page();
    const fake = fakeClosureMenu(document, { itemsAtButton: true });
    const result = await restartAndRunAll(document, FAST);
    expect(fake.commands).toEqual([]);
    expect(result).toMatchObject({ ok: false, failed: { step: 'verify' } });
    expect(!result.ok && result.failed.saw).toContain('menu stayed open');
    expect(fake.isOpen()).toBe(false);
  });

  it('is not verified by the restart alone: the connect button busy, no cell pending (§11.5)', async () => {
    page();
    fakeClosureMenu(document, { onCommand: () => setTimeout(connecting, 5) });
    const result = await restartAndRunAll(document, FAST);
    expect(result).toMatchObject({
      ok: false,
      failed: { step: 'verify', reason: 'no-run-started', saw: expect.stringContaining('dialog: no-dialog') },
    });
    expect(!result.ok && result.failed.saw).toContain('runtime connecting');
  });

  it('reports a confirmation that did not close after its click, and clicks it only once', async () => {
    page();
    const pressed: string[] = [];
    fakeClosureMenu(document, {
      onCommand: () => {
        const [dialog] = mount(RESTART_DIALOG);
        dialog!.addEventListener('click', (e) => pressed.push((e.target as Element).textContent ?? ''));
      },
    });
    const result = await restartAndRunAll(document, { ...FAST, dialogSettleMs: 50 });
    expect(result).toMatchObject({ ok: false, failed: { step: 'confirm' } });
    expect(!result.ok && result.failed.reason).toBe('dialog-stayed-open');
    expect(!result.ok && result.failed.saw).toMatch(/^restart-confirm \(the click was lost; not clicked again\); /);
    expect(pressed).toEqual(['Yes']);
  });

  it('never touches the connect menu left open, even with the Runtime menu lacking its id (§11.3)', async () => {
    page();
    const [connectMenu] = mount(
      '<div class="goog-menu goog-menu-vertical" role="menu" style="visibility: visible"><div class="goog-menuitem" ' +
        'role="menuitem" command="restart-and-run-all"><div class="goog-menuitem-content">Restart session and run all' +
        '</div></div></div>',
    );
    document.getElementById('runtime-menu')!.id = ':2k';
    const fake = fakeClosureMenu(document, { menuId: ':2k', onCommand: () => showConfirmation() });
    const touched = recordEvents(connectMenu!);
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: true, path: 'menu', dialog: 'confirmed' });
    expect(fake.commands).toEqual(['restart-and-run-all']);
    expect(touched).toEqual([]);
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
      failed: { step: 'precheck', reason: 'disconnected' },
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
  it("takes the toolbar path while Colab's header is collapsed (§11.3): the hidden menu is not pressed", async () => {
    page({ toolbar: true });
    const fake = fakeClosureMenu(document);
    document.querySelector<HTMLElement>('.menubar-wrapper')!.style.display = 'none';
    const commands: string[] = [];
    fakeToolbar((c) => {
      commands.push(c);
      showConfirmation();
    });
    const log = recordEvents(document.getElementById('runtime-menu-button')!);
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: true, path: 'toolbar', dialog: 'confirmed' });
    expect(commands).toEqual(['restart-and-run-all']);
    expect(log).toEqual([]);
    expect(fake.isOpen()).toBe(false);
  });

  it('names the collapsed or missing header when there is no toolbar path either', async () => {
    page();
    fakeClosureMenu(document);
    document.querySelector<HTMLElement>('.menubar-wrapper')!.style.display = 'none';
    const collapsed = await restartAndRunAll(document, FAST);
    expect(collapsed).toMatchObject({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'header-collapsed',
        saw: expect.stringContaining('toolbar fallback: toolbar-missing'),
      },
    });
    expect(!collapsed.ok && collapsed.failed.saw).toContain("Colab's header is collapsed");
    document.querySelector('.menubar-wrapper')!.remove();
    expect(await runAll(document, FAST)).toMatchObject({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'menubar-missing',
        saw: expect.stringContaining('toolbar fallback: toolbar-missing'),
      },
    });
  });

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
      failed: {
        step: 'find-item',
        reason: 'item-missing',
        saw: expect.stringContaining('toolbar fallback: item-missing'),
      },
    });
    expect(!result.ok && result.failed.saw).toContain('runall: Run all');
    expect(fake.isOpen()).toBe(false);
    expect(menu.hasAttribute('open')).toBe(false);
  });
});

describe('toolbar menu edges', () => {
  it('a toolbar menu that does not open: nothing chosen, both failures named', async () => {
    page({ menubar: false, toolbar: true });
    const log = recordEvents(document);
    const result = await restartAndRunAll(document, FAST);
    expect(result).toMatchObject({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'menubar-missing',
        saw: expect.stringContaining('toolbar fallback: toolbar-menu-did-not-open'),
      },
    });
    // One click, on More actions: the menu never opened, so no item was pressed.
    expect(log.filter((e) => e.type === 'click')).toHaveLength(1);
  });

  it('a toolbar menu the user had open is left open when it lacks the item', async () => {
    page({ menubar: false, toolbar: true });
    const menu = fakeToolbar(() => startRun());
    menu.querySelector('[command="restart-and-run-all"]')!.remove();
    menu.setAttribute('open', '');
    expect(await restartAndRunAll(document, FAST)).toMatchObject({
      ok: false,
      failed: { reason: 'menubar-missing', saw: expect.stringContaining('toolbar fallback: item-missing') },
    });
    expect(menu.hasAttribute('open')).toBe(true);
    expect(await checkUi(document, FAST)).toMatchObject({ ok: false, failed: { step: 'open-menu' } });
    expect(menu.hasAttribute('open')).toBe(true);
  });

  it('Check Colab UI with the header gone and a toolbar menu that does not open: not ready, saying so', async () => {
    page({ menubar: false, toolbar: true });
    expect(await checkUi(document, FAST)).toMatchObject({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'menubar-missing',
        saw: expect.stringContaining('toolbar fallback: toolbar-menu-did-not-open'),
      },
      toolbar: true,
    });
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

  it('answers the high-RAM offer with its "No" button only: a cancel button labelled otherwise stays', async () => {
    page();
    const fake = fakeClosureMenu(document, { onCommand: () => startRun('running') });
    const log = recordEvents(document);
    mount(
      `<mwc-dialog open class="yes-no-dialog" heading="Switch to a high-RAM runtime?">` +
        `<div>Your session crashed after using all available RAM.</div>` +
        `<md-text-button slot="secondaryAction" dialogaction="cancel">Upgrade</md-text-button>` +
        `<md-text-button slot="primaryAction" dialogaction="ok">Yes</md-text-button></mwc-dialog>`,
    );
    expect(await runAll(document, FAST)).toMatchObject({
      ok: false,
      failed: { step: 'precheck', reason: 'high-ram-offer' },
    });
    expect(log).toEqual([]);
    expect(fake.commands).toEqual([]);
  });

  it('presses no other button of the high-RAM offer when its "No" is disabled', async () => {
    page();
    const fake = fakeClosureMenu(document);
    const log = recordEvents(document);
    mount(
      `<mwc-dialog open class="yes-no-dialog" heading="Switch to a high-RAM runtime?">` +
        `<div>Your session crashed after using all available RAM.</div>` +
        `<md-text-button slot="secondaryAction" dialogaction="cancel" disabled>No</md-text-button>` +
        `<md-text-button slot="primaryAction" dialogaction="ok">Yes</md-text-button></mwc-dialog>`,
    );
    expect(await runAll(document, FAST)).toMatchObject({ ok: false, failed: { step: 'precheck' } });
    expect(log).toEqual([]);
    expect(fake.commands).toEqual([]);
  });

  it('waits 60 s by default for the runtime to come back after the crash, and clicks nothing meanwhile', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      page();
      connecting();
      const fake = fakeClosureMenu(document);
      const log = recordEvents(document);
      let result: unknown = null;
      void runAll(document).then((r) => {
        result = r;
      });
      await vi.advanceTimersByTimeAsync(59_999);
      expect(result).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      expect(result).toMatchObject({ ok: false, failed: { step: 'runtime-ready', reason: 'runtime-not-ready' } });
      expect(log).toEqual([]);
      expect(fake.commands).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
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
    expect(result).toMatchObject({ ok: false, failed: { step: 'verify' } });
    expect(!result.ok && result.failed.saw).toContain('open dialogs: not-authored');
    expect(clicks).not.toContain('md-filled-button');
  });

  it("falls back to the toolbar's Run all button", async () => {
    page({ menubar: false, toolbar: true });
    fakeToolbar(() => startRun());
    expect(await runAll(document, FAST)).toMatchObject({ ok: true, path: 'toolbar' });
  });

  it('waits for the connect button to show the runtime connected and idle, then runs all (§11.5)', async () => {
    page();
    connecting();
    const fake = fakeClosureMenu(document, { onCommand: () => startRun() });
    const log = recordEvents(document);
    const result = runAll(document, { ...FAST, readyTimeoutMs: 2000 });
    await tick(50);
    expect(log).toEqual([]);
    connectedAndIdle();
    expect(await result).toMatchObject({ ok: true, evidence: `cell ${CELL} pending` });
    expect(fake.commands).toEqual(['runall']);
  });

  it('clicks nothing when a dialog opened while it waited for the runtime', async () => {
    page();
    connecting();
    const fake = fakeClosureMenu(document);
    const log = recordEvents(document);
    const result = runAll(document, { ...FAST, readyTimeoutMs: 2000 });
    await tick(30);
    mount(
      '<mwc-dialog open heading="Cannot connect to GPU backend"><md-text-button slot="primaryAction" ' +
        'dialogaction="ok">Connect without GPU</md-text-button></mwc-dialog>',
    );
    connectedAndIdle();
    expect(await result).toMatchObject({ ok: false, failed: { step: 'precheck', reason: 'gpu-quota' } });
    expect(log).toEqual([]);
    expect(fake.commands).toEqual([]);
  });

  it('clicks nothing when the runtime is not back within the bound, and says what the button showed', async () => {
    page({ toolbar: true });
    connecting();
    const fake = fakeClosureMenu(document);
    const log = recordEvents(document);
    expect(await runAll(document, { ...FAST, readyTimeoutMs: 50 })).toEqual({
      ok: false,
      failed: {
        step: 'runtime-ready',
        reason: 'runtime-not-ready',
        saw: 'the connect button still showed "connecting" after 50 ms',
      },
    });
    expect(log).toEqual([]);
    expect(fake.commands).toEqual([]);
  });

  it('fails when there is no connect button to tell whether the runtime is ready', async () => {
    page({ connect: false });
    const fake = fakeClosureMenu(document);
    expect(await runAll(document, FAST)).toMatchObject({
      ok: false,
      failed: { step: 'runtime-ready', reason: 'connect-button-missing' },
    });
    expect(fake.commands).toEqual([]);
  });

  it('reports a Run all that Colab ignored: nothing is clicked again', async () => {
    page({ toolbar: true });
    const fake = fakeClosureMenu(document);
    const toolbar: string[] = [];
    fakeToolbar((c) => toolbar.push(c));
    const result = await runAll(document, FAST);
    expect(result).toMatchObject({
      ok: false,
      failed: { step: 'verify', reason: 'no-run-started', saw: expect.stringContaining('dialog: none') },
    });
    expect(fake.commands).toEqual(['runall']);
    expect(toolbar).toEqual([]);
  });
});

describe('checkUi (dry run)', () => {
  it('finds the item by command and closes the menu without choosing it', async () => {
    page({ toolbar: true });
    const fake = fakeClosureMenu(document);
    const result = await checkUi(document, FAST);
    expect(result).toMatchObject({
      ok: true,
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
    expect(result).toMatchObject({ ok: true, via: 'label', disabled: true, toolbar: false });
    expect(result.ok && result.detail).toContain('disabled');
  });

  it('says exactly what is missing', async () => {
    page();
    document.querySelector('[command="restart-and-run-all"]')!.remove();
    const fake = fakeClosureMenu(document);
    const result = await checkUi(document, FAST);
    expect(result).toMatchObject({ ok: false, failed: { step: 'find-item', reason: 'item-missing' } });
    expect(!result.ok && result.failed.saw).toContain('restart: Restart session');
    expect(fake.isOpen()).toBe(false);
    document.getElementById('runtime-menu-button')!.remove();
    document.getElementById('top-menubar')!.remove();
    expect(await checkUi(document, FAST)).toMatchObject({
      ok: false,
      failed: { step: 'open-menu', reason: 'menubar-missing' },
    });
  });

  it("with the header collapsed, checks the toolbar's menu instead, the path a restart takes then", async () => {
    page({ toolbar: true });
    const fake = fakeClosureMenu(document);
    document.querySelector<HTMLElement>('.menubar-wrapper')!.style.display = 'none';
    const menu = fakeToolbar(() => {});
    const result = await checkUi(document, FAST);
    expect(result).toMatchObject({ ok: true, path: 'toolbar', via: 'command', toolbar: true });
    expect(result.ok && result.detail).toBe(
      'header-collapsed: "Restart session and run all" found by command in the toolbar menu',
    );
    expect(menu.hasAttribute('open')).toBe(false);
    expect(fake.isOpen()).toBe(false);
  });
});

describe('verifyRunStarted', () => {
  const counter = () => cell().querySelector('colab-run-button')!.shadowRoot!.querySelector('.execution-count')!;

  it('takes a new execution number as proof (the cell ran between two looks)', async () => {
    page();
    const since = takeRunSnapshot(document);
    setTimeout(() => {
      counter().textContent = '[1]';
    }, 5);
    expect(await verifyRunStarted(document, { since, timeoutMs: 200 })).toEqual({
      ok: true,
      evidence: `cell ${CELL} execution count 11 -> 1`,
    });
  });

  it('does not take a busy connect button or a cleared count as proof: a restart alone does both (§11.5)', async () => {
    page();
    const since = takeRunSnapshot(document);
    setTimeout(() => {
      connecting();
      counter().textContent = '[ ]';
    }, 5);
    const result = await verifyRunStarted(document, { since, timeoutMs: 100 });
    expect(result).toMatchObject({ ok: false, failed: { step: 'verify', reason: 'no-run-started' } });
    expect(!result.ok && result.failed.saw).toBe('1 cells, none pending/running; runtime connecting');
  });

  it('sees a cell that was running go idle and then pending again', async () => {
    page();
    setRunState(cell(), 'running animating');
    const since = takeRunSnapshot(document);
    setTimeout(() => setRunState(cell(), 'stale'), 5);
    setTimeout(() => setRunState(cell(), 'pending'), 20);
    expect(await verifyRunStarted(document, { since, timeoutMs: 300 })).toEqual({
      ok: true,
      evidence: `cell ${CELL} pending`,
    });
  });
});

describe('the waits are the ones asked for', () => {
  /** Whether the action ends within `ms` of a test clock, nothing having opened. */
  async function endsWithin(action: () => Promise<unknown>, ms: number): Promise<[boolean, boolean]> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      let done = false;
      void action().then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(ms / 2);
      const early = done;
      await vi.advanceTimersByTimeAsync(ms / 2 + 50);
      return [early, done];
    } finally {
      vi.useRealTimers();
    }
  }

  it('gives a Runtime menu, then a toolbar menu, that does not open menuTimeoutMs each', async () => {
    page({ toolbar: true });
    expect(await endsWithin(() => restartAndRunAll(document, { menuTimeoutMs: 400 }), 800)).toEqual([false, true]);
  });

  it('Check Colab UI gives a menu that does not open menuTimeoutMs, on either path', async () => {
    page();
    expect(await endsWithin(() => checkUi(document, { menuTimeoutMs: 400 }), 400)).toEqual([false, true]);
    document.body.innerHTML = '';
    page({ toolbar: true });
    document.querySelector<HTMLElement>('.menubar-wrapper')!.style.display = 'none';
    expect(await endsWithin(() => checkUi(document, { menuTimeoutMs: 400 }), 400)).toEqual([false, true]);
  });
});

describe('menus left as they were found', () => {
  let listeners = new AbortController();
  // A fake menu's Escape listener stays on the document: none is left open for the next test to close.
  const personPresses = () =>
    document.getElementById('runtime-menu-button')!.dispatchEvent(new MouseEvent('mousedown', { button: 0 }));
  afterEach(() => {
    listeners.abort();
    listeners = new AbortController();
  });

  /** Presses on the Runtime button after the first one do nothing: a menu no press can close. */
  function onlyFirstPressActs() {
    const button = document.getElementById('runtime-menu-button')!;
    let presses = 0;
    document.addEventListener(
      'mousedown',
      (e) => {
        if (button.contains(e.target as Node) && ++presses > 1) e.stopImmediatePropagation();
      },
      { capture: true, signal: listeners.signal },
    );
  }

  it('closes the Runtime menu it opened when the item is missing, and leaves one the person opened', async () => {
    page();
    document.querySelector('#runtime-menu [command="restart-and-run-all"]')!.remove();
    const fake = fakeClosureMenu(document);
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: false, failed: { step: 'find-item' } });
    expect(fake.isOpen()).toBe(false);
    personPresses();
    expect(fake.isOpen()).toBe(true);
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: false, failed: { step: 'find-item' } });
    expect(fake.isOpen()).toBe(true);
    personPresses();
  });

  it('Check Colab UI leaves a Runtime menu the person opened open, and ready', async () => {
    page();
    const fake = fakeClosureMenu(document);
    personPresses();
    expect(await checkUi(document, FAST)).toMatchObject({ ok: true, path: 'menu' });
    expect(fake.isOpen()).toBe(true);
    personPresses();
  });

  it('Check Colab UI says so when the menu it opened cannot be closed', async () => {
    page();
    const fake = fakeClosureMenu(document, { ignoreEscape: true });
    onlyFirstPressActs();
    expect(await checkUi(document, FAST)).toEqual({
      ok: false,
      failed: {
        step: 'close-menu',
        reason: 'menu-stayed-open',
        saw: '"Restart session and run all" found by command',
      },
      toolbar: false,
    });
    expect(fake.isOpen()).toBe(true);
    listeners.abort();
    personPresses();
  });

  it('says a menu that stayed open after the activation could not be closed', async () => {
    page();
    fakeClosureMenu(document, { itemsAtButton: true, ignoreEscape: true });
    onlyFirstPressActs();
    const result = await restartAndRunAll(document, FAST);
    expect(!result.ok && result.failed.saw).toContain('(the menu stayed open and could not be closed)');
    listeners.abort();
    personPresses();
  });
});

describe('Check Colab UI: what it reports', () => {
  it('names the menu path and whether the toolbar fallback is there', async () => {
    page();
    fakeClosureMenu(document);
    expect(await checkUi(document, FAST)).toEqual({
      ok: true,
      path: 'menu',
      via: 'command',
      label: 'Restart session and run all',
      disabled: false,
      toolbar: false,
      detail: '"Restart session and run all" found by command; toolbar fallback absent',
    });
    document.body.innerHTML = '';
    page({ toolbar: true });
    fakeClosureMenu(document);
    const result = await checkUi(document, FAST);
    expect(result.ok && result.detail).toBe('"Restart session and run all" found by command; toolbar fallback present');
  });

  it('reports a Runtime menu that does not open, even with a working toolbar menu beside it', async () => {
    page({ toolbar: true });
    fakeToolbar(() => {});
    expect(await checkUi(document, FAST)).toMatchObject({
      ok: false,
      failed: { step: 'open-menu', reason: 'menu-did-not-open', saw: expect.stringMatching(/^aria-expanded=/) },
      toolbar: true,
    });
  });

  it('with no menubar and no toolbar, says only that the menubar is missing', async () => {
    page({ menubar: false });
    expect(await checkUi(document, FAST)).toEqual({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'menubar-missing',
        saw: "no Runtime menu button: Colab's menu bar is not on the page",
      },
      toolbar: false,
    });
  });
});

describe('the English UI is read from the item the guard chose', () => {
  it('refuses an English dialog unlike the restart confirmation, even right after the action', async () => {
    page();
    const clicks: string[] = [];
    document.addEventListener('click', (e) => clicks.push((e.target as Element).localName), true);
    fakeClosureMenu(document, {
      onCommand: () =>
        showConfirmation(
          '<mwc-dialog open heading="Save a copy?"><div>Your changes will be kept in a new file.</div>' +
            '<md-text-button slot="secondaryAction" dialogaction="cancel">Cancel</md-text-button>' +
            '<md-text-button slot="primaryAction" dialogaction="ok">OK</md-text-button></mwc-dialog>',
        ),
    });
    expect(await restartAndRunAll(document, FAST)).toMatchObject({
      ok: false,
      failed: { step: 'confirm', reason: 'unrecognised-dialog' },
    });
    expect(clicks).not.toContain('md-text-button');
  });

  it('waits for a confirmation that Lit renders a moment after the action', async () => {
    page();
    fakeClosureMenu(document, { onCommand: () => setTimeout(() => showConfirmation(), 30) });
    expect(await restartAndRunAll(document, FAST)).toMatchObject({ ok: true, dialog: 'confirmed' });
  });
});

describe('runAll: refusals before anything is clicked', () => {
  it('names a dialog already open at once, without waiting for the runtime', async () => {
    page();
    connecting();
    mount(GPU_DIALOG);
    expect(await runAll(document, { ...FAST, readyTimeoutMs: 100 })).toMatchObject({
      ok: false,
      failed: { step: 'precheck', reason: 'gpu-quota' },
    });
  });

  it("reports the toolbar's Run all by command, and says when there is none", async () => {
    page({ menubar: false, toolbar: true });
    fakeToolbar(() => startRun());
    expect(await runAll(document, FAST)).toMatchObject({ ok: true, path: 'toolbar', via: 'command' });
    document.body.innerHTML = '';
    page({ menubar: false });
    const result = await runAll(document, FAST);
    expect(!result.ok && result.failed.saw).toContain(
      'toolbar fallback: toolbar-missing; toolbar: no toolbar Run all button',
    );
  });
});
