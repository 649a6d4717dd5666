// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeClosureMenu, mount, recordEvents, snippet } from '../../test/support/colab-dom';
import {
  activateMenuItem,
  closeMenu,
  findMenuItem,
  findRuntimeButton,
  findRuntimeMenu,
  itemLabel,
  locateMenuItem,
  openRuntimeMenu,
} from './runtime-menu';

const MENUBAR = snippet('menubar-and-runtime-menu-2026-03.html');

beforeEach(() => {
  mount(MENUBAR);
});

afterEach(() => {
  document.body.innerHTML = '';
});

const menu = () => document.getElementById('runtime-menu')!;
const item = (command: string) => menu().querySelector(`[command="${command}"]`)!;

describe('finding the Runtime menu on the real capture', () => {
  it('finds the button by id, and by its caption when the id is gone', () => {
    expect(findRuntimeButton(document)?.id).toBe('runtime-menu-button');
    document.getElementById('runtime-menu-button')!.removeAttribute('id');
    expect(findRuntimeButton(document)?.textContent).toContain('Runtime');
  });

  it('finds the menu by id, or as the popup the button names; never a Closure menu by what it holds', () => {
    const runtimeMenu = menu();
    expect(findRuntimeMenu(document)).toBe(runtimeMenu);
    runtimeMenu.id = ':2k';
    expect(findRuntimeMenu(document)).toBeNull();
    const button = document.getElementById('runtime-menu-button')!;
    for (const attr of ['aria-controls', 'aria-owns']) {
      button.setAttribute(attr, ':2k');
      expect(findRuntimeMenu(document), attr).toBe(runtimeMenu);
      button.removeAttribute(attr);
    }
    // A name that is not a popup menu is no Runtime menu.
    button.setAttribute('aria-controls', 'top-menubar');
    expect(findRuntimeMenu(document)).toBeNull();
  });
});

describe('findMenuItem', () => {
  it('finds restart-and-run-all by command', () => {
    const found = findMenuItem(menu(), 'restart-and-run-all');
    expect(found).toMatchObject({ ok: true, via: 'command', label: 'Restart session and run all', disabled: false });
    expect(found.ok && found.item.id).toBe(':2a');
    expect(findMenuItem(menu(), 'runall')).toMatchObject({ ok: true, via: 'command', label: 'Run all' });
  });

  it('falls back to the English label when the command attribute is gone', () => {
    item('restart-and-run-all').removeAttribute('command');
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      ok: true,
      via: 'label',
      label: 'Restart session and run all',
    });
    item('runall').removeAttribute('command');
    expect(findMenuItem(menu(), 'runall')).toMatchObject({ ok: true, via: 'label', label: 'Run all' });
  });

  it('matches the pre-2024 label and ignores accelerator hints', () => {
    const el = item('restart-and-run-all');
    el.removeAttribute('command');
    el.querySelector('.goog-menuitem-content')!.innerHTML =
      'Restart runtime and run all<span class="goog-menuitem-accel">Ctrl+M R</span>';
    expect(itemLabel(el)).toBe('Restart runtime and run all');
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({ ok: true, via: 'label' });
    el.querySelector('.goog-menuitem-content')!.textContent = 'Restart and run all';
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({ ok: true, via: 'label' });
  });

  it('reports a disabled item (Colab disables it while disconnected)', () => {
    item('restart-and-run-all').classList.add('goog-menuitem-disabled');
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-disabled' },
    });
    item('restart-and-run-all').classList.remove('goog-menuitem-disabled');
    item('restart-and-run-all').setAttribute('aria-disabled', 'true');
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-disabled' },
    });
    expect(locateMenuItem(menu(), 'restart-and-run-all')).toMatchObject({ disabled: true, via: 'command' });
  });

  it('reports the items it saw when the item is missing', () => {
    item('restart-and-run-all').remove();
    const found = findMenuItem(menu(), 'restart-and-run-all');
    expect(found).toMatchObject({ ok: false, failed: { step: 'find-item', reason: 'item-missing' } });
    expect(!found.ok && found.failed.saw).toContain('restart: Restart session');
    expect(!found.ok && found.failed.saw).toContain('powerwash-current-vm: Disconnect and delete runtime');
  });

  it('never returns a dangerous item, whatever the labels say', () => {
    item('restart-and-run-all').remove();
    const powerwash = item('powerwash-current-vm');
    powerwash.querySelector('.goog-menuitem-content')!.textContent = 'Restart and run all';
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-missing' },
    });
    powerwash.removeAttribute('command');
    powerwash.querySelector('.goog-menuitem-content')!.textContent =
      'Restart and run all (disconnect and delete runtime)';
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-missing' },
    });
    expect(findMenuItem(menu(), 'powerwash-current-vm')).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-dangerous' },
    });
    expect(findMenuItem(menu(), 'change-runtime-type', [/.*/])).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-dangerous' },
    });
    expect(findMenuItem(menu(), 'anything', [/Change runtime type/])).toMatchObject({
      ok: false,
      failed: {
        step: 'find-item',
        reason: 'item-missing',
      },
    });
  });

  it('refuses an item carrying the command but labelled as a dangerous action', () => {
    item('restart-and-run-all').querySelector('.goog-menuitem-content')!.textContent = 'Disconnect and delete runtime';
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-dangerous' },
    });
  });
});

describe('openRuntimeMenu', () => {
  it('presses the button (mouseover, mousedown, mouseup at its centre, no click) and waits for the menu', async () => {
    const fake = fakeClosureMenu(document);
    const log = recordEvents(document);
    const opened = await openRuntimeMenu(document);
    expect(opened).toMatchObject({ ok: true, openedByUs: true });
    expect(opened.ok && opened.menu).toBe(menu());
    expect(fake.isOpen()).toBe(true);
    expect(log.map((e) => e.type)).toEqual(['mouseover', 'pointerdown', 'mousedown', 'pointerup', 'mouseup']);
    expect(log.every((e) => e.target === 'runtime-menu-button' && e.x === 330 && e.y === 20 && e.button === 0)).toBe(
      true,
    );
  });

  it('waits for a menu that Closure creates on first open', async () => {
    fakeClosureMenu(document, { lazy: true });
    expect(document.getElementById('runtime-menu')).toBeNull();
    const opened = await openRuntimeMenu(document);
    expect(opened.ok && opened.menu.id).toBe('runtime-menu');
  });

  it('does not press an already expanded button (a second press would close it)', async () => {
    const fake = fakeClosureMenu(document);
    await openRuntimeMenu(document);
    const log = recordEvents(document);
    expect(await openRuntimeMenu(document)).toMatchObject({ ok: true, openedByUs: false });
    expect(log).toEqual([]);
    expect(fake.isOpen()).toBe(true);
  });

  it('fails when the menu does not open, and when there is no button', async () => {
    expect(await openRuntimeMenu(document, { timeoutMs: 30 })).toMatchObject({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'menu-did-not-open',
      },
    });
    document.getElementById('runtime-menu-button')!.remove();
    document.querySelector('#top-menubar')!.remove();
    expect(await openRuntimeMenu(document, { timeoutMs: 30 })).toMatchObject({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'menubar-missing',
        saw: "no Runtime menu button: Colab's menu bar is not on the page",
      },
    });
  });

  it('presses nothing while the header is collapsed (§11.3): the menu button is hidden', async () => {
    const fake = fakeClosureMenu(document);
    document.querySelector<HTMLElement>('.menubar-wrapper')!.style.display = 'none';
    const log = recordEvents(document);
    const opened = await openRuntimeMenu(document, { timeoutMs: 30 });
    expect(opened).toMatchObject({ ok: false, failed: { step: 'open-menu', reason: 'header-collapsed' } });
    expect(!opened.ok && opened.failed.saw).toContain('collapsed');
    expect(log).toEqual([]);
    expect(fake.isOpen()).toBe(false);
  });
});

/**
 * The connect button's dropdown, a second Closure menu holding "Disconnect and delete runtime" (§11.3), left open;
 * and a Runtime menu without its id (Closure auto-ids only), which the Runtime button shows on mousedown.
 */
function connectMenuAndIdlessRuntimeMenu() {
  const [connectMenu] = mount(
    '<div class="goog-menu goog-menu-vertical" role="menu" id=":3f" style="visibility: visible; left: 900px">' +
      '<div class="goog-menuitem" role="menuitem" command="powerwash-current-vm"><div class="goog-menuitem-content">' +
      'Disconnect and delete runtime</div></div><div class="goog-menuitem" role="menuitem" command="runall">' +
      '<div class="goog-menuitem-content">Run all</div></div></div>',
  );
  const runtimeMenu = menu();
  runtimeMenu.id = ':2k';
  const button = document.getElementById('runtime-menu-button')!;
  button.addEventListener('mousedown', () => {
    runtimeMenu.setAttribute('style', 'visibility: visible; left: 300px; top: 32px;');
    button.setAttribute('aria-expanded', 'true');
  });
  return { connectMenu: connectMenu!, runtimeMenu };
}

describe('the connect menu, a second Closure menu (§11.3)', () => {
  it('is never taken for the Runtime menu: without an id, the Runtime menu is the popup our press showed', async () => {
    const { connectMenu, runtimeMenu } = connectMenuAndIdlessRuntimeMenu();
    const log = recordEvents(connectMenu);
    const opened = await openRuntimeMenu(document, { timeoutMs: 100 });
    expect(opened.ok && opened.menu).toBe(runtimeMenu);
    expect(log).toEqual([]);
  });

  it('with the Runtime menu already open and no id to know it by, no menu is chosen', async () => {
    const { connectMenu, runtimeMenu } = connectMenuAndIdlessRuntimeMenu();
    runtimeMenu.setAttribute('style', 'visibility: visible;');
    document.getElementById('runtime-menu-button')!.setAttribute('aria-expanded', 'true');
    const log = recordEvents(connectMenu);
    expect(await openRuntimeMenu(document, { timeoutMs: 30 })).toMatchObject({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'menu-did-not-open',
      },
    });
    expect(log).toEqual([]);
  });
});

describe('activateMenuItem and closeMenu', () => {
  it("activates the item at the item's own centre, which Closure accepts", async () => {
    const fake = fakeClosureMenu(document);
    await openRuntimeMenu(document);
    const log = recordEvents(document);
    activateMenuItem(item('restart-and-run-all'));
    expect(fake.commands).toEqual(['restart-and-run-all']);
    expect(fake.isOpen()).toBe(false);
    expect(log.map((e) => e.type)).toEqual(['mouseover', 'pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']);
    expect(log[0]).toMatchObject({ target: 'restart-and-run-all', x: 410, y: 40 + 7 * 24 + 12 });
  });

  it('closes the menu with Escape', async () => {
    const fake = fakeClosureMenu(document);
    await openRuntimeMenu(document);
    expect(await closeMenu(document, menu())).toBe(true);
    expect(fake.isOpen()).toBe(false);
    expect(fake.commands).toEqual([]);
  });

  it('closes the menu with a second press on the button when Escape does nothing', async () => {
    const fake = fakeClosureMenu(document, { ignoreEscape: true });
    await openRuntimeMenu(document);
    expect(await closeMenu(document, menu(), { timeoutMs: 30 })).toBe(true);
    expect(fake.isOpen()).toBe(false);
  });

  it('does not send Escape while a dialog is open (it would cancel the dialog)', async () => {
    fakeClosureMenu(document);
    await openRuntimeMenu(document);
    mount('<mwc-dialog open heading="Restart session?"></mwc-dialog>');
    const keys: string[] = [];
    document.addEventListener('keydown', (e) => keys.push(e.key), true);
    expect(await closeMenu(document, menu(), { timeoutMs: 30 })).toBe(true);
    expect(keys).toEqual([]);
  });
});

describe('finding the Runtime button and menu where Colab differs', () => {
  it('takes the button by its id whatever its caption says (a language Colab was never seen in)', () => {
    const button = document.getElementById('runtime-menu-button')!;
    button.querySelector('.goog-menu-button-caption')!.textContent = 'Среда выполнения';
    expect(findRuntimeButton(document)).toBe(button);
  });

  it('reads the caption of a menubar button without a caption element', () => {
    const button = document.getElementById('runtime-menu-button')!;
    button.removeAttribute('id');
    button.innerHTML = ' Runtime ';
    expect(findRuntimeButton(document)).toBe(button);
  });

  it('finds no menu, and throws nothing, on a page without a menu bar', () => {
    document.body.innerHTML = '';
    expect(findRuntimeButton(document)).toBeNull();
    expect(findRuntimeMenu(document)).toBeNull();
  });

  it('follows an ARIA link written with spaces around the id (an ID reference list)', () => {
    menu().id = ':2k';
    document.getElementById('runtime-menu-button')!.setAttribute('aria-controls', ' :2k ');
    expect(findRuntimeMenu(document)?.id).toBe(':2k');
  });
});

describe('openRuntimeMenu when the menu is slow or cannot be told', () => {
  it('waits up to 3 s by default for a menu that shows late', async () => {
    const button = document.getElementById('runtime-menu-button')!;
    button.addEventListener('mousedown', () => {
      button.setAttribute('aria-expanded', 'true');
      setTimeout(() => menu().setAttribute('style', 'visibility: visible;'), 50);
    });
    expect(await openRuntimeMenu(document)).toMatchObject({ ok: true, openedByUs: true });
  });

  it('presses again to close what its own press expanded, and says it saw no menu', async () => {
    menu().remove();
    const button = document.getElementById('runtime-menu-button')!;
    const presses: string[] = [];
    button.addEventListener('mousedown', () => {
      presses.push('press');
      button.setAttribute('aria-expanded', String(button.getAttribute('aria-expanded') !== 'true'));
    });
    const opened = await openRuntimeMenu(document, { timeoutMs: 30 });
    expect(opened).toMatchObject({
      ok: false,
      failed: { step: 'open-menu', reason: 'menu-did-not-open', saw: 'aria-expanded=true; menu not found' },
    });
    expect(presses).toEqual(['press', 'press']);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('says how the menu it found was hidden when it did not show', async () => {
    const failed = await openRuntimeMenu(document, { timeoutMs: 30 });
    expect(failed).toMatchObject({ ok: false, failed: { saw: 'aria-expanded=false; menu present, display=none' } });
    menu().setAttribute('style', 'visibility: hidden;');
    const hidden = await openRuntimeMenu(document, { timeoutMs: 30 });
    expect(hidden).toMatchObject({ ok: false, failed: { saw: 'aria-expanded=false; menu present, display=default' } });
  });

  it('chooses no menu when two popups with run commands show after the press', async () => {
    const { runtimeMenu } = connectMenuAndIdlessRuntimeMenu();
    const [second] = mount(
      '<div class="goog-menu" role="menu" style="display: none"><div class="goog-menuitem" role="menuitem" ' +
        'command="runall"><div class="goog-menuitem-content">Run all</div></div></div>',
    );
    document
      .getElementById('runtime-menu-button')!
      .addEventListener('mousedown', () => second!.setAttribute('style', 'visibility: visible;'));
    const opened = await openRuntimeMenu(document, { timeoutMs: 30 });
    expect(opened).toMatchObject({ ok: false, failed: { step: 'open-menu', reason: 'menu-did-not-open' } });
    expect(runtimeMenu.style.visibility).toBe('visible');
  });
});

describe('items: what is reported, and what is never found', () => {
  it('reports a disabled md-menu-item (the attribute, as Material Web sets it)', () => {
    item('restart-and-run-all').setAttribute('disabled', '');
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      ok: false,
      failed: {
        step: 'find-item',
        reason: 'item-disabled',
        saw: 'command restart-and-run-all: "Restart session and run all"',
      },
    });
  });

  it('names the refused item and its label when the command is labelled as a dangerous action', () => {
    item('restart-and-run-all').querySelector('.goog-menuitem-content')!.textContent = 'Disconnect and delete runtime';
    expect(findMenuItem(menu(), 'restart-and-run-all')).toMatchObject({
      failed: { saw: 'restart-and-run-all: "Disconnect and delete runtime"' },
    });
  });

  it('lists the items it saw one by one, an item without a command as "?"', () => {
    item('restart-and-run-all').remove();
    item('restart').removeAttribute('command');
    const found = findMenuItem(menu(), 'restart-and-run-all');
    expect(!found.ok && found.failed.saw).toMatch(/^items: runall: Run all; runbefore: .*; \?: Restart session; /);
  });

  it('finds a command without known labels only by that command', () => {
    expect(findMenuItem(menu(), 'no-such-command')).toMatchObject({
      ok: false,
      failed: { step: 'find-item', reason: 'item-missing' },
    });
    expect(locateMenuItem(menu(), 'no-such-command')).toBeNull();
  });

  it('asked for a dangerous command, finds nothing, whatever labels it is given', () => {
    expect(locateMenuItem(menu(), 'change-runtime-type', [/^Run all$/])).toBeNull();
    expect(locateMenuItem(menu(), 'runall', [/^Run all$/])).not.toBeNull();
  });

  it('asked for a dangerous command the menu does not show, does not take a safe item its labels match', () => {
    for (const command of ['change-runtime-type', 'factory-reset'])
      menu().querySelector(`[command="${command}"]`)?.remove();
    expect(locateMenuItem(menu(), 'change-runtime-type', [/^Run all$/])).toBeNull();
    expect(locateMenuItem(menu(), 'factory-reset', [/^Restart session$/])).toBeNull();
  });
});

describe('closeMenu, step by step', () => {
  /** A shown menu that hides `after` ms after Escape; no Runtime button to press. */
  function menuClosingOnEscape(after: number | null) {
    document.getElementById('runtime-menu-button')!.remove();
    menu().setAttribute('style', 'visibility: visible;');
    menu().addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && after !== null) setTimeout(() => menu().setAttribute('style', 'display: none;'), after);
    });
    return menu();
  }

  it('leaves a menu that is already closed alone: no key, no press', async () => {
    const log = recordEvents(document, ['keydown', 'mousedown']);
    expect(await closeMenu(document, menu())).toBe(true);
    expect(log).toEqual([]);
  });

  it('gives Escape up to half a second by default', async () => {
    expect(await closeMenu(document, menuClosingOnEscape(10))).toBe(true);
  });

  it('with Escape ignored and no button to press, says the menu is still open', async () => {
    expect(await closeMenu(document, menuClosingOnEscape(null), { timeoutMs: 30 })).toBe(false);
  });

  it('closes with Escape alone when Escape works: the button is not pressed', async () => {
    fakeClosureMenu(document);
    await openRuntimeMenu(document);
    const log = recordEvents(document, ['keydown', 'mousedown']);
    expect(await closeMenu(document, menu())).toBe(true);
    expect(log.map((e) => e.type)).toEqual(['keydown']);
  });

  it('gives the second press up to half a second by default', async () => {
    fakeClosureMenu(document, { ignoreEscape: true });
    await openRuntimeMenu(document);
    const button = document.getElementById('runtime-menu-button')!;
    button.addEventListener('mousedown', () => {
      menu().setAttribute('style', 'visibility: visible;');
      setTimeout(() => menu().setAttribute('style', 'display: none;'), 10);
    });
    expect(await closeMenu(document, menu(), { timeoutMs: undefined })).toBe(true);
  });
});

describe('presses on the Runtime button: never one too many', () => {
  const button = () => document.getElementById('runtime-menu-button')!;

  it('presses once when its press expands nothing: a second press could open what the first did not', async () => {
    const log = recordEvents(button(), ['mousedown']);
    expect(await openRuntimeMenu(document, { timeoutMs: 30 })).toMatchObject({ ok: false });
    expect(log).toHaveLength(1);
  });

  it('never presses a button the person expanded, even when no menu can be told', async () => {
    const { runtimeMenu } = connectMenuAndIdlessRuntimeMenu();
    runtimeMenu.setAttribute('style', 'visibility: visible;');
    button().setAttribute('aria-expanded', 'true');
    const log = recordEvents(button(), ['mousedown']);
    expect(await openRuntimeMenu(document, { timeoutMs: 30 })).toMatchObject({ ok: false });
    expect(log).toEqual([]);
    expect(button().getAttribute('aria-expanded')).toBe('true');
  });

  it('gives Escape its time before pressing the button: a menu that closes a moment later gets no press', async () => {
    menu().setAttribute('style', 'visibility: visible;');
    menu().addEventListener('keydown', (e) => {
      if (e.key === 'Escape') setTimeout(() => menu().setAttribute('style', 'display: none;'), 20);
    });
    const log = recordEvents(button(), ['mousedown']);
    expect(await closeMenu(document, menu())).toBe(true);
    expect(log).toEqual([]);
  });
});

describe('a dangerous command asked for', () => {
  it('is refused as dangerous even when the menu does not hold it', () => {
    item('powerwash-current-vm').remove();
    expect(findMenuItem(menu(), 'powerwash-current-vm')).toEqual({
      ok: false,
      failed: {
        step: 'find-item',
        reason: 'item-dangerous',
        saw: 'powerwash-current-vm: ""',
      },
    });
  });
});
