import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runAll, waitForRun } from '../e2e/colab-sim/puppeteer';
import { type AlertReceiver, startAlertReceiver } from '../e2e/harness/alert-receiver';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, fill, historyOf, openNotebook, test, waitForText } from './harness/test';

/**
 * An alert in Firefox: the options page saves a URL (the optional host permission and Firefox's consent to the data
 * alerts send, asked for in the one click), the test alert and a stopped run reach a local receiver, and a redirect is
 * not followed. Firefox's own pref answers its optional-permission prompt here
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
  // Firefox's consent to what alerts send, asked for with the host: activity and content, not the name's.
  const consent = await firefox.evaluate(async () => {
    // Firefox's own answer names the data consent, which the polyfill's type of it does not.
    const all = (await browser.permissions.getAll()) as { data_collection?: string[] };
    return all.data_collection ?? null;
  }, null);
  expect(consent?.slice().sort()).toEqual(['websiteActivity', 'websiteContent']);

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
  expect(receiver.received[1]?.body).toBe(
    'Cell [2]: ValueError (not out of memory, not restarted)\n' +
      'Waits for you: the guard restarts a run only after out of memory.',
  );
  await options.close();
});

test('a redirect to a host nobody granted is not followed in Firefox either', async ({ firefox }) => {
  receiver.answer({ status: 307, headers: { Location: receiver.localhostUrl('/stolen') } });
  const options = await firefox.openPage('src/options/index.html');
  await fill(options, '#alert-url', receiver.url('/hook'));
  await options.select('#alert-kind', 'json');
  await options.click('::-p-aria([name="Save URL"][role="button"])');
  await waitForText(options, '#alert-url-message', /^Saved\. Send a test alert to check it arrives\.$/);
  await options.click('::-p-aria([name="Send a test alert"][role="button"])');
  await waitForText(
    options,
    '#alert-test-result',
    /^Not delivered: the receiver answered with a redirect, which is not followed: save the address it leads to$/,
  );
  expect(receiver.received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /hook']);
  await options.close();
});

test("the manifest offers Firefox's consent to every category of data alerts send, and requires none", () => {
  const manifest = JSON.parse(readFileSync(resolve(import.meta.dirname, '../dist-firefox/manifest.json'), 'utf8'));
  // docs/alerts.md: what happened and what the guard did, the error's type or line, the name and link when allowed.
  expect(manifest.browser_specific_settings.gecko.data_collection_permissions).toEqual({
    required: ['none'],
    optional: ['websiteActivity', 'websiteContent', 'browsingActivity'],
  });
});
