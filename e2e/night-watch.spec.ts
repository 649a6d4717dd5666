import type { Page, Worker } from '@playwright/test';
import { resume, runAll, waitForRun } from './colab-sim';
import type { AlertReceiver } from './harness/alert-receiver';
import { test } from './harness/alert-test';
import { expect } from './harness/extension';
import { setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * Through the night in real Chromium, on the simulated Colab (built from the same evidence as the product): the
 * computer kept awake while a guarded run goes on and let go after, the Colab tab kept from being discarded while
 * guarded, a tab closed during a run told in the history and by an alert, and a heartbeat whose pings start with a run
 * and stop with it. What the browser was asked is observed from outside the product: chrome.power wrapped in the worker
 * by this test, the tab's autoDiscardable read from chrome.tabs, the pings and alerts at a local receiver, the
 * heartbeat alarm from chrome.alarms.
 */

/** A healthchecks.io ping URL of a self-hosted instance, on the local receiver: `/ping/<uuid>`. */
const CHECK = '/ping/5f2c1a3e-9b7d-4e21-8c3a-0d6f1e2b3c4d';
/** The run pauses in its training cell until the test lets it go on: a run going on, as long as the test needs. */
const PAUSED = trainNotebook({ 1: { pause: true }, default: EPOCH_DONE });

/**
 * Wraps chrome.power in the worker: each call is noted in `globalThis.powerCalls` and then made. The worker stays up
 * while the test holds it (Playwright is attached to it), so the wrapper sees every call the product makes.
 */
async function watchPower(serviceWorker: Worker): Promise<void> {
  await serviceWorker.evaluate(() => {
    const scope = globalThis as typeof globalThis & { powerCalls?: string[] };
    scope.powerCalls = [];
    const { power } = chrome;
    const request = power.requestKeepAwake.bind(power);
    const release = power.releaseKeepAwake.bind(power);
    power.requestKeepAwake = (level) => {
      scope.powerCalls?.push(`request ${level}`);
      request(level);
    };
    power.releaseKeepAwake = () => {
      scope.powerCalls?.push('release');
      release();
    };
  });
}

function powerCalls(serviceWorker: Worker): Promise<string[]> {
  return serviceWorker.evaluate(() => (globalThis as typeof globalThis & { powerCalls?: string[] }).powerCalls ?? []);
}

function autoDiscardable(serviceWorker: Worker, tabId: number): Promise<boolean | undefined> {
  return serviceWorker.evaluate(async (tabId) => (await chrome.tabs.get(tabId)).autoDiscardable, tabId);
}

/** The requests the receiver got, as "METHOD path". */
function got(receiver: AlertReceiver): string[] {
  return receiver.received.map((request) => `${request.method} ${request.path}`);
}

async function switchOff(serviceWorker: Worker, key: string): Promise<void> {
  const rec = await record(serviceWorker, key);
  await serviceWorker.evaluate(
    ({ key, rec }) => chrome.storage.local.set({ [`nb:${key}`]: { ...rec, enabled: false } }),
    { key, rec },
  );
}

async function openPaused(
  fixtures: { context: Parameters<typeof openNotebook>[0]['context']; page: Page; serviceWorker: Worker },
  scenario = PAUSED,
) {
  const opened = await openNotebook(fixtures, scenario);
  await runAll(fixtures.page);
  return opened;
}

test('kept awake while the run goes on, let go when it ends; the popup says so; the tab is never discarded', async ({
  context,
  page,
  serviceWorker,
  openPopup,
}) => {
  await watchPower(serviceWorker);
  const { key, tabId } = await openNotebook({ context, page, serviceWorker }, PAUSED);
  // Guarded, nothing running yet: not discardable, not kept awake.
  await expect.poll(() => autoDiscardable(serviceWorker, tabId)).toBe(false);
  expect(await powerCalls(serviceWorker)).toEqual([]);

  await runAll(page);
  await expect.poll(() => powerCalls(serviceWorker)).toEqual(['request system']);
  const popup = await openPopup(tabId);
  await expect(popup.getByText('Keeping this computer awake while the run goes on')).toBeVisible();

  await resume(page);
  await waitForRun(page, 1);
  await expect.poll(() => powerCalls(serviceWorker)).toEqual(['request system', 'release']);
  await expect(popup.getByText('Keeping this computer awake while the run goes on')).toHaveCount(0);

  // The guard switched off: the tab is the browser's to discard again.
  await switchOff(serviceWorker, key);
  await expect.poll(() => autoDiscardable(serviceWorker, tabId)).toBe(true);
  await popup.close();
});

test('switched off in the options, the computer is not kept awake during a run', async ({
  context,
  page,
  serviceWorker,
  openOptions,
}) => {
  await watchPower(serviceWorker);
  const options = await openOptions();
  const keepAwake = options.getByRole('checkbox', { name: 'Keep this computer awake while a guarded run goes on' });
  await expect(keepAwake).toBeChecked();
  await keepAwake.uncheck();
  await expect
    .poll(async () => (await serviceWorker.evaluate(() => chrome.storage.local.get('settings'))).settings)
    .toMatchObject({
      keepAwake: false,
    });
  await openPaused({ context, page, serviceWorker });
  // The worker's review of the run is done when it notes the run going on; the power was not asked meanwhile.
  await expect
    .poll(async () => (await serviceWorker.evaluate(() => chrome.storage.session.get('nightWatch'))).nightWatch)
    .toMatchObject({ going: [expect.any(String)], awake: false });
  expect(await powerCalls(serviceWorker)).toEqual([]);
  await resume(page);
  await options.close();
});

test('a Colab tab closed while its run goes on: the history says nothing watches it, and an alert goes', async ({
  context,
  page,
  serviceWorker,
  receiver,
}) => {
  await serviceWorker.evaluate(
    (url) => chrome.storage.local.set({ alerts: { v: 1, url, kind: 'json' } }),
    receiver.url('/alerts'),
  );
  const { key } = await openPaused({ context, page, serviceWorker });
  await expect
    .poll(async () => ((await record(serviceWorker, key)) as { activity?: { busyTabs: number[] } })?.activity?.busyTabs)
    .toHaveLength(1);
  await page.close();

  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'tab-gone').length).toBe(1);
  expect(historyOf(await record(serviceWorker, key), 'tab-gone')[0]?.params).toMatchObject({ why: 'closed' });
  await expect.poll(() => receiver.received.length).toBe(1);
  const alert = JSON.parse(receiver.received[0]?.body ?? '{}') as Record<string, unknown>;
  expect(alert).toMatchObject({ event: 'tab-gone', title: 'Nothing watches the run: a notebook' });
  expect(alert.message).toMatch(/^The Colab tab of a notebook closed at .+: nothing watches the run\.$/);
});

test('the heartbeat: saved, a test ping, /start with a run, a ping a period later, silence after', async ({
  context,
  page,
  serviceWorker,
  openOptions,
  receiver,
}) => {
  test.setTimeout(180_000);
  const options = await openOptions();
  await options.getByRole('textbox', { name: 'Heartbeat URL' }).fill(receiver.url(CHECK));
  await options.getByRole('textbox', { name: 'Ping every (minutes)' }).fill('1');
  await options.getByRole('button', { name: 'Save heartbeat' }).click();
  await expect(options.locator('#heartbeat-message')).toHaveText(
    'Saved. Pings begin with the next guarded run; send a test ping to check it arrives.',
  );
  await expect(
    options.getByText(/^Pinging 127\.0\.0\.1:\d+ every 1 min while a guarded run goes on, with/),
  ).toBeVisible();
  await options.getByRole('button', { name: 'Send a test ping' }).click();
  await expect(options.locator('#heartbeat-test-result')).toHaveText('Sent: the service answered HTTP 200.');
  // healthchecks.io's /log: a test leaves the check's state alone.
  expect(got(receiver)).toEqual([`GET ${CHECK}/log`]);

  await openNotebook({ context, page, serviceWorker }, PAUSED);
  // A notebook open with nothing running pings nothing; its Run all starts the heartbeat.
  expect(got(receiver)).toHaveLength(1);
  await runAll(page);
  await expect.poll(() => got(receiver)).toEqual([`GET ${CHECK}/log`, `GET ${CHECK}/start`]);
  // One period later (a minute: the shortest the setting allows), the alarm pings while the run goes on.
  await expect
    .poll(() => got(receiver), { timeout: 100_000, intervals: [1000] })
    .toEqual([`GET ${CHECK}/log`, `GET ${CHECK}/start`, `GET ${CHECK}`]);
  await expect(options.locator('#heartbeat-last')).toHaveText(/^Last ping .+: answered HTTP 200$/);

  await resume(page);
  await waitForRun(page, 1);
  // The run ended: the browser holds no heartbeat alarm any more, so nothing pings until the next run.
  await expect
    .poll(() => serviceWorker.evaluate(async () => (await chrome.alarms.get('heartbeat')) ?? null))
    .toBeNull();
  await options.close();
});

test('the heartbeat says /fail at once when the guard gives up', async ({ context, page, serviceWorker, receiver }) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, maxRestarts: 0 });
  await serviceWorker.evaluate((url) => chrome.storage.local.set({ heartbeat: { v: 1, url } }), receiver.url(CHECK));
  const { key } = await openPaused(
    { context, page, serviceWorker },
    trainNotebook({ default: { fail: 'cuda-oom', place: 'frame' } }),
  );
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'gave-up').length).toBe(1);
  await expect.poll(() => got(receiver)).toContain(`GET ${CHECK}/fail`);
  expect(got(receiver)[0]).toBe(`GET ${CHECK}/start`);
});
