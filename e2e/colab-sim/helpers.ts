/**
 * Node-side helpers for tests. UI actions go through Playwright's trusted input (locator.click moves the mouse to
 * the element's centre and presses there), i.e. exactly what a user does; page events a test needs to provoke
 * (a crash, a disconnect, a dialog) go through `window.__colabSim`.
 */
import type { Locator, Page } from '@playwright/test';
import type { KernelState, LogEntry } from './log';
import { resolvePlannedRun } from './resolve';
import type {
  CrashKind,
  DialogKind,
  DisconnectReason,
  ResolvedRun,
  ResolvedScenario,
  RunSpec,
  RuntimeCommand,
} from './scenario';

/** What `window.__colabSim` offers (main world). */
export interface SimPageApi {
  log: LogEntry[];
  scenario: ResolvedScenario;
  /** The page's menu-item labels by command (the scenario's label set). */
  labels: Record<string, string>;
  state(): SimState;
  crash(kind?: CrashKind): void;
  disconnect(reason?: DisconnectReason): void;
  outage(on?: boolean): void;
  stuckReconnecting(on?: boolean): void;
  showDialog(kind: DialogKind): void;
  showLazyOutputs(): number[];
  resume(): void;
  planRun(cellId: string, run: ResolvedRun): void;
  holdMirror(): void;
  /** Returns how many held changes were shown. */
  releaseMirror(): number;
}

export interface SimState {
  /** With `sharedKernel`: 'leader' runs the kernel, 'follower' shows it; 'alone' otherwise. */
  role: 'leader' | 'follower' | 'alone';
  kernel: KernelState;
  executionCounter: number;
  runs: number;
  cells: Array<{
    index: number;
    id: string;
    state: 'idle' | 'error' | 'pending' | 'running';
    count: number | null;
    outputs: number;
  }>;
}

type SimWindow = Window & { __colabSim?: SimPageApi };

/** Waits until the simulator's page script has started. */
export async function waitForSim(page: Page): Promise<void> {
  await page.waitForFunction(() => !!(window as SimWindow).__colabSim);
}

/** The action log so far. */
export async function simLog(page: Page): Promise<LogEntry[]> {
  await waitForSim(page);
  return page.evaluate(() => (window as SimWindow).__colabSim!.log);
}

export async function simState(page: Page): Promise<SimState> {
  await waitForSim(page);
  return page.evaluate(() => (window as SimWindow).__colabSim!.state());
}

/** Waits until the kernel reaches `state` (e.g. 'idle' after load). */
export async function waitForKernel(page: Page, state: KernelState, timeout = 10_000): Promise<void> {
  await waitForSim(page);
  await page.waitForFunction((s) => (window as SimWindow).__colabSim!.state().kernel === s, state, { timeout });
}

/**
 * Waits for the end of run `n` (the n-th run requested in this page load) and returns its `run-end` entry.
 * `polling`: at every animation frame, or every so many ms (a measured page, where the check's own cost counts).
 */
export async function waitForRun(
  page: Page,
  n: number,
  timeout = 15_000,
  polling: 'raf' | number = 'raf',
): Promise<Extract<LogEntry, { type: 'run-end' }>> {
  await waitForSim(page);
  const handle = await page.waitForFunction(
    (run) => (window as SimWindow).__colabSim!.log.find((e) => e.type === 'run-end' && e.run === run),
    n,
    { timeout, polling },
  );
  return (await handle.jsonValue()) as Extract<LogEntry, { type: 'run-end' }>;
}

/**
 * "Run all" as a user does it: a real click on the toolbar's Run all button (default), or through the Runtime menu.
 * Resolves once the click has happened, not when the run ends (see `waitForRun`).
 */
export async function runAll(page: Page, via: 'toolbar' | 'menu' = 'toolbar'): Promise<void> {
  if (via === 'toolbar') await page.locator('#toolbar-run-button').click();
  else await chooseRuntimeItem(page, 'runall');
}

/** Opens the Runtime menu with a real click (mouse down + up on the button's centre) unless it is open. */
export async function openRuntimeMenu(page: Page): Promise<void> {
  const button = page.locator('#runtime-menu-button');
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await page.locator('#runtime-menu').waitFor({ state: 'visible' });
}

/**
 * Opens the connect button's "Additional connection options" menu (§11.3) with a real click, and returns the
 * locator of that second Closure menu (`.goog-menu.goog-menu-vertical`, no id).
 */
export async function openConnectMenu(page: Page): Promise<Locator> {
  await page.locator('colab-connect-button #connect-dropdown').click();
  const menu = page.locator('.goog-menu.goog-menu-vertical');
  await menu.waitFor({ state: 'visible' });
  return menu;
}

/**
 * Chooses a Runtime-menu item with real mouse input. Items are found by `command`; in a scenario without command
 * attributes, by their label in the page's label set.
 */
export async function chooseRuntimeItem(page: Page, command: RuntimeCommand): Promise<void> {
  await openRuntimeMenu(page);
  const byCommand = page.locator(`#runtime-menu .goog-menuitem[command="${command}"]`);
  if (await byCommand.count()) return byCommand.click();
  const label = await page.evaluate((c) => (window as SimWindow).__colabSim!.labels[c], command);
  if (!label) throw new Error(`colab-sim: no Runtime-menu item for ${command}`);
  const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(Ctrl.*)?$`);
  await page.locator('#runtime-menu .goog-menuitem').filter({ hasText: exact }).click();
}

/** Clicks the primary button of the open dialog (any variant) as a user would. */
export async function confirmDialog(page: Page): Promise<void> {
  await page
    .locator(
      'mwc-dialog[open] [slot="primaryAction"], md-dialog[open] [slot="actions"] [value="ok"], paper-dialog[opened] ' +
        '#ok',
    )
    .first()
    .click();
}

/** The kernel dies now (§5.1): as if the running code had used up the VM's RAM. */
export async function triggerCrash(page: Page, kind: CrashKind = 'ram'): Promise<void> {
  await waitForSim(page);
  await page.evaluate((k) => (window as SimWindow).__colabSim!.crash(k), kind);
}

/** Renders saved outputs that were withheld (`savedOutputs: 'lazy'`); returns the cells that got them. */
export async function showLazyOutputs(page: Page): Promise<number[]> {
  await waitForSim(page);
  return page.evaluate(() => (window as SimWindow).__colabSim!.showLazyOutputs());
}

/**
 * The person's Stop: a real click on the stop button of a running cell (its run button while it runs), which
 * interrupts it with a KeyboardInterrupt (Runtime → Interrupt execution does the same: `chooseRuntimeItem`).
 */
export async function stopCell(page: Page, cellId: string): Promise<void> {
  await page.locator(`#cell-${cellId} colab-run-button #run-button`).click();
}

/** Lets the cells waiting at a `pause` step go on (or, with none there yet, the next one to reach it). */
export async function resume(page: Page): Promise<void> {
  await waitForSim(page);
  await page.evaluate(() => (window as SimWindow).__colabSim!.resume());
}

/**
 * The next execution of cell `cellId` in this page does `run`, before what its run number says (queued: two plans are
 * two executions). For a test that decides as it goes, as a randomized night does. With `sharedKernel`, plan in the
 * leader: it runs the cells.
 */
export async function planRun(page: Page, cellId: string, run: RunSpec): Promise<void> {
  await waitForSim(page);
  const scenario = await page.evaluate(() => {
    const { ui, timing } = (window as SimWindow).__colabSim!.scenario;
    return { ui, timing };
  });
  const resolved = resolvePlannedRun(run, scenario);
  await page.evaluate(({ cellId, resolved }) => (window as SimWindow).__colabSim!.planRun(cellId, resolved), {
    cellId,
    resolved,
  });
}

/** Waits until the page knows its part in a shared kernel (`sharedKernel`). */
export async function waitForRole(page: Page, role: 'leader' | 'follower'): Promise<void> {
  await waitForSim(page);
  await page.waitForFunction((r) => (window as SimWindow).__colabSim!.state().role === r, role);
}

/**
 * A follower tab stops showing what the shared kernel does (a background tab, slow to render), until released:
 * then it shows everything that happened meanwhile, in order (`releaseMirror` returns how many changes).
 */
export async function holdMirror(page: Page): Promise<void> {
  await page.evaluate(() => (window as SimWindow).__colabSim!.holdMirror());
}

export async function releaseMirror(page: Page): Promise<number> {
  return page.evaluate(() => (window as SimWindow).__colabSim!.releaseMirror());
}

/**
 * The runtime disconnects and Colab shows "Runtime disconnected": for an idle time-out (§5.2, the default), or with
 * the body of a disconnect Colab meant (§12.4).
 */
export async function showDisconnect(page: Page, reason: DisconnectReason = 'idle'): Promise<void> {
  await waitForSim(page);
  await page.evaluate((r) => (window as SimWindow).__colabSim!.disconnect(r), reason);
}

/**
 * An outage (colabtools#5650) begins: the runtime is lost, and every connection fails with the toast "Unable to
 * connect to the runtime." until `setOutage(page, false)`.
 */
export async function setOutage(page: Page, on: boolean): Promise<void> {
  await waitForSim(page);
  await page.evaluate((o) => (window as SimWindow).__colabSim!.outage(o), on);
}

/** The connect button sticks on "Reconnecting" while the runtime goes on running code (colabtools#5622). */
export async function setStuckReconnecting(page: Page, on: boolean): Promise<void> {
  await waitForSim(page);
  await page.evaluate((o) => (window as SimWindow).__colabSim!.stuckReconnecting(o), on);
}

/** Opens one of Colab's dialogs (e.g. 'gpu-unavailable') without anything else happening. */
export async function showDialog(page: Page, kind: DialogKind): Promise<void> {
  await waitForSim(page);
  await page.evaluate((k) => (window as SimWindow).__colabSim!.showDialog(k), kind);
}
