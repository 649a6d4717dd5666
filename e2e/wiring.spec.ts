import type { BrowserContext, Frame, Page, Worker } from '@playwright/test';
import { expect, test } from './harness/extension';
import { enableGuard, readRecord, resetStorage, waitForGuard } from './harness/guard';
import { waitForHelloDone } from './harness/matrix';

const FRAME_ORIGIN = 'https://abc-0-colab.googleusercontent.com';

/** A Colab page with one output frame in a cell; the page keeps every output-frame report it receives. */
async function routeWiringPage(context: BrowserContext): Promise<void> {
  await context.route('https://colab.research.google.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body:
        `<!doctype html><title>wiring.ipynb - Colab</title><body>
        <script>window.reports = []; addEventListener('message', (e) => e.data?.channel === ` +
        `'colab-oom-guard/output-frame' && reports.push({ origin: e.origin, data: e.data }));</script>
        <div class="cell code" id="cell-w1"><div class="output"><div class="output-iframe-sizer">
        <iframe src="${FRAME_ORIGIN}/outputframe.html?vrz=colab_wiring"></iframe></div></div></div></body>`,
    }),
  );
  await context.route('https://*.googleusercontent.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      // The notebook's own HTML outside #output-body comes first: it must never be reported.
      body: `<!doctype html><body><div class="error">OutOfMemoryError in the dashboard</div><div id="output-area">
        <div id="output-body"><div class="output error">
        <pre>OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB</pre></div></div></div></body>`,
    }),
  );
}

type Report = { origin: string; data: { channel: string; token: string; report: { kind: string; text: string } } };

async function reportsOf(page: Page): Promise<Report[]> {
  return page.evaluate(() => (window as unknown as { reports: Report[] }).reports);
}

async function tokenOf(serviceWorker: Worker, tabId: number): Promise<unknown> {
  return serviceWorker.evaluate(async (id) => (await chrome.storage.session.get(`token:${id}`))[`token:${id}`], tabId);
}

/** Colab adds an output to the frame (as its own scripts do, in the frame's page context). */
async function addErrorOutput(page: Page, text: string): Promise<void> {
  await outputFrame(page).evaluate((text) => {
    const output = document.createElement('div');
    output.className = 'output error';
    output.append(Object.assign(document.createElement('pre'), { textContent: text }));
    document.getElementById('output-body')?.append(output);
  }, text);
}

function outputFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(FRAME_ORIGIN));
  if (!frame) throw new Error('no output frame');
  return frame;
}

/** Asks the status API from the output frame's own page context, as notebook code does; resolves to its answer. */
async function askStatus(page: Page): Promise<unknown> {
  return outputFrame(page).evaluate(
    () =>
      new Promise((resolve) => {
        addEventListener('message', (e) => e.data?.colabOomGuard === 'status' && resolve(e.data.status));
        postMessage({ colabOomGuard: 'status?', id: 'wiring' }, '*');
      }),
  );
}

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
});

test('content scripts run in the Colab page and in its cross-origin output frames', async ({
  context,
  page,
  serviceWorker,
}) => {
  await routeWiringPage(context);
  await enableGuard(serviceWorker, 'drive:wiring');
  await page.goto('https://colab.research.google.com/drive/wiring');
  // The top frame's script registered the tab's notebook with the service worker…
  const tabId = await waitForGuard(serviceWorker, page);
  expect(await serviceWorker.evaluate((id) => chrome.storage.session.get(`tab:${id}`), tabId)).toEqual({
    [`tab:${tabId}`]: 'drive:wiring',
  });
  // …and the frame's script reported Colab's error output (not the notebook's own HTML) to its parent, on Colab's
  // origin, with the token of the page's document.
  await expect.poll(async () => (await reportsOf(page)).length).toBeGreaterThan(0);
  expect(await reportsOf(page)).toEqual([
    {
      origin: FRAME_ORIGIN,
      data: {
        channel: 'colab-oom-guard/output-frame',
        token: await tokenOf(serviceWorker, tabId),
        report: {
          kind: 'error-output',
          text: expect.stringContaining('CUDA out of memory. Tried to allocate'),
          // The frame's first output (Colab's number when it has one), seen at the frame's first look: not as it came.
          index: 0,
          id: null,
          at: expect.any(Number),
          exact: false,
        },
      },
    },
  ]);
});

test('a frame posts nothing while the guard is off, then reports with the token of its page document', async ({
  context,
  page,
  serviceWorker,
}) => {
  await routeWiringPage(context);
  await page.goto('https://colab.research.google.com/drive/wiring');
  const tabId = await waitForGuard(serviceWorker, page);
  await waitForHelloDone(serviceWorker, tabId);
  // The frame's script is running and talks to the worker (it answers the status API), and has posted nothing.
  expect(await askStatus(page)).toMatchObject({ guarded: false });
  expect(await reportsOf(page)).toEqual([]);

  await enableGuard(serviceWorker, 'drive:wiring');
  await expect.poll(async () => (await reportsOf(page)).length).toBe(1);
  const first = await tokenOf(serviceWorker, tabId);
  expect((await reportsOf(page))[0]?.data.token).toBe(first);

  // A reload is a new page document with a new token: the frame posts what it holds again, tagged with it (what it
  // may have posted before the page's hello carried the token it had, void in the new page).
  await page.reload();
  await expect.poll(async () => tokenOf(serviceWorker, tabId)).not.toBe(first);
  const second = await tokenOf(serviceWorker, tabId);
  await expect.poll(async () => (await reportsOf(page)).filter((r) => r.data.token === second).length).toBe(1);
  await addErrorOutput(page, 'torch.OutOfMemoryError: CUDA out of memory (after the reload)');
  await expect
    .poll(async () => (await reportsOf(page)).filter((r) => r.data.report.text.includes('after the reload')))
    .toEqual([expect.objectContaining({ data: expect.objectContaining({ token: second }) })]);
  expect(await readRecord(serviceWorker, 'drive:wiring')).toMatchObject({ enabled: true });
});
