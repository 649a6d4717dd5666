import { waitForRun } from '../e2e/colab-sim/puppeteer';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, openNotebook, test } from './harness/test';

/** The Firefox package's parts find each other on Colab's real origins: page script, output-frame script, token. */

test.beforeEach(async ({ firefox }) => firefox.resetStorage());

type Reports = Window & {
  __reports?: Array<{ origin: string; data: { channel?: string; report?: { kind?: string } } }>;
};

test("the page script registers the notebook; the output frame reports Colab's error output, with the token", async ({
  firefox,
  colab,
  sim,
}) => {
  // The notebook's own HTML outside #output-body, with an OOM in it, comes first: it must never be reported.
  const dashboard = {
    type: 'display_data' as const,
    html: '<div class="error output-error">OutOfMemoryError in the dashboard</div>',
    appendToBody: true,
  };
  const runs = { 1: { outputs: [dashboard], fail: 'cuda-oom' as const, place: 'frame' as const }, default: EPOCH_DONE };
  // Frames post only for a guarded notebook; a long countdown keeps the restart out of the way.
  await firefox.resetStorage({ backoffBaseSec: 600 });
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  expect(await firefox.session(`tab:${tabId}`)).toBe(key);
  const token = await firefox.session(`token:${tabId}`);
  expect(token).toMatch(/^[0-9a-f]{64}$/);

  await colab.evaluate(() => {
    const w = window as Reports;
    w.__reports = [];
    addEventListener('message', (e) => w.__reports?.push({ origin: e.origin, data: e.data }));
  });
  await colab.click('colab-notebook-toolbar-run-button >>> #toolbar-run-button');
  expect(await waitForRun(colab, 1)).toMatchObject({ ok: false, failedCell: 1 });
  const handle = await colab.waitForFunction(
    () =>
      (window as Reports).__reports?.find(
        (r) => r.data?.channel === 'colab-oom-guard/output-frame' && r.data.report?.kind === 'error-output',
      ),
    { polling: 100 },
  );
  expect(await handle.jsonValue()).toMatchObject({
    origin: expect.stringMatching(/^https:\/\/[\w-]+-colab\.googleusercontent\.com$/),
    data: { token, report: { kind: 'error-output', text: expect.stringContaining('CUDA out of memory') } },
  });
  const texts = await colab.evaluate(() =>
    ((window as Reports).__reports ?? []).map((r) => JSON.stringify(r.data)).filter((d) => d.includes('dashboard')),
  );
  expect(texts).toEqual([]);
});
