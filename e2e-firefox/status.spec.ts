import { runAll, waitForRun } from '../e2e/colab-sim/puppeteer';
import { EPOCH_DONE, trainNotebook } from '../e2e/harness/matrix';
import { expect, historyOf, openNotebook, test, waitForText } from './harness/test';

/** The status box in Firefox: guarded or not, what happened to the run, what comes next; the tooltip says the same. */

test.beforeEach(async ({ firefox }) => firefox.resetStorage({ backoffBaseSec: 1 }));

test('a run stopped by another error: the status box and the toolbar tooltip say so, and what comes next', async ({
  firefox,
  colab,
  sim,
}) => {
  const runs = {
    1: { fail: { type: 'error' as const, ename: 'ValueError', evalue: 'shapes (3,) and (4,) not aligned' } },
    default: EPOCH_DONE,
  };
  const { key, tabId } = await openNotebook({ firefox, colab, sim }, trainNotebook(runs));
  await runAll(colab);
  expect((await waitForRun(colab, 1)).ok).toBe(false);
  await expect.poll(async () => historyOf(await firefox.record(key), 'run-stopped').length).toBe(1);

  const popup = await firefox.openPage(`src/popup/index.html?tab=${tabId}`, { type: 'window' });
  await waitForText(popup, '.status .headline', /^Watching$/);
  const stopped =
    /^Run stopped at .+: ValueError: shapes \(3,\) and \(4,\) not aligned \(not out of memory, not restarted\)$/;
  await waitForText(popup, '.status .happened', stopped);
  await waitForText(popup, '.status .next', /^3 of 3 restarts left; the next one after a 1 s countdown$/);
  const title = () => firefox.evaluate((tabId) => browser.action.getTitle({ tabId }), tabId);
  // The tooltip: the status box's three lines.
  await expect
    .poll(async () => (await title()).split('\n'))
    .toEqual([
      'Colab OOM Guard: Watching',
      expect.stringMatching(stopped),
      '3 of 3 restarts left; the next one after a 1 s countdown',
    ]);

  // Switched off: "Not guarded", never "no failures".
  await popup.click('input[role=switch]');
  await waitForText(popup, '.status .headline', /^Not guarded$/);
  await expect.poll(title).toMatch(/^Colab OOM Guard: Not guarded(\n|$)/);
  await popup.close();
});
