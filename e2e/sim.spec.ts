/**
 * The simulated Colab page (e2e/colab-sim) on its own, without the extension: it must accept what real Colab
 * accepts and reject what real Colab rejects (test/fixtures/colab-dom/REFERENCE.md). Scripted input here is dispatched
 * with
 * `page.evaluate` (untrusted, like a content script's); "user" input uses Playwright's trusted mouse.
 */
import { type Browser, type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import {
  type ColabSim,
  CUDA_OOM_MESSAGE,
  chooseRuntimeItem,
  colabErrorCopy,
  confirmDialog,
  entriesOf,
  holdMirror,
  installColabSim,
  type LogEntry,
  openConnectMenu,
  openRuntimeMenu,
  releaseMirror,
  resume,
  runAll,
  type Scenario,
  setOutage,
  setStuckReconnecting,
  showDialog,
  showDisconnect,
  showLazyOutputs,
  shownOom,
  simLog,
  simState,
  stopCell,
  triggerCrash,
  waitForKernel,
  waitForRole,
  waitForRun,
} from './colab-sim';
import { CHROMIUM_FLAGS, findChromium } from './harness/browser-path';

test.describe.configure({ mode: 'serial' });

let browser: Browser;
let context: BrowserContext;
let sim: ColabSim;
let page: Page;
let pageErrors: string[];

test.beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_FLAGS,
  });
});
test.afterAll(async () => browser?.close());

test.beforeEach(async () => {
  context = await browser.newContext();
  sim = await installColabSim(context);
  page = await context.newPage();
  pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
});
test.afterEach(async () => {
  await context?.close();
  expect(pageErrors, 'uncaught errors in the simulated page').toEqual([]);
});

/** Opens a notebook and waits for the runtime to be connected. */
async function open(scenario: Scenario, path = '/drive/nb1'): Promise<void> {
  await page.goto(sim.notebook(path, scenario));
  const connects = scenario.kernel?.autoConnect !== false && !scenario.kernel?.gpuUnavailable;
  if (connects) await waitForKernel(page, 'idle');
}

const TWO_CELLS: Scenario = { cells: [{ source: 'import torch' }, { source: 'train()' }] };
/** How long Colab takes to bring a crashed kernel back in the tests that act while it does: long enough for a loaded
 * machine to act twice before it ends. */
const RECOVERY_MS = 8000;

/**
 * Dispatches untrusted mouse events on an element, as a content script would. Coordinates default to the element's
 * centre; returns the coordinates used.
 */
async function synthMouse(
  selector: string,
  types: string[],
  at?: { x: number; y: number },
  button = 0,
): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ({ selector, types, at, button }) => {
      const el = document.querySelector(selector);
      if (!el) throw new Error(`no ${selector}`);
      const r = el.getBoundingClientRect();
      const x = at?.x ?? r.left + r.width / 2;
      const y = at?.y ?? r.top + r.height / 2;
      for (const type of types) {
        el.dispatchEvent(
          new MouseEvent(type, {
            bubbles: true,
            cancelable: true,
            composed: true,
            view: window,
            button,
            buttons: type === 'mousedown' ? 1 : 0,
            clientX: x,
            clientY: y,
          }),
        );
      }
      return { x, y };
    },
    { selector, types, at, button },
  );
}

/** Calls `.click()` on the first element matching a selector (deep: `host >>> inner` pierces one open shadow root). */
async function scriptClick(selector: string): Promise<void> {
  await page.evaluate((selector) => {
    const [hostSel, innerSel] = selector.split(' >>> ');
    let el: Element | null | undefined = document.querySelector(hostSel!);
    if (innerSel) el = el?.shadowRoot?.querySelector(innerSel);
    if (!(el instanceof HTMLElement)) throw new Error(`no ${selector}`);
    el.click();
  }, selector);
}

function types(log: LogEntry[]): string[] {
  return log.map((e) => e.type);
}

async function menuItems(): Promise<Array<Extract<LogEntry, { type: 'menu-item' }>>> {
  return entriesOf(await simLog(page), 'menu-item');
}

// --------------------------------------------------------------------------------------------------------------
test.describe('Runtime menu (Closure semantics, §1.2)', () => {
  test('has the captured menubar structure, and the Runtime menu does not exist before the first open', async () => {
    await open(TWO_CELLS);
    const ids = await page
      .locator(
        'div.menubar-wrapper > div > div#top-menubar.goog-menubar[role=menubar] > ' +
          'div.goog-menu-button.goog-inline-block',
      )
      .evaluateAll((els) =>
        els.map((e) =>
          [e.id, e.getAttribute('role'), e.getAttribute('aria-haspopup'), e.getAttribute('aria-expanded')].join(' '),
        ),
      );
    expect(ids).toEqual(
      ['file', 'edit', 'view', 'insert', 'runtime', 'tools', 'help'].map((m) => `${m}-menu-button button true false`),
    );
    await expect(
      page.locator(
        '#runtime-menu-button > .goog-menu-button-outer-box > .goog-menu-button-inner-box > .goog-menu-button-caption',
      ),
    ).toHaveText('Runtime');
    expect(await page.locator('#runtime-menu').count()).toBe(0);

    await openRuntimeMenu(page);
    const menu = page.locator('body > #runtime-menu.goog-menu[role=menu]');
    await expect(menu).toBeVisible();
    const commands = await menu
      .locator('> div')
      .evaluateAll((els) =>
        els.map((e) => e.getAttribute('command') ?? (e.classList.contains('goog-menuseparator') ? 'sep' : '?')),
      );
    expect(commands).toEqual([
      'runall',
      'runbefore',
      'runfocused',
      'runselected',
      'runafter',
      'sep',
      'interrupt',
      'restart',
      'restart-and-run-all',
      'powerwash-current-vm',
      'sep',
      'change-runtime-type',
      'sep',
      'manage-sessions',
      'open-resource-viewer',
      'view-runtime-logs',
      'sep',
      'deploy-cloud-run',
    ]);
    await expect(menu.locator('[command="restart-and-run-all"] > .goog-menuitem-content')).toHaveText(
      'Restart session and run all',
    );
    await expect(menu.locator('[command="restart-and-run-all"]')).toHaveId(/^:[0-9a-z]+$/);
    await expect(page.locator('#runtime-menu-button')).toHaveAttribute('aria-expanded', 'true');
    expect(await menu.getAttribute('style')).toMatch(/visibility: visible; left: \d+px; top: \d+px/);
  });

  test('.click() on the menu button and on an item does nothing', async () => {
    await open(TWO_CELLS);
    await scriptClick('#runtime-menu-button');
    expect(await page.locator('#runtime-menu').count()).toBe(0);
    expect(types(await simLog(page))).not.toContain('menu-open');

    await openRuntimeMenu(page); // trusted
    await scriptClick('#runtime-menu [command="restart"]');
    await scriptClick('#runtime-menu [command="runall"]');
    expect(await menuItems()).toEqual([]);
    await expect(page.locator('#runtime-menu')).toBeVisible();
  });

  test('a right-button mousedown does not open the menu', async () => {
    await open(TWO_CELLS);
    await synthMouse('#runtime-menu-button', ['mouseover', 'mousedown', 'mouseup'], undefined, 2);
    expect(await page.locator('#runtime-menu').count()).toBe(0);
  });

  test("the full synthetic mouse sequence with real coordinates works (the extension's route, §8)", async () => {
    await open(TWO_CELLS);
    await synthMouse('#runtime-menu-button', ['mouseover', 'mousedown', 'mouseup']);
    await expect(page.locator('#runtime-menu')).toBeVisible();
    await expect(page.locator('#runtime-menu-button')).toHaveAttribute('aria-expanded', 'true');

    await synthMouse('#runtime-menu [command="restart-and-run-all"]', ['mouseover', 'mousedown', 'mouseup']);
    expect((await menuItems()).map((e) => [e.command, e.via])).toEqual([['restart-and-run-all', 'runtime-menu']]);
    await expect(page.locator('#runtime-menu')).toHaveCSS('display', 'none');
    await expect(page.locator('#runtime-menu-button')).toHaveAttribute('aria-expanded', 'false');

    await scriptClick('mwc-dialog[open] [slot="primaryAction"]');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    const log = types(await simLog(page));
    expect(
      log.filter((t) => ['menu-item', 'dialog-open', 'dialog-confirm', 'restart', 'run-start', 'run-end'].includes(t)),
    ).toEqual(['menu-item', 'dialog-open', 'dialog-confirm', 'restart', 'run-start', 'run-end']);
  });

  test(
    'an item mouseup at the opening coordinates is ignored (once), and an item needs its own ' + 'mousedown',
    async () => {
      await open(TWO_CELLS);
      const opening = await synthMouse('#runtime-menu-button', ['mouseover', 'mousedown', 'mouseup']);
      // mouseover + mouseup without a mousedown: the item is highlighted but not active.
      await synthMouse('#runtime-menu [command="runall"]', ['mouseover', 'mouseup']);
      await expect(page.locator('#runtime-menu [command="runall"]')).toHaveClass(/goog-menuitem-highlight/);
      // Reopen, then press and release at exactly the coordinates of the opening mousedown.
      await synthMouse('#runtime-menu-button', ['mousedown', 'mouseup']); // closes
      await synthMouse('#runtime-menu-button', ['mousedown', 'mouseup'], opening); // opens again at `opening`
      await synthMouse('#runtime-menu [command="runall"]', ['mouseover', 'mousedown', 'mouseup'], opening);
      expect(await menuItems()).toEqual([]);
      // Closure forgets openingCoords after the first item mouseup, so the same gesture now acts.
      await synthMouse('#runtime-menu [command="runall"]', ['mousedown', 'mouseup'], opening);
      expect((await menuItems()).map((e) => e.command)).toEqual(['runall']);
    },
  );

  test('trusted clicks (a user) work; mousedown outside, Escape and a second press close the menu', async () => {
    await open(TWO_CELLS);
    await runAll(page, 'menu');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });

    await openRuntimeMenu(page);
    await page.mouse.click(5, 400); // outside
    await expect(page.locator('#runtime-menu')).toBeHidden();
    await openRuntimeMenu(page);
    await page.keyboard.press('Escape');
    await expect(page.locator('#runtime-menu')).toBeHidden();
    await openRuntimeMenu(page);
    await page.locator('#runtime-menu-button').click();
    await expect(page.locator('#runtime-menu')).toBeHidden();
    const reasons = entriesOf(await simLog(page), 'menu-close').map((e) => e.reason);
    expect(reasons).toEqual(['action', 'outside', 'escape', 'toggle']);
  });

  test('disabled items never act; Restart is disabled while disconnected', async () => {
    await open({ ...TWO_CELLS, ui: { disableItems: ['restart-and-run-all'] }, kernel: { autoConnect: false } });
    await openRuntimeMenu(page);
    const restart = page.locator('#runtime-menu [command="restart"]');
    await expect(restart).toHaveClass(/goog-menuitem-disabled/);
    await expect(page.locator('#runtime-menu [command="restart-and-run-all"]')).toHaveClass(/goog-menuitem-disabled/);
    await synthMouse('#runtime-menu [command="restart"]', ['mouseover', 'mousedown', 'mouseup']);
    await page.locator('#runtime-menu [command="restart-and-run-all"]').click({ force: true });
    expect(await menuItems()).toEqual([]);
  });

  test('label sets, accelerators, missing commands and removed items', async () => {
    await open({ ...TWO_CELLS, ui: { labels: 'en-legacy' } }, '/drive/legacy');
    await openRuntimeMenu(page);
    await expect(page.locator('#runtime-menu [command="restart-and-run-all"]')).toHaveText('Restart and run all');
    await expect(page.locator('#runtime-menu [command="powerwash-current-vm"]')).toHaveText('Factory reset runtime');
    await expect(page.locator('#runtime-menu [command="runall"] .goog-menuitem-accel')).toHaveText('Ctrl+F9');
    expect(await page.locator('colab-notebook-toolbar-run-button').count()).toBe(0); // no M3 toolbar before 2025

    await open({ ...TWO_CELLS, ui: { labels: 'de', removeItems: ['restart-and-run-all'] } }, '/drive/de');
    await expect(page.locator('#runtime-menu-button .goog-menu-button-caption')).toHaveText('Laufzeit');
    await openRuntimeMenu(page);
    await expect(page.locator('#runtime-menu [command="restart"]')).toHaveText('Sitzung neu starten');
    expect(await page.locator('#runtime-menu [command="restart-and-run-all"]').count()).toBe(0);

    await open({ ...TWO_CELLS, ui: { labels: 'ja', noCommandAttributes: true } }, '/drive/ja');
    await openRuntimeMenu(page);
    expect(await page.locator('#runtime-menu [command]').count()).toBe(0);
    await expect(page.locator('#runtime-menu .goog-menuitem').first()).toHaveText('すべてのセルを実行');
    await chooseRuntimeItem(page, 'runall'); // by label
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  });

  test('?hl= picks a whole interface in its language, with its <html lang>, on any Colab domain (§12.3)', async () => {
    await page.goto(`${sim.notebook('/drive/hl', TWO_CELLS, 'https://colab.google.com')}?authuser=1&hl=pt-BR`);
    await waitForKernel(page, 'idle');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    await expect(page.locator('#runtime-menu-button .goog-menu-button-caption')).toHaveText('Ambiente de execução');
    await openRuntimeMenu(page);
    await expect(page.locator('#runtime-menu [command="restart-and-run-all"]')).toHaveText(
      'Reiniciar sessão e executar tudo',
    );
    await page.goto(`${sim.notebook('/drive/hl', TWO_CELLS, 'https://colab.sandbox.google.com')}?hl=es`);
    await waitForKernel(page, 'idle');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');
    await expect(page.locator('#runtime-menu-button .goog-menu-button-caption')).toHaveText('Entorno de ejecución');
    await page.goto(sim.notebook('/drive/hl', { ...TWO_CELLS, ui: { labels: 'ja' } }));
    await waitForKernel(page, 'idle');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('ja');
  });

  test('synthetic shortcut keys are ignored; real key presses work (§3)', async () => {
    await open(TWO_CELLS);
    await page.evaluate(() =>
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'F9', code: 'F9', ctrlKey: true, bubbles: true })),
    );
    expect(await menuItems()).toEqual([]);
    await page.keyboard.press('Control+F9');
    expect((await menuItems()).map((e) => [e.command, e.via])).toEqual([['runall', 'shortcut']]);
  });
});

// --------------------------------------------------------------------------------------------------------------
test.describe('toolbar split button (§1.3)', () => {
  test('host .click() opens the md-menu; md-menu-item host .click() does nothing, its inner #item does', async () => {
    await open(TWO_CELLS);
    const host = 'colab-notebook-toolbar#top-toolbar > colab-notebook-toolbar-run-button';
    await scriptClick(`${host} >>> #toolbar-run-button-more-actions`);
    await expect(page.locator('md-menu[anchor="toolbar-run-button-more-actions"]')).toHaveAttribute('open', '');
    await page.evaluate((host) => {
      const item = document
        .querySelector(host)!
        .shadowRoot!.querySelector('md-menu-item[command="restart"]') as HTMLElement;
      item.click();
    }, host);
    expect(await menuItems()).toEqual([]);
    await page.evaluate((host) => {
      const item = document.querySelector(host)!.shadowRoot!.querySelector('md-menu-item[command="restart"]')!;
      (item.shadowRoot!.querySelector('#item') as HTMLElement).click();
    }, host);
    expect((await menuItems()).map((e) => [e.command, e.via])).toEqual([['restart', 'toolbar']]);
    await expect(page.locator('md-menu[anchor="toolbar-run-button-more-actions"]')).not.toHaveAttribute('open', '');
    await expect(page.locator('mwc-dialog[open].yes-no-dialog')).toBeVisible();
  });

  test("'host' mode: a click on the md-menu-item host acts; Run all acts on click", async () => {
    await open({ ...TWO_CELLS, ui: { toolbarMenuItemClick: 'host' } });
    await page.locator('#toolbar-run-button-more-actions').click();
    await page.evaluate(() => {
      const root = document.querySelector('colab-notebook-toolbar-run-button')!.shadowRoot!;
      (root.querySelector('md-menu-item[command="restart-and-run-all"]') as HTMLElement).click();
    });
    expect((await menuItems()).map((e) => e.command)).toEqual(['restart-and-run-all']);
    await scriptClick('colab-notebook-toolbar-run-button >>> #toolbar-run-button');
    expect((await menuItems()).map((e) => e.command)).toEqual(['restart-and-run-all', 'runall']);
  });
});

// --------------------------------------------------------------------------------------------------------------
test.describe('one runtime, two tabs (sharedKernel)', () => {
  test("a second tab shows the first's run, late and in order when held; its commands run on the first", async () => {
    const url = sim.notebook('/drive/shared', {
      sharedKernel: true,
      cells: [
        { source: 'import torch' },
        { source: 'train()', runs: { 1: { pause: true, fail: 'cuda-oom', place: 'main' }, default: {} } },
      ],
    });
    await page.goto(url);
    await waitForRole(page, 'leader');
    await waitForKernel(page, 'idle');
    const other = await context.newPage();
    other.on('pageerror', (error) => pageErrors.push(error.message));
    await other.goto(`${url}?authuser=1`);
    await waitForRole(other, 'follower');
    await waitForKernel(other, 'idle');
    const train = (tab: Page) => tab.locator('.cell').nth(1);

    await runAll(page);
    await expect(train(other)).toHaveClass(/\brunning\b/);
    await holdMirror(other);
    await resume(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    await expect(train(page).locator('colab-run-button .cell-execution')).toHaveClass('cell-execution error');
    await expect(train(other)).toHaveClass(/\brunning\b/);
    expect(await releaseMirror(other)).toBeGreaterThan(0);
    await expect(train(other).locator('colab-run-button .cell-execution')).toHaveClass('cell-execution error');
    await expect(train(other).locator('colab-static-output-renderer')).toContainText('CUDA out of memory');

    // Restart and run all from the second tab: confirmed there, performed by the first tab's kernel.
    await chooseRuntimeItem(other, 'restart-and-run-all');
    await confirmDialog(other);
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    await expect(train(other).locator('colab-run-button .execution-count')).toHaveText('[2]');
    expect(entriesOf(await simLog(page), 'restart')).toHaveLength(1);
    expect(types(await simLog(other)).filter((t) => t === 'restart' || t === 'run-start')).toEqual([]);
    expect(entriesOf(await simLog(other), 'dialog-confirm')).toEqual([
      expect.objectContaining({ kind: 'restart-confirm' }),
    ]);
  });
});

// --------------------------------------------------------------------------------------------------------------
test.describe('runs, restarts and outputs (§4, §5)', () => {
  const failing: Scenario = {
    cells: [
      { source: 'import torch', outputs: [{ type: 'stream', text: 'torch ready\n' }] },
      {
        source: 'train()  # may print "CUDA out of memory"',
        // Held at its pause while the test sees the cells after it pending, however slow the machine.
        runs: {
          1: { pause: true, fail: 'cuda-oom', place: 'main' },
          default: { outputs: [{ type: 'stream', text: 'epoch 1 done\n' }] },
        },
      },
      { source: 'evaluate()', saved: { count: 7, outputs: [{ type: 'stream', text: 'old accuracy 0.91\n' }] } },
    ],
  };

  test('run all stops at the first failing cell; the cells after it keep their old state and outputs', async () => {
    await open({ ...failing, ui: { clearQueuedOutputs: false } }); // outputs cleared as each cell starts (pre-2026)
    const third = page.locator('.notebook-cell-list > .cell').nth(2);
    await expect(third.locator('colab-static-output-renderer')).toHaveText('old accuracy 0.91\n');
    await runAll(page);
    await expect(third).toHaveClass(/\bpending\b/);
    await resume(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1, reason: 'error' });

    const second = page.locator('.notebook-cell-list > .cell').nth(1);
    await expect(second.locator('colab-run-button').locator('div.cell-execution')).toHaveClass('cell-execution error');
    await expect(second.locator('colab-run-button .execution-count')).toHaveText('[2]');
    await expect(
      second.locator('div.output colab-static-output-renderer > div > div.error.output_text > pre'),
    ).toContainText(`OutOfMemoryError: ${CUDA_OOM_MESSAGE}`);
    await expect(second.locator('colab-static-output-renderer pre')).toContainText(
      /^-+\nOutOfMemoryError {26}Traceback \(most recent call last\)/,
    );
    await expect(third).not.toHaveClass(/pending|running/);
    await expect(third.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale');
    await expect(third.locator('colab-run-button .execution-count')).toHaveText('[7]');
    await expect(third.locator('colab-static-output-renderer')).toHaveText('old accuracy 0.91\n');
    const log = await simLog(page);
    expect(entriesOf(log, 'cell-start').map((e) => e.cell)).toEqual([0, 1]);
  });

  test('run all clears the outputs of queued cells at once (§11.4); a stopped run leaves them cleared', async () => {
    await open(failing);
    const third = page.locator('.notebook-cell-list > .cell').nth(2);
    await expect(third.locator('colab-static-output-renderer')).toHaveText('old accuracy 0.91\n');
    await runAll(page);
    await expect(third).toHaveClass(/\bpending\b/);
    await expect(third.locator('colab-static-output-renderer')).toHaveCount(0);
    await resume(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    await expect(third.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale');
    await expect(third.locator('colab-run-button .execution-count')).toHaveText('[7]');
    await expect(third.locator('colab-static-output-renderer')).toHaveCount(0);
  });

  test('an error belongs to its kernel session: `error` now, `stale error` after a restart or when saved', async () => {
    await open({
      savedOutputs: 'lazy',
      cells: [
        { source: 'train()', runs: { default: { fail: 'value-error', place: 'main' } } },
        { source: 'old()', saved: { count: 3, fail: 'cuda-oom', place: 'main' } },
      ],
    });
    const [first, second] = [page.locator('.cell').nth(0), page.locator('.cell').nth(1)];
    await expect(second.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale');
    expect(await showLazyOutputs(page)).toEqual([1]);
    // Scrolled into view: the saved error and its output appear at once.
    await expect(second.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale error');
    await expect(second.locator('colab-static-output-renderer')).toContainText('CUDA out of memory');
    await first.locator('#run-button').click();
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 0 });
    await expect(first.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution focused error');
    await chooseRuntimeItem(page, 'restart');
    await confirmDialog(page);
    await expect(first.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution focused stale error');
  });

  test('a failure also cancels queued runs; their cells return to their settled state', async () => {
    await open({
      ui: { clearQueuedOutputs: false },
      cells: [
        // Held at its pause until the second Run all is queued behind it, however slow the machine.
        { source: 'a', runs: { 1: { pause: true, fail: 'value-error', place: 'main' } } },
        { source: 'b', saved: { count: 5, outputs: [{ type: 'stream', text: 'b before\n' }] } },
      ],
    });
    await runAll(page);
    await expect(page.locator('.cell').first()).toHaveClass(/\brunning\b/);
    await runAll(page); // queued behind run 1: cell b is pending for both runs
    await expect.poll(async () => entriesOf(await simLog(page), 'run-start').length).toBe(2);
    await resume(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 0 });
    expect(await waitForRun(page, 2)).toMatchObject({ ok: false, reason: 'error' });
    const b = page.locator('.cell').nth(1);
    await expect(b.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale');
    await expect(b.locator('colab-run-button .execution-count')).toHaveText('[5]');
    await expect(b.locator('colab-static-output-renderer')).toHaveText('b before\n');
    expect(entriesOf(await simLog(page), 'cell-start').map((e) => e.cell)).toEqual([0]);
  });

  test('cell states while running: pending, then running animating with the stop mask', async () => {
    await open({ cells: [{ source: 'slow()', runs: { default: { hang: true } } }, { source: 'next()' }] });
    await runAll(page);
    const first = page.locator('.notebook-cell-list > .cell').first();
    await expect(first).toHaveClass(/\brunning\b/);
    await expect(first.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution running animating');
    await expect(first.locator('colab-run-button mask#stopSymbolMask')).toHaveCount(1);
    await expect(
      page.locator('.notebook-cell-list > .cell').nth(1).locator('colab-run-button .cell-execution'),
    ).toHaveClass('cell-execution pending');
    await expect(page.locator('colab-connect-button >> #connect-icon md-icon')).toHaveText('more_horiz');
    await chooseRuntimeItem(page, 'interrupt');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 0, reason: 'interrupt' });
    await expect(first.locator('colab-run-button mask#playSymbolMask')).toHaveCount(1);
    await expect(page.locator('colab-connect-button >> #connect-icon md-icon')).toHaveText('done');
  });

  test("the cell's stop button interrupts it; with interruptErrorDelayMs the interrupt shows late", async () => {
    await open({
      ui: { interruptErrorDelayMs: 400 },
      cells: [
        {
          id: 'train',
          source: 'train()',
          runs: {
            default: { steps: [{ output: shownOom() }, { output: { type: 'stream', text: 'on\n' } }, { hang: true }] },
          },
        },
      ],
    });
    await runAll(page);
    const frame = page.frameLocator('#cell-train iframe');
    await expect(frame.locator('.error')).toContainText('CUDA out of memory');
    await expect(page.locator('#cell-train colab-static-output-renderer')).toHaveText('on\n');
    await stopCell(page, 'train');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 0, reason: 'interrupt' });
    await expect(page.locator('#cell-train colab-run-button .cell-execution')).toHaveClass(/\berror\b/);
    await expect(frame.locator('.error')).toHaveCount(2);
    await expect(frame.locator('.error').last()).toContainText('KeyboardInterrupt');
    // The state said error first; the KeyboardInterrupt came 400 ms after.
    const log = await simLog(page);
    const [ended] = entriesOf(log, 'cell-end');
    const [late] = entriesOf(log, 'output-late');
    expect(late).toMatchObject({ cell: 0, outputType: 'error' });
    expect(late!.t - ended!.t).toBeGreaterThanOrEqual(400);
  });

  test("an editor never rendering its lines: no source in the page; a copy of Colab's error markup", async () => {
    await open({
      cells: [
        { id: 'hidden', source: '!python train.py', editor: 'unrendered' },
        { id: 'report', source: 'display(HTML(report))', outputs: [colabErrorCopy()] },
      ],
    });
    await expect(page.locator('#cell-hidden .editor')).toHaveCount(2);
    await expect(page.locator('#cell-hidden .view-line')).toHaveCount(0);
    await expect(page.locator('#cell-report .view-line')).toHaveCount(1);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    const frame = page.frameLocator('#cell-report iframe');
    await expect(frame.locator('body > #output-area > #output-body > .display_data')).toHaveCount(1);
    await expect(frame.locator('.display_data #output-body > .error')).toContainText('CUDA out of memory');
  });

  test('restart keeps old outputs and counts; the next run counts from 1 again', async () => {
    await open({ cells: [{ source: 'a' }, { source: 'b', outputs: [{ type: 'stream', text: 'b ran\n' }] }] });
    await runAll(page);
    await waitForRun(page, 1);
    const second = page.locator('.notebook-cell-list > .cell').nth(1);
    await expect(second.locator('colab-run-button .execution-count')).toHaveText('[2]');

    await chooseRuntimeItem(page, 'restart');
    await confirmDialog(page);
    await expect.poll(async () => types(await simLog(page))).toContain('restart');
    await waitForKernel(page, 'idle');
    await expect(second.locator('colab-run-button .execution-count')).toHaveText('[2]');
    await expect(second.locator('colab-static-output-renderer')).toHaveText('b ran\n');

    await runAll(page);
    await waitForRun(page, 2);
    const starts = entriesOf(await simLog(page), 'cell-start').map((e) => e.execution);
    expect(starts).toEqual([1, 2, 1, 2]);
  });

  test('streaming and tqdm progress in an output frame', async () => {
    await open({
      cells: [
        {
          source: 'fit()',
          runs: {
            default: {
              place: 'frame',
              stream: { lines: 20, every: 5, text: 'batch {i}/{n}\n' },
              progress: { total: 5, every: 5, desc: 'eval' },
            },
          },
        },
      ],
    });
    await runAll(page);
    await waitForRun(page, 1);
    const frame = page.frameLocator('.cell .output-iframe-sizer iframe');
    await expect(
      frame.locator('#output-area > #output-body > div.stream.output-id-1 > div.output_subarea.output_text > pre'),
    ).toContainText('batch 20/20');
    // stdout and stderr are separate outputs; tqdm's \r rewrites leave only the last state of the line.
    await expect(frame.locator('#output-body > div.stream.output-id-2 pre')).toHaveText(
      'eval: 100%|██████████| 5/5 [00:05<00:00, 33.33it/s]\n',
    );
    await expect(frame.locator('#output-area > span#output-footer')).toHaveCount(1);
  });

  test('frame outputs are cross-origin', async () => {
    // errors default to a frame
    await open({ cells: [{ source: 'train()', runs: { default: { fail: 'cuda-oom' } } }] });
    await runAll(page);
    await waitForRun(page, 1);
    const iframe = page.locator('.cell div.output .output-iframe-sizer iframe');
    await expect(iframe).toHaveAttribute(
      'src',
      /^https:\/\/[a-z0-9]+-[0-9a-f]+-0-colab\.googleusercontent\.com\/outputframe\.html\?vrz=colab_sim/,
    );
    expect(await iframe.evaluate((f: HTMLIFrameElement) => f.contentDocument)).toBeNull();
    await expect
      .poll(() => page.frames().some((f) => /\.googleusercontent\.com$/.test(new URL(f.url()).hostname)))
      .toBe(true);
    const pre = page
      .frameLocator('.output-iframe-sizer iframe')
      .locator('#output-body > div.error.output-id-1 > div.output_subarea.output_text > pre');
    await expect(pre).toContainText('OutOfMemoryError                          Traceback (most recent call last)');
    await expect(pre.locator('span.ansi-red-fg').first()).toHaveText(/^-+$/);
    expect(await page.locator('colab-static-output-renderer').count()).toBe(0);
  });

  test('saved outputs: lazy ones appear when shown; autosave brings the last outputs back after a reload', async () => {
    const scenario: Scenario = {
      savedOutputs: 'lazy',
      cells: [
        {
          source: 'train()',
          saved: { count: 3, fail: 'cuda-oom', place: 'main' },
          runs: { 1: { fail: 'value-error', place: 'main' } },
        },
      ],
    };
    await open(scenario);
    const cell = page.locator('.cell').first();
    await expect(cell.locator('colab-run-button .execution-count')).toHaveText('[3]');
    expect(await page.locator('colab-static-output-renderer').count()).toBe(0);
    expect(await showLazyOutputs(page)).toEqual([0]);
    await expect(cell.locator('colab-static-output-renderer')).toContainText('OutOfMemoryError: CUDA out of memory.');

    await runAll(page);
    await waitForRun(page, 1);
    await expect(cell.locator('colab-static-output-renderer')).toContainText('ValueError: Expected input batch_size');
    await page.reload();
    await waitForKernel(page, 'idle');
    await expect(cell.locator('colab-run-button .execution-count')).toHaveText('[1]');
    await showLazyOutputs(page);
    await expect(cell.locator('colab-static-output-renderer')).toContainText('ValueError');
    await runAll(page);
    await waitForRun(page, 1);
    // `runs` count per notebook across reloads: this was the cell's second run, so the default (success) applies.
    expect(entriesOf(await simLog(page), 'cell-start')[0]).toMatchObject({ execution: 1, cellRun: 2 });
    expect(await page.locator('colab-static-output-renderer').count()).toBe(0);
  });

  test('unknown paths are 404; query strings and fragments do not matter', async () => {
    sim.notebook('/drive/abc123', TWO_CELLS);
    expect((await page.goto('https://colab.research.google.com/drive/other'))?.status()).toBe(404);
    const response = await page.goto('https://colab.research.google.com/drive/abc123?authuser=1#scrollTo=x');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Untitled0.ipynb - Colab');
  });

  test('a caught OOM is printed, and the cell still succeeds (hard negative)', async () => {
    await open({ cells: [{ source: 'fit_with_retry()', runs: { default: { fail: 'caught-oom' } } }] });
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    await expect(page.locator('colab-static-output-renderer div.stream.output_text pre')).toContainText(
      'OOM: Ran out of memory with exception: CUDA out of memory.',
    );
    await expect(page.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale');
  });

  test('"not authored by Google" holds the first run until Run anyway; Cancel ends it', async () => {
    await open({ ...TWO_CELLS, autoRunAll: true, ui: { notAuthoredWarning: true } });
    const dialog = page.locator('md-dialog[open]:has(form#external-notebook-authored-dialog)');
    await expect(dialog.locator('[slot="headline"]')).toHaveText('Warning: This notebook was not authored by Google');
    await expect(page.locator('.cell').first()).toHaveClass(/\bpending\b/);
    await scriptClick('md-dialog[open] md-text-button[value="cancel"]');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'cancelled' });
    await runAll(page);
    await confirmDialog(page);
    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    expect(entriesOf(await simLog(page), 'dangerous').map((e) => e.what)).toEqual(['run-anyway']);
  });

  test('GPU unavailable: connecting asks "Connect without GPU"; Close leaves the runtime disconnected', async () => {
    await open({ ...TWO_CELLS, kernel: { gpuUnavailable: true } });
    await expect(page.locator('mwc-dialog[open]')).toHaveAttribute('heading', 'Cannot connect to GPU backend');
    await scriptClick('mwc-dialog[open] [slot="secondaryAction"]');
    await waitForKernel(page, 'disconnected');
    await expect
      .poll(() => page.locator('colab-connect-button >> #connect').evaluate((e) => (e as HTMLElement).textContent))
      .toBe('Connect');
    expect(entriesOf(await simLog(page), 'dangerous')).toEqual([]);
  });

  test('page code cannot eval (strict CSP, §7)', async () => {
    await open(TWO_CELLS);
    type Probe = Window & { __evalProbe?: string };
    // Code evaluated over CDP is exempt from CSP, so probe from a later task, as page code.
    await page.evaluate(() => {
      setTimeout(() => {
        try {
          // biome-ignore lint/security/noGlobalEval: the test proves that the page's CSP blocks eval
          globalThis.eval('1');
          (window as Probe).__evalProbe = 'ran';
        } catch {
          (window as Probe).__evalProbe = 'blocked';
        }
      });
    });
    await expect.poll(() => page.evaluate(() => (window as Probe).__evalProbe)).toBe('blocked');
  });
});

// --------------------------------------------------------------------------------------------------------------
test.describe('confirmation dialogs (§2)', () => {
  const primary = {
    mwc: 'mwc-dialog[open].yes-no-dialog > md-text-button[slot="primaryAction"][dialogaction="ok"]',
    'mwc-legacy': 'mwc-dialog[open].yes-no-dialog > mwc-button[slot="primaryAction"][dialogaction="ok"]',
    md: 'md-dialog[open] > div[slot="actions"] > md-text-button[value="ok"]',
    paper: 'colab-dialog > paper-dialog.yes-no-dialog[opened] paper-button#ok',
  } as const;

  for (const [variant, selector] of Object.entries(primary)) {
    test(`${variant}: restart and run all is confirmed by .click() on the primary button`, async () => {
      await open({ ...TWO_CELLS, ui: { dialog: variant as keyof typeof primary } });
      await chooseRuntimeItem(page, 'restart-and-run-all');
      await expect(page.locator(selector)).toHaveText('Yes');
      await scriptClick(selector);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
      const log = types(await simLog(page));
      expect(log.slice(log.indexOf('menu-item'))).toEqual(
        expect.arrayContaining(['dialog-open', 'dialog-confirm', 'restart', 'run-start', 'run-end']),
      );
      expect(log.indexOf('dialog-confirm')).toBeLessThan(log.indexOf('restart'));
      await expect(page.locator(selector)).toHaveCount(0);
    });
  }

  test('mwc: the title is the heading attribute and #title in the shadow root; No cancels', async () => {
    await open(TWO_CELLS);
    await chooseRuntimeItem(page, 'restart');
    const dialog = page.locator('mwc-dialog[open]');
    await expect(dialog).toHaveAttribute('heading', 'Restart session?');
    expect(await dialog.evaluate((d) => d.shadowRoot!.querySelector('#title')!.textContent)).toBe('Restart session?');
    await scriptClick('mwc-dialog[open] [slot="secondaryAction"]');
    await expect(dialog).toHaveCount(0);
    const log = types(await simLog(page));
    expect(log).toContain('dialog-cancel');
    expect(log).not.toContain('restart');
  });

  test("'none': no dialog; localised buttons follow the label set", async () => {
    await open({ ...TWO_CELLS, ui: { dialog: 'none' } });
    await chooseRuntimeItem(page, 'restart-and-run-all');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    expect(types(await simLog(page))).not.toContain('dialog-open');

    await open({ ...TWO_CELLS, ui: { labels: 'ja', dialog: 'md' } }, '/drive/ja');
    await chooseRuntimeItem(page, 'restart');
    await expect(page.locator('md-dialog[open] [value="ok"]')).toHaveText('はい');
    await expect(page.locator('md-dialog[open] [slot="headline"]')).toHaveText('セッションを再起動しますか？');
  });

  test('dialogs the extension must never accept are logged as dangerous when accepted', async () => {
    await open(TWO_CELLS);
    await showDialog(page, 'gpu-unavailable');
    await expect(page.locator('mwc-dialog[open] [slot="primaryAction"]')).toHaveText('Connect without GPU');
    await scriptClick('mwc-dialog[open] [slot="primaryAction"]');
    await chooseRuntimeItem(page, 'change-runtime-type');
    await chooseRuntimeItem(page, 'powerwash-current-vm');
    await waitForKernel(page, 'disconnected');
    await showDialog(page, 'not-authored');
    await expect(page.locator('md-dialog[open] md-filled-button[value="ok"]')).toHaveText('Run anyway');
    await scriptClick('md-dialog[open] md-filled-button[value="ok"]');
    const dangerous = entriesOf(await simLog(page), 'dangerous').map((e) => e.what);
    expect(dangerous).toEqual(['connect-without-gpu', 'change-runtime-type', 'powerwash-current-vm', 'run-anyway']);
  });
});

// --------------------------------------------------------------------------------------------------------------
test.describe('the dialogs of 2025-26 (§11.2)', () => {
  const dialogs = [
    ['pip-restart', 'Restart session', 'Restart session', 'Cancel', 'pip-restart'],
    [
      'drive-permission',
      'Permit this notebook to access your Google Drive files?',
      'Connect to Google Drive',
      'No, thanks',
      'drive-access',
    ],
    ['new-runtime-required', 'New runtime required', 'Assign new runtime', 'Cancel', 'assign-new-runtime'],
    ['disallowed-code', 'Warning', 'Cancel execution', 'Continue anyway', 'cancel-execution'],
    ['change-runtime-type', 'Change runtime type', 'Save', 'Cancel', 'change-runtime-type'],
    ['cannot-save', 'Cannot save changes', 'OK', null, 'dismiss-cannot-save'],
  ] as const;
  for (const [kind, title, ok, cancel, dangerous] of dialogs) {
    test(`${kind}: an mwc-dialog titled "${title}", whose "${ok}" is logged as dangerous`, async () => {
      await open({ ...TWO_CELLS, ui: { dialog: 'paper' } }); // the 2025-26 dialogs stay mwc in every era
      await showDialog(page, kind);
      const dialog = page.locator('mwc-dialog[open]');
      await expect(dialog).toHaveAttribute('heading', title);
      await expect(dialog.locator('> md-text-button[slot="primaryAction"][dialogaction="ok"]')).toHaveText(ok);
      const secondary = dialog.locator('> md-text-button[slot="secondaryAction"]');
      if (cancel) await expect(secondary).toHaveText(cancel);
      else await expect(secondary).toHaveCount(0);
      await scriptClick('mwc-dialog[open] [slot="primaryAction"]');
      await expect(dialog).toHaveCount(0);
      expect(entriesOf(await simLog(page), 'dangerous').map((e) => e.what)).toEqual([dangerous]);
    });
  }

  test('the pip warning names the imported packages; the disallowed-code warning has no safe answer', async () => {
    await open({ ...TWO_CELLS, ui: { dialog: 'md' } });
    await showDialog(page, 'pip-restart');
    await expect(page.locator('mwc-dialog[open].yes-no-dialog')).toContainText(
      'previously imported in this runtime: [numpy] You must restart the runtime in order to use newly installed',
    );
    await scriptClick('mwc-dialog[open] [slot="secondaryAction"]');
    await showDialog(page, 'disallowed-code');
    await scriptClick('mwc-dialog[open] [slot="secondaryAction"]');
    const log = await simLog(page);
    expect(entriesOf(log, 'dialog-cancel').map((e) => e.kind)).toEqual(['pip-restart', 'disallowed-code']);
    expect(entriesOf(log, 'dangerous').map((e) => e.what)).toEqual(['continue-disallowed']);
  });

  test('a dialog still opening (colab-dialog-opening) loses clicks; once the class is gone, they act', async () => {
    await open({ ...TWO_CELLS, ui: { dialogOpeningMs: 400 } });
    await chooseRuntimeItem(page, 'restart-and-run-all');
    const dialog = page.locator('mwc-dialog[open]');
    await expect(dialog).toHaveClass(/colab-dialog-opening/);
    await scriptClick('mwc-dialog[open] [slot="primaryAction"]');
    expect(entriesOf(await simLog(page), 'dialog-click-lost')).toEqual([
      expect.objectContaining({ kind: 'restart-confirm' }),
    ]);
    await expect(dialog).toHaveClass('yes-no-dialog');
    await scriptClick('mwc-dialog[open] [slot="primaryAction"]');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    expect(entriesOf(await simLog(page), 'dialog-confirm').map((e) => e.kind)).toEqual(['restart-confirm']);
  });

  test("'restartDialog': a restart shows a look-alike instead of its confirmation, and does not restart", async () => {
    await open({ ...TWO_CELLS, ui: { restartDialog: 'pip-restart' } });
    await chooseRuntimeItem(page, 'restart-and-run-all');
    await expect(page.locator('mwc-dialog[open]')).toHaveAttribute('heading', 'Restart session');
    await scriptClick('mwc-dialog[open] [slot="secondaryAction"]');
    await expect(page.locator('mwc-dialog[open]')).toHaveCount(0);
    const log = types(await simLog(page));
    expect(log).not.toContain('restart');
    expect(log).not.toContain('run-start');
  });
});

// --------------------------------------------------------------------------------------------------------------
test.describe('header, connect menu and connect button (§11.3, §11.5)', () => {
  test("header 'collapsed': the menubar hides behind its caret, the toolbar stays; 'missing': no menubar", async () => {
    await open({ ...TWO_CELLS, ui: { header: 'collapsed' } });
    await expect(page.locator('#runtime-menu-button')).toBeHidden();
    await expect(page.locator('#toolbar-run-button')).toBeVisible();
    await page.locator('#header-toggle').click();
    await expect(page.locator('#runtime-menu-button')).toBeVisible();
    expect(entriesOf(await simLog(page), 'header-toggle')).toEqual([expect.objectContaining({ collapsed: false })]);

    await open({ ...TWO_CELLS, ui: { header: 'missing' } }, '/drive/no-header');
    expect(await page.locator('#top-menubar, #runtime-menu-button, #header-toggle').count()).toBe(0);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  });

  test('the connect menu: a second Closure menu with no id; "Disconnect and delete runtime" asks first', async () => {
    await open(TWO_CELLS);
    const menu = await openConnectMenu(page);
    expect(await menu.getAttribute('id')).toMatch(/^:[0-9a-z]+$/);
    await expect(menu).toHaveAttribute('role', 'menu');
    await expect(menu.locator('[command="powerwash-current-vm"]')).toHaveText('Disconnect and delete runtime');
    // Closure semantics: .click() does nothing, a mousedown outside closes it.
    await scriptClick('.goog-menu-vertical [command="powerwash-current-vm"]');
    expect(await menuItems()).toEqual([]);
    await page.mouse.click(5, 400);
    await expect(menu).toBeHidden();

    await openConnectMenu(page);
    await menu.locator('[command="powerwash-current-vm"]').click();
    await expect(page.locator('mwc-dialog[open]')).toHaveAttribute('heading', 'Disconnect and delete runtime');
    await confirmDialog(page);
    await waitForKernel(page, 'disconnected');
    const log = await simLog(page);
    expect((await menuItems()).map((e) => `${e.command}@${e.via}`)).toEqual(['powerwash-current-vm@connect-menu']);
    expect(entriesOf(log, 'dangerous').map((e) => e.what)).toEqual(['powerwash-current-vm']);
  });

  test("'runtimeMenuId: false': the Runtime menu has a Closure auto-id only", async () => {
    await open({ ...TWO_CELLS, ui: { runtimeMenuId: false } });
    await page.locator('#runtime-menu-button').click();
    const menu = page.locator('body > .goog-menu:not(.goog-menu-vertical)');
    await expect(menu).toBeVisible();
    expect(await menu.getAttribute('id')).toMatch(/^:[0-9a-z]+$/);
    expect(await page.locator('#runtime-menu').count()).toBe(0);
  });

  test("the connect button: 'done' idle, 'more_horiz' with Connecting while it comes back, #reconnect", async () => {
    // Long enough that a loaded machine still sees it come back (a state, then the next): nothing waits it out.
    await open({ ...TWO_CELLS, ui: { connectButtonId: 'reconnect' }, timing: { crashRestartMs: RECOVERY_MS } });
    const icon = page.locator('colab-connect-button #connect-icon md-icon');
    await expect(icon).toHaveText('done');
    await triggerCrash(page);
    await expect(icon).toHaveText('more_horiz');
    // The light-DOM label, as automation reads it (the shadow tooltip repeats it).
    await expect
      .poll(() => page.locator('colab-connect-button #reconnect').evaluate((e) => e.textContent))
      .toBe('Connecting');
    await waitForKernel(page, 'idle', RECOVERY_MS + 20_000);
    await expect(icon).toHaveText('done');
  });

  test('a Run all while Colab brings a crashed kernel back is ignored (§11.5); once idle it runs', async () => {
    await open({ ...TWO_CELLS, timing: { crashRestartMs: RECOVERY_MS } });
    await triggerCrash(page);
    await waitForKernel(page, 'connecting');
    await runAll(page);
    await runAll(page, 'menu');
    const ignored = entriesOf(await simLog(page), 'run-ignored');
    expect(ignored.map((e) => [e.command, e.reason])).toEqual([
      ['runall', 'kernel-restarting'],
      ['runall', 'kernel-restarting'],
    ]);
    await waitForKernel(page, 'idle', RECOVERY_MS + 20_000);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
  });
});

// --------------------------------------------------------------------------------------------------------------
test.describe('crash and disconnect (§5)', () => {
  test(
    'a RAM crash stops the cell without a traceback, shows a sticky toast, and the kernel restarts by ' + 'itself',
    async () => {
      await open({
        cells: [
          { source: 'load()', runs: { 1: { stream: { lines: 2 }, crash: 'ram' } } },
          { source: 'train()', saved: { count: 4, outputs: [{ type: 'stream', text: 'old\n' }] } },
        ],
      });
      await runAll(page);
      expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'crash' });
      expect(entriesOf(await simLog(page), 'crash')).toEqual([expect.objectContaining({ kind: 'ram' })]);

      const toast = page.locator('body > colab-snackbar#message-area.message-area');
      const text = 'Your session crashed after using all available RAM.';
      await expect(toast).toHaveAttribute('labeltext', text);
      expect(
        await toast.evaluate((t) => {
          const bar = t.shadowRoot!.querySelector('div.mdc-snackbar.mdc-snackbar--leading')!;
          return [bar.classList.contains('mdc-snackbar--open'), bar.querySelector('.mdc-snackbar__label')?.textContent];
        }),
      ).toEqual([true, text]);
      await expect(toast.locator('[slot="action"]')).toHaveText('Get more RAM');

      const [first, second] = [page.locator('.cell').nth(0), page.locator('.cell').nth(1)];
      await expect(first.locator('colab-run-button .cell-execution')).toHaveClass('cell-execution stale');
      await expect(first.locator('colab-static-output-renderer')).toHaveText('step 1/2\nstep 2/2\n');
      await expect(second.locator('colab-run-button .execution-count')).toHaveText('[4]');
      await expect(second.locator('colab-static-output-renderer')).toHaveCount(0); // cleared when queued (§11.4)

      await waitForKernel(page, 'idle');
      await runAll(page);
      expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
      expect(
        entriesOf(await simLog(page), 'cell-start')
          .slice(-2)
          .map((e) => e.execution),
      ).toEqual([1, 2]);
      await expect(toast).toHaveAttribute('labeltext', text); // still there after a whole run: sticky

      await toast.locator('md-icon-button.close[slot="dismiss"]').click();
      await expect(toast).toHaveAttribute('labeltext', '');
      expect(entriesOf(await simLog(page), 'toast-close')).toEqual([expect.objectContaining({ via: 'dismiss' })]);
    },
  );

  test('older crash wording, other kinds and the secondary message area', async () => {
    await open({ ...TWO_CELLS, ui: { crashWording: 'legacy', toastArea: 'secondary' } });
    await triggerCrash(page, 'ram');
    const secondary = page.locator('colab-snackbar#message-area-secondary');
    await expect(secondary).toHaveAttribute(
      'labeltext',
      /^Your session crashed after using all available RAM\. If you are interested in access to high-RAM runtimes/,
    );
    await expect(secondary.locator('[slot="action"]')).toHaveText('View runtime logs');
    await expect(page.locator('colab-snackbar#message-area')).toHaveAttribute('labeltext', '');
    await waitForKernel(page, 'idle');
    await triggerCrash(page, 'unknown');
    await expect(secondary).toHaveAttribute('labeltext', 'Your session crashed for an unknown reason.');
  });

  test('Runtime disconnected: Reconnect connects again', async () => {
    await open(TWO_CELLS);
    await showDisconnect(page);
    await waitForKernel(page, 'disconnected');
    const dialog = page.locator('mwc-dialog[open]');
    await expect(dialog).toHaveAttribute('heading', 'Runtime disconnected');
    await expect(dialog).toContainText(
      'Your runtime has been disconnected due to inactivity or reaching its maximum duration.',
    );
    // Automation reads the light-DOM text (tdulcet: `#connect` innerText), not the shadow tooltip.
    await expect
      .poll(() => page.locator('colab-connect-button >> #connect').evaluate((e) => (e as HTMLElement).textContent))
      .toBe('Reconnect');
    await expect(dialog.locator('[slot="secondaryAction"]')).toHaveText('Close');
    await confirmDialog(page);
    await waitForKernel(page, 'idle');
    expect(entriesOf(await simLog(page), 'dangerous').map((e) => e.what)).toEqual(['reconnect']);
    await expect(page.locator('colab-connect-button >> #connect')).toHaveAttribute(
      'tooltiptext',
      /^Connected to\n.*\nRAM: [\d.]+ GB\/[\d.]+ GB/,
    );
  });

  test('disconnects Colab meant (§12.4): one title, their own bodies; Reconnect on them is dangerous', async () => {
    await open(TWO_CELLS);
    await showDisconnect(page, 'disallowed-code');
    const dialog = page.locator('mwc-dialog[open]');
    await expect(dialog).toHaveAttribute('heading', 'Runtime disconnected');
    await expect(dialog).toContainText('disallowed in our free of charge tier');
    await confirmDialog(page);
    await waitForKernel(page, 'idle');
    await showDisconnect(page, 'zero-units');
    await expect(dialog).toContainText('You currently have zero compute units available.');
    await confirmDialog(page);
    await waitForKernel(page, 'idle');
    const log = await simLog(page);
    expect(entriesOf(log, 'disconnect').map((e) => e.reason)).toEqual(['disallowed-code', 'zero-units']);
    expect(entriesOf(log, 'dangerous').map((e) => e.what)).toEqual(['reconnect-disallowed', 'reconnect-zero-units']);
  });

  test('a cell calling runtime.unassign() ends the runtime, and Colab says "Runtime disconnected"', async () => {
    await open({
      cells: [
        { source: 'train()' },
        {
          source: 'from google.colab import runtime\nruntime.unassign()',
          runs: { default: { steps: [{ unassign: true }] } },
        },
        { source: 'never()' },
      ],
    });
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, reason: 'disconnect' });
    await waitForKernel(page, 'disconnected');
    await expect(page.locator('mwc-dialog[open]')).toHaveAttribute('heading', 'Runtime disconnected');
    const log = await simLog(page);
    expect(entriesOf(log, 'unassign')).toEqual([expect.objectContaining({ cell: 1 })]);
    expect(entriesOf(log, 'disconnect').map((e) => e.reason)).toEqual(['unassigned']);
    expect(entriesOf(log, 'cell-start').map((e) => e.cell)).toEqual([0, 1]);
  });

  test('an outage: the runtime is lost, each connection fails with "Unable to connect", until it ends', async () => {
    await open(TWO_CELLS);
    await setOutage(page, true);
    await waitForKernel(page, 'disconnected');
    const toast = page.locator('colab-snackbar#message-area');
    await expect(toast).toHaveAttribute('labeltext', 'Unable to connect to the runtime.');
    const connect = page.locator('colab-connect-button >> #connect');
    await expect.poll(() => connect.evaluate((e) => e.textContent)).toBe('Reconnect');
    await connect.click();
    await expect.poll(async () => entriesOf(await simLog(page), 'connect-failed').length).toBe(1);
    await waitForKernel(page, 'disconnected');
    expect(entriesOf(await simLog(page), 'toast-open')).toHaveLength(2);
    await setOutage(page, false);
    await connect.click();
    await waitForKernel(page, 'idle');
  });

  test('the connect button stuck on "Reconnecting" while the cells go on running', async () => {
    await open({ cells: [{ source: 'train()', runs: { default: { stream: { lines: 50, every: 50 } } } }] });
    await runAll(page);
    await waitForKernel(page, 'busy');
    await setStuckReconnecting(page, true);
    const connect = page.locator('colab-connect-button >> #connect');
    await expect.poll(() => connect.evaluate((e) => e.textContent)).toBe('Reconnecting');
    await expect(page.locator('colab-connect-button >> #connect-icon md-icon')).toHaveText('more_horiz');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    expect((await simState(page)).kernel).toBe('idle');
    await setStuckReconnecting(page, false);
    await expect(page.locator('colab-connect-button >> #connect-icon md-icon')).toHaveText('done');
  });

  test('drive.mount() on a fresh machine asks for Drive, and the cell waits; "No, thanks" fails it', async () => {
    await open({ cells: [{ source: 'drive.mount()', runs: { default: { steps: [{ driveMount: true }] } } }] });
    await runAll(page);
    const dialog = page.locator('mwc-dialog[open]');
    await expect(dialog).toHaveAttribute('heading', 'Permit this notebook to access your Google Drive files?');
    expect((await simState(page)).cells[0]?.state).toBe('running');
    await dialog.locator('[slot="secondaryAction"]').click();
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 0 });
    expect(entriesOf(await simLog(page), 'drive-mount')).toEqual([expect.objectContaining({ granted: false })]);
    await expect(page.locator('.cell iframe')).toHaveCount(1);
  });

  test('the main-world API is logged distinctly from the UI', async () => {
    await open(TWO_CELLS);
    await page.evaluate(() =>
      (window as unknown as { colab: { global: { notebook: { runAll(): void } } } }).colab.global.notebook.runAll(),
    );
    expect(await waitForRun(page, 1)).toMatchObject({ ok: true });
    const log = await simLog(page);
    expect(entriesOf(log, 'api-call').map((e) => e.method)).toEqual(['notebook.runAll']);
    expect(entriesOf(log, 'menu-item')).toEqual([]);
    expect((await simState(page)).cells.map((c) => c.count)).toEqual([1, 2]);
  });
});
