import { runAll, waitForRun } from '../e2e/colab-sim/puppeteer';
import { type AlertReceiver, startAlertReceiver } from '../e2e/harness/alert-receiver';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, fill, historyOf, openNotebook, test, waitForText } from './harness/test';

/**
 * An alert in Firefox: the options page saves a URL (the optional host permission asked for in the click), the test
 * alert and a stopped run reach a local receiver. Firefox's own pref answers its optional-permission prompt here
 * (extensions.webextOptionalPermissionPrompts: false grants what is asked), so the product's request runs unchanged.
 */

test.use({ firefoxPrefs: { 'extensions.webextOptionalPermissionPrompts': false } });

let receiver: AlertReceiver;
test.beforeEach(async ({ firefox }) => {
  await firefox.resetStorage({ backoffBaseSec: 1 });
  receiver = await startAlertReceiver();
});
test.afterEach(() => receiver.stop());

test('an ntfy URL saved in the options page gets the test alert, then a stopped run', async ({
  firefox,
  colab,
  sim,
}) => {
  const options = await firefox.openPage('src/options/index.html');
  await fill(options, '#alert-url', receiver.url('/firefox-night'));
  await options.select('#alert-kind', 'ntfy');
  await options.click('::-p-aria([name="Save URL"][role="button"])');
  await waitForText(options, '#alert-url-message', /^Saved\. Send a test alert to check it arrives\.$/);
  const granted = await firefox.evaluate(
    (origin) => browser.permissions.contains({ origins: [origin] }),
    'http://127.0.0.1/*',
  );
  expect(granted).toBe(true);

  await options.click('::-p-aria([name="Send a test alert"][role="button"])');
  await waitForText(options, '#alert-test-result', /^Sent: the receiver answered HTTP 200\.$/);
  expect(receiver.received[0]?.headers).toMatchObject({ title: 'Colab OOM Guard: test alert', tags: 'test_tube' });

  const failing = { type: 'error' as const, ename: 'ValueError', evalue: 'bad shape' };
  const runs = { 1: { fail: failing, place: 'frame' as const }, default: EPOCH_DONE };
  const { key } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  await runAll(colab);
  expect((await waitForRun(colab, 1)).ok).toBe(false);
  await expect.poll(async () => historyOf(await firefox.record(key), 'run-stopped').length).toBe(1);
  await expect.poll(() => receiver.received.length).toBe(2);
  expect(receiver.received[1]).toMatchObject({ method: 'POST', path: '/firefox-night' });
  expect(receiver.received[1]?.headers).toMatchObject({ title: 'Run stopped: a notebook', priority: 'high' });
  expect(receiver.received[1]?.body).toBe('Cell [2]: ValueError: bad shape (not out of memory, not restarted)');
  await options.close();
});
