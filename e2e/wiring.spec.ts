import { expect, test } from './harness/extension';
import { waitForGuard } from './harness/guard';

test('content scripts run in the Colab page and in its cross-origin output frames', async ({
  context,
  page,
  serviceWorker,
}) => {
  await context.route('https://colab.research.google.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body:
        `<!doctype html><title>wiring.ipynb - Colab</title><body>
        <script>window.reports = []; addEventListener('message', (e) => reports.push({ origin: e.origin, ` +
        `data: e.data }));</script>
        <iframe src="https://abc-0-colab.googleusercontent.com/outputframe.html"></iframe></body>`,
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
  await page.goto('https://colab.research.google.com/drive/wiring');
  // The top frame's script registered the tab's notebook with the service worker…
  const tabId = await waitForGuard(serviceWorker, page);
  expect(await serviceWorker.evaluate((id) => chrome.storage.session.get(`tab:${id}`), tabId)).toEqual({
    [`tab:${tabId}`]: 'drive:wiring',
  });
  // …and the frame's script reported Colab's error output (not the notebook's own HTML) to its parent, on Colab's
  // origin, with the tab's token.
  const reports = await page.waitForFunction(() => (window as unknown as { reports: unknown[] }).reports.at(0));
  const token = await serviceWorker.evaluate(
    async (id) => (await chrome.storage.session.get(`token:${id}`))[`token:${id}`],
    tabId,
  );
  expect(await reports.jsonValue()).toMatchObject({
    origin: 'https://abc-0-colab.googleusercontent.com',
    data: {
      channel: 'colab-oom-guard/output-frame',
      token,
      report: { kind: 'error-output', text: expect.stringContaining('CUDA out of memory. Tried to allocate') },
    },
  });
  await context.unrouteAll();
});
