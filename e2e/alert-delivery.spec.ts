import { runAll, waitForRun } from './colab-sim';
import { telegramReply } from './harness/alert-receiver';
import { alertLog, setAlerts, test } from './harness/alert-test';
import { expect } from './harness/extension';
import { setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * Alerts that reach and wake, end to end in Chromium against local receivers (started here, on 127.0.0.1; every test
 * drives the simulated Colab, built from the same evidence as the product): Telegram through its Bot API (the
 * receiver answers as Telegram's server does; the extension takes a Bot API server URL, as for a self-hosted one),
 * a receiver asking to wait (HTTP 429 with Retry-After, Telegram's retry_after), one alert per kind per notebook in 5
 * minutes, and a redirect to a host nobody granted that is not followed.
 */

const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9';
const VALUE_ERROR = { type: 'error' as const, ename: 'ValueError', evalue: 'token=abc123 not valid' };
const STOPS = trainNotebook({ 1: { fail: VALUE_ERROR, place: 'frame' }, default: EPOCH_DONE });

test('Telegram set up in the options page: the test alert and a stopped run reach the chat (sendMessage)', async ({
  context,
  page,
  serviceWorker,
  sim,
  openOptions,
  receiver,
}) => {
  receiver.telegram(BOT_TOKEN);
  const options = await openOptions();
  await options.getByRole('combobox', { name: 'Receiver' }).selectOption('telegram');
  const url = options.getByRole('textbox', { name: 'Alert URL' });
  await expect(url).toHaveValue('https://api.telegram.org');
  // The Bot API server this night: the local one, as a self-hosted telegram-bot-api would be.
  await url.fill(receiver.url(''));
  await options.getByRole('textbox', { name: 'Bot token' }).fill(BOT_TOKEN);
  await options.getByRole('textbox', { name: 'Chat id' }).fill('-1001234567890');
  await options.getByRole('button', { name: 'Save URL' }).click();
  await expect(options.locator('#alert-url-message')).toHaveText('Saved. Send a test alert to check it arrives.');
  await expect(options.getByText(/^Alerts go to this Telegram bot at 127\.0\.0\.1:\d+\.$/)).toBeVisible();
  await expect(options.getByRole('textbox', { name: 'Bot token' })).toHaveValue('');

  await options.getByRole('button', { name: 'Send a test alert' }).click();
  await expect(options.locator('#alert-test-result')).toHaveText('Sent: the receiver answered HTTP 200.');
  expect(receiver.received[0]).toMatchObject({ method: 'POST', path: `/bot${BOT_TOKEN}/sendMessage` });
  expect(JSON.parse(receiver.received[0]?.body ?? '')).toEqual({
    chat_id: '-1001234567890',
    text: 'Colab OOM Guard: test alert\nAlerts from the guard arrive here.',
    link_preview_options: { is_disabled: true },
  });

  const { key } = await openNotebook({ context, page, serviceWorker, sim }, STOPS);
  await runAll(page);
  expect((await waitForRun(page, 1)).ok).toBe(false);
  await expect.poll(() => receiver.received.length).toBe(2);
  expect(historyOf(await record(serviceWorker, key), 'run-stopped')).toHaveLength(1);
  // The exception's type and the cell, not the line (which held a token); what comes next.
  expect(JSON.parse(receiver.received[1]?.body ?? '').text).toBe(
    'Run stopped: a notebook\nCell [2]: ValueError (not out of memory, not restarted)\n' +
      'Waits for you: the guard restarts a run only after out of memory.',
  );
  expect(await alertLog(serviceWorker)).toMatchObject({ pending: [], failures: [] });
  await options.close();
});

test("Telegram's flood control: the retry_after it asks is waited out, not the usual 10 s", async ({
  context,
  page,
  serviceWorker,
  sim,
  receiver,
}) => {
  receiver.telegram(BOT_TOKEN);
  const flood = { description: 'Too Many Requests: retry after 13', parameters: { retry_after: 13 } };
  receiver.answerNext(telegramReply(429, { ok: false, error_code: 429, ...flood }));
  await setAlerts(serviceWorker, { url: receiver.url(''), kind: 'telegram', token: BOT_TOKEN, chatId: '42' });
  await openNotebook({ context, page, serviceWorker, sim }, STOPS);
  await runAll(page);
  await expect.poll(() => receiver.received.length, { timeout: 45_000 }).toBe(2);
  const [first, second] = receiver.received;
  expect(second?.body).toBe(first?.body);
  expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(13_000);
  await expect.poll(() => alertLog(serviceWorker)).toMatchObject({ pending: [], failures: [] });
});

test('a 429 with Retry-After: listed with the wait asked, tried again no sooner, then delivered', async ({
  context,
  page,
  serviceWorker,
  sim,
  openOptions,
  receiver,
}) => {
  receiver.answerNext({ status: 429, headers: { 'Retry-After': '13' }, body: 'slow down' });
  await setAlerts(serviceWorker, { url: receiver.url('/hook'), kind: 'json' });
  const options = await openOptions();
  await openNotebook({ context, page, serviceWorker, sim }, STOPS);
  await runAll(page);
  await expect(options.locator('.alert-failures li')).toHaveText(
    /: the receiver answered HTTP 429 and asked to wait 13 s \(will try again\)$/,
  );
  await expect.poll(() => receiver.received.length, { timeout: 45_000 }).toBe(2);
  const [first, second] = receiver.received;
  expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(13_000);
  await expect(options.locator('.alert-failures')).toHaveCount(0);
  await options.close();
});

test('one alert per kind per notebook in 5 minutes: the next says how many were held back', async ({
  context,
  page,
  serviceWorker,
  sim,
  receiver,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, maxRestarts: 5 });
  await setAlerts(serviceWorker, { url: receiver.url('/hook'), kind: 'json', events: { restarted: true } });
  const oomTwice = trainNotebook({
    1: { fail: 'cuda-oom', place: 'frame' },
    2: { fail: 'cuda-oom', place: 'frame' },
    default: EPOCH_DONE,
  });
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, oomTwice);
  // Two restarts were held back 6 minutes ago (an earlier stretch of the night): the log as the worker left it.
  await serviceWorker.evaluate(
    ({ key, at }) =>
      chrome.storage.local.set({
        alertLog: { v: 1, pending: [], failures: [], recent: [{ key, event: 'restarted', at, held: 2 }] },
      }),
    { key, at: Date.now() - 6 * 60_000 },
  );
  await runAll(page);
  expect((await waitForRun(page, 3)).ok).toBe(true);
  expect(historyOf(await record(serviceWorker, key), 'restarted')).toHaveLength(2);
  // The second restart is held back: counted in the log, which is the worker's decision, made with the first's.
  await expect
    .poll(async () => ((await alertLog(serviceWorker)) as { recent: { held: number }[] }).recent)
    .toEqual([expect.objectContaining({ key, event: 'restarted', held: 1 })]);
  await expect.poll(() => receiver.received.length).toBe(1);
  const alert = JSON.parse(receiver.received[0]?.body ?? '');
  expect(alert).toMatchObject({
    event: 'restarted',
    heldBack: 2,
    next: '4 of 5 restarts left; the guard keeps watching.',
  });
  expect(alert.message).toBe('Restart 1 of 5 done');
});

test('a redirect to a host nobody granted is not followed: nothing reaches it, the test says why', async ({
  serviceWorker,
  openOptions,
  receiver,
}) => {
  // Answered from 127.0.0.1 (granted) with a redirect to localhost (not granted), where a follow would land.
  receiver.answer({ status: 307, headers: { Location: receiver.localhostUrl('/stolen') } });
  await setAlerts(serviceWorker, { url: receiver.url('/hook'), kind: 'json' });
  const options = await openOptions();
  await options.getByRole('button', { name: 'Send a test alert' }).click();
  await expect(options.locator('#alert-test-result')).toHaveText(
    'Not delivered: the receiver answered with a redirect, which is not followed: save the address it leads to',
  );
  expect(receiver.received.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /hook']);
  await options.close();
});
