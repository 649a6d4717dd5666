// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { deepQuery } from './dom';
import { checkToolbarCommand, chooseToolbarCommand } from './toolbar-menu';

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
    expect(await late).toMatchObject({ ok: false, reason: 'toolbar-menu-did-not-open' });
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
