import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { runAll, simLog, waitForRun } from './colab-sim';
import { extensionServiceWorker, launchWithExtension } from './harness/extension';
import { enableGuard, setSettings } from './harness/guard';
import {
  EPOCH_DONE,
  type FullRecord,
  freshId,
  historyOf,
  logOf,
  openNotebook,
  record,
  trainNotebook,
} from './harness/matrix';

/**
 * The service worker's promises in real Chromium: a worker stopped at any moment still gives one restart,
 * and a claim granted after the tab opened another notebook restarts neither notebook. Each test has its own
 * browser: a stopped or blocked worker must not disturb the browser the other specs share.
 */

interface Stopper {
  /** Stops the extension's service worker and resolves once it is stopped. */
  stop(): Promise<void>;
}

async function workerStopper(context: BrowserContext, extensionPage: Page, extensionId: string): Promise<Stopper> {
  const cdp = await context.newCDPSession(extensionPage);
  let versionId: string | null = null;
  let status = '';
  const changed: Array<() => void> = [];
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const version of versions) {
      if (!version.scriptURL.startsWith(`chrome-extension://${extensionId}/`)) continue;
      versionId = version.versionId;
      status = version.runningStatus;
    }
    for (const resolve of changed.splice(0)) resolve();
  });
  await cdp.send('ServiceWorker.enable');
  const until = async (wanted: string) => {
    while (status !== wanted) await new Promise<void>((resolve) => changed.push(resolve));
  };
  await until('running');
  return {
    async stop() {
      await cdp.send('ServiceWorker.stopWorker', { versionId: versionId! });
      await until('stopped');
    },
  };
}

/**
 * Stops the page (its content scripts too: one thread) the moment the guard opens the Runtime menu, that is in the
 * middle of the restart it was granted, until `resume`. No timing: the restart has to wait for the test.
 */
async function pauseAtRuntimeMenu(page: Page): Promise<{ paused: Promise<void>; resume(): Promise<void> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Debugger.enable');
  const paused = new Promise<void>((resolve) => cdp.once('Debugger.paused', () => resolve()));
  await page.evaluate(() => {
    const log = (window as unknown as { __colabSim: { log: Array<{ type: string; menu?: string }> } }).__colabSim.log;
    const push = log.push.bind(log);
    log.push = (...entries) => {
      const length = push(...entries);
      if (entries.some((e) => e.type === 'menu-open' && e.menu === 'runtime')) {
        log.push = push;
        // biome-ignore lint/suspicious/noDebugger: the test holds the page here, mid-restart
        debugger;
      }
      return length;
    };
  });
  return {
    paused,
    resume: async () => {
      await cdp.send('Debugger.resume');
      await cdp.send('Debugger.disable');
    },
  };
}

/** The notebook's record as stored, read by an extension page: reading it must not wake the worker. */
function storedRecord(extensionPage: Page, key: string): Promise<FullRecord | undefined> {
  return extensionPage.evaluate(
    async (name) => (await chrome.storage.local.get(name))[name] as FullRecord | undefined,
    `nb:${key}`,
  );
}

// Chrome stops an idle worker whenever it likes, so it holds nothing in memory that must survive. Here it is really
// stopped (over CDP) during the countdown and again mid-restart: the claim and the result each start a fresh worker.
test('the service worker stopped during the countdown and during the restart: one restart all the same', async () => {
  const { context, close } = await launchWithExtension();
  try {
    const serviceWorker = await extensionServiceWorker(context);
    const extensionId = new URL(serviceWorker.url()).host;
    await setSettings(serviceWorker, { backoffBaseSec: 2 });
    const page = await context.newPage();
    const { sim, key } = await openNotebook(
      { context, page, serviceWorker },
      trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
    );
    const watcher = await context.newPage();
    await watcher.goto(`chrome-extension://${extensionId}/src/options/index.html`);
    const stopper = await workerStopper(context, watcher, extensionId);
    const kind = async () => (await storedRecord(watcher, key))?.status.kind;

    await runAll(page);
    const restart = await pauseAtRuntimeMenu(page);
    await expect.poll(kind, { intervals: [50] }).toBe('pending');
    await stopper.stop();
    // The claim at the deadline wakes a new worker, which grants it; the page, in the middle of the restart, is held
    // while that worker is stopped too.
    await restart.paused;
    expect(await kind()).toBe('restarting');
    await stopper.stop();
    await restart.resume();
    // The result wakes a third one, which records it.
    await expect.poll(kind, { intervals: [50] }).toBe('watching');

    expect(await waitForRun(page, 2)).toMatchObject({ ok: true });
    const record = (await storedRecord(watcher, key))!;
    expect(record.totalRestarts).toBe(1);
    // The person's Run all began the run (its end may or may not be written yet): one restart all the same.
    const types = record.history.map((e) => e.type);
    expect(types.filter((type) => !type.startsWith('run-'))).toEqual(['restart-scheduled', 'restarted']);
    expect(types[0]).toBe('run-started');
    const log = await simLog(page);
    expect(log.filter((e) => e.type === 'restart')).toHaveLength(1);
    // The test's own Run all, then the guard's one restart.
    expect(log.filter((e) => e.type === 'menu-item').map((e) => e.command)).toEqual(['runall', 'restart-and-run-all']);
    await sim.dispose();
  } finally {
    await close();
  }
});

test('a claim granted after the tab opened another notebook restarts neither notebook', async () => {
  const { context, close } = await launchWithExtension();
  try {
    const serviceWorker = await extensionServiceWorker(context);
    await setSettings(serviceWorker, { backoffBaseSec: 2 });
    const page = await context.newPage();
    const { sim, key, tabId } = await openNotebook(
      { context, page, serviceWorker },
      trainNotebook({ 1: { fail: 'cuda-oom' }, default: EPOCH_DONE }),
    );
    // The notebook the tab opens next, guarded too, under the name the page will show.
    const other = `drive:${freshId('other')}`;
    await enableGuard(serviceWorker, other, { title: 'train.ipynb' });
    const otherBefore = await record(serviceWorker, other);

    await runAll(page);
    await expect.poll(async () => (await record(serviceWorker, key))?.status.kind).toBe('pending');
    const { restartAt } = (await record(serviceWorker, key))!.status;
    // The worker is held busy across the deadline: the page's claim waits for it, and meanwhile the tab opens the
    // other notebook (Colab changes the address in place), so the grant can only arrive after the switch.
    const busyMs = restartAt! - Date.now() + 2000;
    const busy = serviceWorker.evaluate((ms) => {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        // blocking the worker's thread is the point
      }
    }, busyMs);
    // The claim goes out from the guard's timer, due at the deadline. A timer of the page's own, due just after it,
    // fires after it (a frame's timers fire in the order they are due, however late), so the claim is on its way to
    // the busy worker when the tab switches.
    const switchedAt = await page.evaluate(
      ({ id, at }) =>
        new Promise<number>((resolve) =>
          setTimeout(
            () => {
              history.pushState(null, '', `/drive/${id}`);
              document.title = 'train.ipynb - Colab';
              resolve(performance.now());
            },
            at - Date.now() + 50,
          ),
        ),
      { id: other.slice('drive:'.length), at: restartAt! },
    );
    await busy;
    // The worker has registered the tab on the other notebook: every message the page sent before is handled.
    const registration = () =>
      serviceWorker.evaluate(async (name) => (await chrome.storage.session.get(name))[name], `tab:${tabId}`);
    await expect.poll(registration).toBe(other);
    // A restart would start within milliseconds of the grant; nothing is there to wait on when none comes.
    await page.waitForTimeout(1500);

    // The claim was granted, after the switch: the case under test happened (a claim never sent passes vacuously).
    // The worker then ended that restart as interrupted, its tab showing another notebook.
    expect(historyOf(await record(serviceWorker, key), 'interrupted')).toHaveLength(1);
    expect(await logOf(page, 'menu-open', switchedAt)).toEqual([]);
    expect(await logOf(page, 'restart')).toEqual([]);
    expect(await record(serviceWorker, other)).toEqual(otherBefore);
    expect(historyOf(await record(serviceWorker, key), 'restarted')).toEqual([]);
    await sim.dispose();
  } finally {
    await close();
  }
});
