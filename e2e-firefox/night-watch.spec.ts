import { resume, runAll, waitForRun } from '../e2e/colab-sim/puppeteer';
import { type AlertReceiver, startAlertReceiver } from '../e2e/harness/alert-receiver';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, fill, openNotebook, test, waitForText } from './harness/test';

/**
 * Through the night in Firefox: the heartbeat saved in the options page (its site and the consent to website activity
 * asked for in the click; Firefox's pref answers the prompt here, as in alerts.spec.ts), a test ping, /start when a run
 * begins, a ping a period later from the background page's alarm, and no alarm once the run ended. Firefox has no API
 * to keep the computer awake: the popup says so while the run goes on. The Colab tab is not discardable while guarded
 * (Firefox desktop has the property). Observed at a local receiver and through browser.alarms and browser.tabs, not the
 * product's notes.
 */

test.use({ firefoxPrefs: { 'extensions.webextOptionalPermissionPrompts': false } });

const CHECK = '/ping/5f2c1a3e-9b7d-4e21-8c3a-0d6f1e2b3c4d';

let receiver: AlertReceiver;
test.beforeEach(async ({ firefox }) => {
  await firefox.resetStorage({ backoffBaseSec: 1 });
  receiver = await startAlertReceiver();
});
test.afterEach(() => receiver.stop());

const got = () => receiver.received.map((request) => `${request.method} ${request.path}`);

test('the heartbeat pings with a run and stops with it; the popup says the computer cannot be kept awake', async ({
  firefox,
  colab,
  sim,
}) => {
  test.setTimeout(180_000);
  const options = await firefox.openPage('src/options/index.html');
  await fill(options, '#heartbeat-url', receiver.url(CHECK));
  await fill(options, '#heartbeat-every', '1');
  await options.click('::-p-aria([name="Save heartbeat"][role="button"])');
  await waitForText(options, '#heartbeat-message', /^Saved\. Pings begin with the next guarded run/);
  // Firefox's consent to what a ping tells, asked for with the host in the same click: website activity.
  const consent = await firefox.evaluate(async () => {
    // Firefox's own answer names the data consent, which the polyfill's type of it does not.
    const all = (await browser.permissions.getAll()) as { data_collection?: string[] };
    return all.data_collection ?? null;
  }, null);
  expect(consent).toContain('websiteActivity');
  await waitForText(options, '#keep-awake + div .error', /^This browser cannot keep the computer awake/);
  await options.click('::-p-aria([name="Send a test ping"][role="button"])');
  await waitForText(options, '#heartbeat-test-result', /^Sent: the service answered HTTP 200\.$/);
  expect(got()).toEqual([`GET ${CHECK}/log`]);

  const { tabId } = await openNotebook(
    { firefox, colab, sim },
    trainNotebook({ 1: { pause: true }, default: EPOCH_DONE }),
  );
  await expect
    .poll(() => firefox.evaluate((tabId) => browser.tabs.get(tabId), tabId))
    .toMatchObject({
      autoDiscardable: false,
    });
  await runAll(colab);
  await expect.poll(() => got()).toEqual([`GET ${CHECK}/log`, `GET ${CHECK}/start`]);
  const popup = await firefox.openPage(`src/popup/index.html?tab=${tabId}`, { type: 'window' });
  await waitForText(popup, '.awake', /^This browser cannot keep the computer awake/);
  await popup.close();

  await expect
    .poll(() => got(), { timeout: 100_000, intervals: [1000] })
    .toEqual([`GET ${CHECK}/log`, `GET ${CHECK}/start`, `GET ${CHECK}`]);

  await resume(colab);
  expect((await waitForRun(colab, 1)).ok).toBe(true);
  await expect
    .poll(() => firefox.evaluate(async () => (await browser.alarms.get('heartbeat')) ?? null, undefined))
    .toBeNull();
  await options.close();
});
