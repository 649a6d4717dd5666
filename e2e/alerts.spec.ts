import type { Worker } from '@playwright/test';
import { runAll, waitForRun } from './colab-sim';
import { alertLog, setAlerts, test } from './harness/alert-test';
import { expect } from './harness/extension';
import { setSettings } from './harness/guard';
import { EPOCH_DONE, historyOf, openNotebook, record, trainNotebook } from './harness/matrix';

/**
 * Alerts that reach a phone, end to end in Chromium: the options page saves a URL, the service worker posts the
 * chosen events to a local HTTP receiver (started here, on 127.0.0.1) in each receiver's shape, retries after a
 * failure, and never holds a restart up. The popup offers desktop notifications at the first switch-on.
 */

const VALUE_ERROR = { type: 'error' as const, ename: 'ValueError', evalue: 'shapes (3,) and (4,) not aligned' };
const STOPS = trainNotebook({ 1: { fail: VALUE_ERROR, place: 'frame' }, default: EPOCH_DONE });

async function notificationsSetting(serviceWorker: Worker): Promise<unknown> {
  const settings = await serviceWorker.evaluate(async () => (await chrome.storage.local.get('settings')).settings);
  return (settings as { notifications?: boolean } | undefined)?.notifications;
}

test('a URL saved in the options, a test alert, then a give-up after out of memory: one ntfy POST', async ({
  context,
  page,
  serviceWorker,
  sim,
  openOptions,
  receiver,
}) => {
  await setSettings(serviceWorker, { backoffBaseSec: 1, maxRestarts: 1 });
  const options = await openOptions();
  await options.getByRole('textbox', { name: 'Alert URL' }).fill(receiver.url('/night-runs'));
  await options.getByRole('combobox', { name: 'Receiver' }).selectOption('ntfy');
  await options.getByRole('button', { name: 'Save URL' }).click();
  await expect(options.locator('#alert-url-message')).toHaveText('Saved. Send a test alert to check it arrives.');
  await expect(options.getByText(/^Alerts go to this ntfy topic at 127\.0\.0\.1:\d+\.$/)).toBeVisible();
  await expect(options.getByRole('checkbox', { name: 'The guard gave up (restart limit reached)' })).toBeChecked();
  await expect(options.getByRole('checkbox', { name: 'Each restart' })).not.toBeChecked();

  await options.getByRole('button', { name: 'Send a test alert' }).click();
  await expect(options.locator('#alert-test-result')).toHaveText('Sent: the receiver answered HTTP 200.');
  expect(receiver.received).toHaveLength(1);
  expect(receiver.received[0]?.headers).toMatchObject({ tags: 'test_tube', title: 'Colab OOM Guard: test alert' });

  const { key } = await openNotebook(
    { context, page, serviceWorker, sim },
    trainNotebook({ default: { fail: 'cuda-oom', place: 'frame' } }),
  );
  await runAll(page);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'gave-up').length).toBe(1);
  await expect.poll(() => receiver.received.length).toBe(2);
  const alert = receiver.received[1];
  expect(alert).toMatchObject({ method: 'POST', path: '/night-runs' });
  expect(alert?.headers).toMatchObject({
    title: 'Gave up: a notebook',
    priority: 'urgent',
    tags: 'warning',
    'content-type': 'text/plain; charset=utf-8',
  });
  expect(alert?.body).toMatch(/^Gave up: it failed again after 1 restart in a row \(limit 1\).*\n/);
  expect(alert?.body).toMatch(/\nWaits for you: nothing restarts until you choose Watch again in the popup\.$/);
  expect(alert?.headers).not.toHaveProperty('click');
  // The restart itself was not chosen: one POST for the night, and nothing waits to be sent again.
  expect(historyOf(await record(serviceWorker, key), 'restarted')).toHaveLength(1);
  expect(await alertLog(serviceWorker)).toMatchObject({ pending: [], failures: [] });
  await options.close();
});

const SHAPES = [
  {
    kind: 'discord',
    path: '/api/webhooks/123456/token-abc',
    // By default the exception's type and the cell, not the line.
    body: () => ({
      content:
        'Run stopped: a notebook\nCell [2]: ValueError (not out of memory, not restarted)\n' +
        'Waits for you: the guard restarts a run only after out of memory.',
      allowed_mentions: { parse: [] },
    }),
  },
  {
    kind: 'slack',
    path: '/services/T000/B000/secret',
    body: () => ({ text: expect.stringMatching(/^Run stopped: a notebook\nCell \[2\]: ValueError \(not out/) }),
  },
  {
    kind: 'auto',
    path: '/hook',
    // The name (and the link) and the whole line, each allowed.
    body: () => ({
      schema: 'colab-oom-guard/alert',
      v: 1,
      event: 'run-stopped',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      notebook: 'train.ipynb',
      title: 'Run stopped: train.ipynb',
      message: 'Cell [2]: ValueError: shapes (3,) and (4,) not aligned (not out of memory, not restarted)',
      next: 'Waits for you: the guard restarts a run only after out of memory.',
      heldBack: 0,
      link: expect.stringMatching(/^https:\/\/colab\.research\.google\.com\/drive\/./),
      restarts: { used: 0, limit: 3 },
    }),
  },
] as const;

for (const shape of SHAPES) {
  const name = shape.kind === 'auto' ? 'generic JSON' : shape.kind;
  test(`a run stopped by another error: one POST in ${name}'s shape`, async ({
    context,
    page,
    serviceWorker,
    sim,
    receiver,
  }) => {
    await setAlerts(serviceWorker, {
      url: receiver.url(shape.path),
      kind: shape.kind,
      includeTitle: shape.kind === 'auto',
      includeErrorLine: shape.kind === 'auto',
    });
    const { key } = await openNotebook({ context, page, serviceWorker, sim }, STOPS);
    await runAll(page);
    expect((await waitForRun(page, 1)).ok).toBe(false);
    await expect.poll(async () => historyOf(await record(serviceWorker, key), 'run-stopped').length).toBe(1);
    await expect.poll(() => receiver.received.length).toBe(1);
    const [alert] = receiver.received;
    expect(alert?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(alert?.body ?? '')).toEqual(shape.body());
    expect(await alertLog(serviceWorker)).toMatchObject({ pending: [], failures: [] });
  });
}

test('a failing receiver: the options page lists the failure, the alert is sent again, the list clears', async ({
  context,
  page,
  serviceWorker,
  sim,
  openOptions,
  receiver,
}) => {
  receiver.answer(500);
  await setAlerts(serviceWorker, { url: receiver.url('/flaky'), kind: 'ntfy' });
  const options = await openOptions();
  await openNotebook({ context, page, serviceWorker, sim }, STOPS);
  await runAll(page);
  const failure = options.locator('.alert-failures li');
  const stopped = 'A run stopped on another error \\(not out of memory\\)';
  await expect(failure).toHaveText(
    new RegExp(`^\\d{1,2}:\\d\\d.* · ${stopped}: the receiver answered HTTP 500 \\(will try again\\)$`),
  );
  await expect(options.getByText('1 alert waits for its next try.')).toBeVisible();
  receiver.answer(200);
  // The second try comes 10 s later (an alarm, at most 30 s, if the worker was stopped meanwhile).
  await expect.poll(() => receiver.received.length, { timeout: 45_000 }).toBe(2);
  await expect(options.locator('.alert-failures')).toHaveCount(0);
  expect(receiver.received.map((r) => r.body)).toEqual([receiver.received[0]?.body, receiver.received[0]?.body]);
  await options.close();
});

test('a receiver that never answers holds no restart up', async ({ context, page, serviceWorker, sim, receiver }) => {
  receiver.answer('hang');
  await setAlerts(serviceWorker, { url: receiver.url('/slow'), kind: 'ntfy', events: { restarted: true } });
  const oomTwice = trainNotebook({
    1: { fail: 'cuda-oom', place: 'frame' },
    2: { fail: 'cuda-oom', place: 'frame' },
    default: EPOCH_DONE,
  });
  const { key } = await openNotebook({ context, page, serviceWorker, sim }, oomTwice);
  await runAll(page);
  expect((await waitForRun(page, 3)).ok).toBe(true);
  expect(historyOf(await record(serviceWorker, key), 'restarted')).toHaveLength(2);
  // The first restart's alert is still unanswered (and not given up: that takes 15 s) while the second restart is done.
  expect(receiver.received[0]?.headers.title).toBe('Restarted: a notebook');
  expect(receiver.received[0]?.open).toBe(true);
});

test('the first switch-on offers desktop notifications once; a stopped run then notifies, naming its notebook', async ({
  context,
  page,
  serviceWorker,
  sim,
  openPopup,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, STOPS, { guard: false });
  const popup = await openPopup(tabId);
  await popup.getByRole('switch', { name: 'Auto-restart this notebook' }).click();
  const offer = popup.getByText(/^Get a desktop notification when the guard gives up or a run stops\?/);
  await expect(offer).toBeVisible();
  await popup.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(popup.getByText('Notifications are on. The options page can turn them off.')).toBeVisible();
  await expect.poll(() => notificationsSetting(serviceWorker)).toBe(true);
  await popup.close();

  await runAll(page);
  await expect.poll(async () => historyOf(await record(serviceWorker, key), 'run-stopped').length).toBe(1);
  const ids = () => serviceWorker.evaluate(async () => Object.keys(await chrome.notifications.getAll()));
  await expect.poll(ids).toContainEqual(expect.stringMatching(new RegExp(`^run-stopped:\\d+:${key}$`)));

  // Offered once: switching another notebook on does not ask again.
  const other = await context.newPage();
  const second = await openNotebook({ context, page: other, serviceWorker, sim }, STOPS, { guard: false });
  const again = await openPopup(second.tabId);
  await again.getByRole('switch', { name: 'Auto-restart this notebook' }).click();
  await expect(again.getByRole('switch', { name: 'Auto-restart this notebook' })).toBeChecked();
  await expect(again.getByRole('button', { name: 'Turn on notifications' })).toHaveCount(0);
  await again.close();
  await other.close();
});
