import type { Page } from '@playwright/test';
import { resume, runAll, type Scenario, waitForRun } from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import { expectNothingBeforeSentinel, logOf, openNotebook, waitForHelloDone } from './harness/matrix';

/**
 * Forged reports: script in an output frame (the notebook's own JavaScript, run as `google.colab.output.eval_js`
 * runs it) tries to learn the token the frame's reports carry, and to post reports of its own. It learns nothing, and
 * its reports change nothing.
 */

const CHANNEL = 'colab-oom-guard/output-frame';
const FORGED_TEXT = 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB (forged)';

/**
 * Step 1, in the frame's page context: listen to everything this window receives, wrap postMessage in this world,
 * ask the status API, and put an error-looking output where Colab puts outputs, so that the extension posts a real
 * report while it listens.
 */
const LISTEN = `(() => {
  const attack = (window.__attack = { seen: [] });
  const keep = (value) => attack.seen.push(typeof value === 'string' ? value : JSON.stringify(value));
  addEventListener('message', (event) => keep(event.data));
  const original = Window.prototype.postMessage;
  Window.prototype.postMessage = function (message, ...rest) {
    keep(message);
    return original.call(this, message, ...rest);
  };
  const bait = document.createElement('div');
  bait.className = 'output error';
  bait.append(Object.assign(document.createElement('pre'), { textContent: 'bait: an error-looking output' }));
  document.getElementById('output-body').append(bait);
  postMessage({ colabOomGuard: 'status?', id: 'probe' }, '*');
})()`;

/**
 * Step 2: look for a token everywhere it can read, then post an OOM report to the Colab page with every candidate
 * and a made-up one, to both target origins. Returns what it found.
 */
const FORGE = `(() => {
  const { seen } = window.__attack;
  const readable = [
    document.documentElement.outerHTML,
    Object.getOwnPropertyNames(window).join(' '),
    typeof chrome === 'undefined' ? '' : JSON.stringify(Object.keys(chrome)),
  ];
  const found = [...seen, ...readable].flatMap((text) => text.match(/[0-9a-f]{32,}/g) ?? []);
  const report = { kind: 'error-output', text: ${JSON.stringify(FORGED_TEXT)} };
  for (const token of [...new Set(found), 'f'.repeat(64), '']) {
    for (const target of ['*', 'https://colab.research.google.com']) {
      parent.postMessage({ channel: '${CHANNEL}', token, report }, target);
    }
  }
  return JSON.stringify({ seen, readable, found });
})()`;

/** The training cell runs the attack, then fails with an error that is not an OOM. */
function attackedNotebook(): Scenario {
  return {
    title: 'attacked.ipynb',
    cells: [
      { id: 'setup', source: 'import torch' },
      {
        id: 'train',
        source: 'eval_js(LISTEN); eval_js(FORGE); raise ValueError',
        runs: { 1: { steps: [{ evalJs: LISTEN }, { pause: true }, { evalJs: FORGE }], fail: 'value-error' } },
      },
    ],
  };
}

type Report = { token: string; report: { kind: string; text: string } };

/** What Colab's own scripts in the page see: every report posted to the page (they see the reports, as it does). */
async function recordReports(page: Page): Promise<void> {
  await page.evaluate((channel) => {
    const reports: Report[] = [];
    (window as unknown as { __reports: Report[] }).__reports = reports;
    addEventListener('message', (event) => event.data?.channel === channel && reports.push(event.data));
  }, CHANNEL);
}

async function reports(page: Page): Promise<Report[]> {
  return page.evaluate(() => (window as unknown as { __reports: Report[] }).__reports);
}

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

test('script in an output frame learns no token, and the reports it posts with guesses are ignored', async ({
  context,
  page,
  serviceWorker,
  sim,
}) => {
  const { key, tabId } = await openNotebook({ context, page, serviceWorker, sim }, attackedNotebook());
  await waitForHelloDone(serviceWorker, tabId);
  await recordReports(page);
  await runAll(page);

  // The extension reported the bait, with the page's token, while the script in the frame was listening.
  await expect.poll(async () => (await reports(page)).some((r) => r.report.text.includes('bait'))).toBe(true);
  const token = await serviceWorker.evaluate(
    async (id) => (await chrome.storage.session.get(`token:${id}`))[`token:${id}`],
    tabId,
  );
  expect((await reports(page)).find((r) => r.report.text.includes('bait'))?.token).toBe(token);

  await resume(page);
  expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  const [, forge] = await logOf(page, 'eval-js');
  expect(forge?.error).toBeUndefined();
  const attack = JSON.parse(String(forge?.result)) as { seen: string[]; readable: string[]; found: string[] };
  // It saw the status API's answer (which carries no token) and its own messages, and no token anywhere.
  expect(attack.seen.some((text) => text.includes('"colabOomGuard":"status"'))).toBe(true);
  expect(JSON.stringify(attack)).not.toContain(String(token));
  // Its forged reports did reach the page…
  const forged = (new Set(attack.found).size + 2) * 2;
  await expect.poll(async () => (await reports(page)).filter((r) => r.report.text === FORGED_TEXT).length).toBe(forged);
  // …and the guard did nothing about them: the cell's real error (a ValueError) is no OOM.
  await expectNothingBeforeSentinel({ context, page, serviceWorker }, key);
});
