// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { deepQuery } from './dom';
import { checkToolbarCommand, chooseToolbarCommand, clickInnermost } from './toolbar-menu';

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

/** The captured split button (§1.3) with an md-menu that opens on a click of "More actions", after `delayMs`. */
function toolbar(delayMs = 0, opts: { closesOnEscape?: boolean } = {}) {
  mount(snippet('toolbar-run-all-split-button-2026-03.html'));
  const root = deepQuery(document, 'colab-notebook-toolbar-run-button')!.shadowRoot!;
  const menu = root.querySelector('md-menu')!;
  root.querySelector('#toolbar-run-button-more-actions')!.addEventListener('click', () => {
    setTimeout(() => menu.setAttribute('open', ''), delayMs);
  });
  if (opts.closesOnEscape !== false) menu.addEventListener('keydown', () => menu.removeAttribute('open'));
  return { root, menu };
}

describe('the toolbar menu (§1.3)', () => {
  it('gives the md-menu 3 s to open before saying it did not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    toolbar(2900);
    const slow = checkToolbarCommand(document, 'restart-and-run-all');
    await vi.advanceTimersByTimeAsync(3400);
    expect(await slow).toMatchObject({ ok: true });
    document.body.innerHTML = '';
    toolbar(2900);
    const chosen = chooseToolbarCommand(document, 'restart-and-run-all');
    await vi.advanceTimersByTimeAsync(3400);
    expect(await chosen).toMatchObject({ ok: true, via: 'command' });
    document.body.innerHTML = '';
    toolbar(3100);
    const late = chooseToolbarCommand(document, 'restart-and-run-all');
    await vi.advanceTimersByTimeAsync(3400);
    expect(await late).toMatchObject({ ok: false, failed: { step: 'open-menu', reason: 'toolbar-menu-did-not-open' } });
  });

  it('closes the menu it opened for a look: by Escape, else after 300 ms by its open attribute', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { menu } = toolbar(0, { closesOnEscape: false });
    let closedAt: number | undefined;
    new MutationObserver(() => {
      if (!menu.hasAttribute('open')) closedAt ??= Date.now();
    }).observe(menu, { attributes: true });
    const start = Date.now();
    const check = checkToolbarCommand(document, 'restart-and-run-all');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await check).toMatchObject({ ok: true });
    expect(menu.hasAttribute('open')).toBe(false);
    expect(closedAt! - start).toBeGreaterThanOrEqual(300);
    expect(closedAt! - start).toBeLessThan(400);
  });

  it('says in the dry run whether the item is disabled', async () => {
    const { menu } = toolbar();
    const item = menu.querySelector('md-menu-item[command="restart-and-run-all"]')!;
    expect(await checkToolbarCommand(document, 'restart-and-run-all')).toMatchObject({ ok: true, disabled: false });
    item.setAttribute('disabled', '');
    expect(await checkToolbarCommand(document, 'restart-and-run-all')).toMatchObject({ ok: true, disabled: true });
  });
});

describe('a toolbar the guard cannot use is named, and nothing is pressed', () => {
  it('no split button at all (before the 2025 M3 toolbar)', async () => {
    mount('<colab-notebook-toolbar id="top-toolbar"></colab-notebook-toolbar>');
    expect(await chooseToolbarCommand(document, 'restart-and-run-all')).toEqual({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'toolbar-missing',
        saw: 'no colab-notebook-toolbar-run-button',
      },
    });
    expect(await checkToolbarCommand(document, 'restart-and-run-all')).toEqual({
      ok: false,
      failed: {
        step: 'open-menu',
        reason: 'toolbar-missing',
        saw: 'no colab-notebook-toolbar-run-button with a More actions menu',
      },
    });
  });

  it('a split button without its More actions button, or without its md-menu', async () => {
    for (const part of ['#toolbar-run-button-more-actions', 'md-menu']) {
      const { root, menu } = toolbar();
      let opened = false;
      menu.addEventListener('click', () => (opened = true));
      root.querySelector(part)!.remove();
      expect(await chooseToolbarCommand(document, 'restart-and-run-all')).toEqual({
        ok: false,
        failed: {
          step: 'open-menu',
          reason: 'toolbar-missing',
          saw: 'no More actions button or md-menu',
        },
      });
      expect(await checkToolbarCommand(document, 'restart-and-run-all')).toMatchObject({
        ok: false,
        failed: {
          step: 'open-menu',
          reason: 'toolbar-missing',
        },
      });
      expect(menu.hasAttribute('open')).toBe(false);
      expect(opened).toBe(false);
      document.body.innerHTML = '';
    }
  });

  it('a menu that never opens says so, in the choice and in the dry run', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    for (const look of [chooseToolbarCommand, checkToolbarCommand]) {
      const { root } = toolbar();
      // Replaced by a copy without the listener that opens the menu.
      const more = root.querySelector('#toolbar-run-button-more-actions')!;
      more.replaceWith(more.cloneNode(true));
      const result = look(document, 'restart-and-run-all');
      await vi.advanceTimersByTimeAsync(3100);
      expect(await result).toEqual({
        ok: false,
        failed: { step: 'open-menu', reason: 'toolbar-menu-did-not-open', saw: 'md-menu has no [open]' },
      });
      document.body.innerHTML = '';
    }
  });

  it('an item the menu does not hold: the dry run says so and closes the menu', async () => {
    const { menu } = toolbar();
    menu.querySelector('md-menu-item[command="restart-and-run-all"]')!.remove();
    expect(await checkToolbarCommand(document, 'restart-and-run-all')).toEqual({
      ok: false,
      failed: {
        step: 'find-item',
        reason: 'item-missing',
        saw: 'not in the toolbar menu',
      },
    });
    expect(menu.hasAttribute('open')).toBe(false);
  });

  it('a menu that closes on Escape is left at once, without waiting out the 300 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    toolbar();
    let done = false;
    const check = checkToolbarCommand(document, 'restart-and-run-all').finally(() => (done = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(done).toBe(true);
    expect(await check).toMatchObject({ ok: true });
  });
});

describe('the innermost control of a Material host', () => {
  it('is the host itself while Lit has not rendered its shadow root', () => {
    mount('<md-menu-item command="restart-and-run-all"><span slot="headline">Restart</span></md-menu-item>');
    const host = document.querySelector('md-menu-item')!;
    const clicked: Element[] = [];
    host.addEventListener('click', (event) => clicked.push(event.target as Element));
    clickInnermost(host);
    expect(clicked).toEqual([host]);
  });

  it("is the shadow li#item of a rendered md-menu-item, the click reaching the host's listeners", () => {
    mount(snippet('toolbar-run-all-split-button-2026-03.html'));
    const item = deepQuery(document, 'md-menu-item[command="restart-and-run-all"]')!;
    const clicked: Element[] = [];
    item.addEventListener('click', (event) => clicked.push(event.composedPath()[0] as Element));
    clickInnermost(item);
    expect(clicked).toEqual([item.shadowRoot!.querySelector('li#item')]);
  });
});
