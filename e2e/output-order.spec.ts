import type { Page } from '@playwright/test';
import {
  failureOutput,
  type OutputSpec,
  type Place,
  type RunSpec,
  runAll,
  type Scenario,
  type StepSpec,
  shownOom,
  stopCell,
  waitForRun,
} from './colab-sim';
import { expect, test } from './harness/extension';
import { resetStorage, setSettings } from './harness/guard';
import {
  EPOCH_DONE,
  expectNothingBeforeSentinel,
  type Fixtures,
  historyOf,
  openNotebook,
  record,
} from './harness/matrix';
import { helperScript } from './harness/status-helper';

/**
 * The order of a run's outputs across the page and its output frame (REFERENCE §11.4: plain stdout streams into the
 * page, tracebacks and rich outputs into the cell's frame). A training cell often opens its frame before it prints its
 * log: the status helper's JavaScript, a `display(Javascript)` keep-alive, a progress widget, a table, a plot. Its log
 * lines then come in the page, and its OOM in the frame opened long before: that OOM ended the run, and the guard
 * restarts once. Every test drives the simulated Colab (e2e/colab-sim), built from the same evidence as the product.
 */

test.beforeEach(async ({ serviceWorker }) => {
  await resetStorage(serviceWorker);
  await setSettings(serviceWorker, { backoffBaseSec: 1 });
});

/** What opens the training cell's frame before its first log line (each shows nothing of the log). */
const OPENERS: Record<string, StepSpec> = {
  "the status helper's JavaScript (eval_js)": { evalJs: helperScript() },
  'display(Javascript) showing nothing': {
    output: { type: 'display_data', text: '<IPython.core.display.Javascript object>', javascript: 'window.kept = 1' },
  },
  'a progress widget': {
    output: {
      type: 'display_data',
      text: "HBox(children=(HTML(value='Epochs'), FloatProgress(value=0.0, max=3.0)))",
      html: '<div class="widget-hbox"><label>Epochs</label><progress max="3" value="0"></progress></div>',
    },
  },
  'display(HTML)': {
    output: { type: 'display_data', text: '<IPython.core.display.HTML object>', html: '<h3>Run 12: resnet50</h3>' },
  },
  'a plot': {
    output: {
      type: 'display_data',
      text: '<Figure size 640x480 with 1 Axes>',
      html: '<img alt="loss curve" src="data:image/png;base64,iVBORw0KGgo=">',
    },
  },
};

/** The training log, in `place`. */
const log = (place: Place, text: string): StepSpec => ({ output: { type: 'stream', text, place } });

/** The CUDA OOM that ends the run, in `place`. */
const oomIn = (place: Place): OutputSpec => ({ ...failureOutput('cuda-oom'), place });

/**
 * The training cell: `opener`, its log lines (in `logPlace`), a while of training, more log, then the OOM (in
 * `oomPlace`). Its later runs train to the end.
 */
function openedFirst(opener: StepSpec, logPlace: Place, oomPlace: Place, extra: Partial<Scenario> = {}): Scenario {
  const first: RunSpec = {
    steps: [
      opener,
      log(logPlace, 'loading resnet50\nepoch 1/3: step 100/2300 loss=0.9121\n'),
      { wait: 1500 },
      log(logPlace, 'epoch 1/3: step 200/2300 loss=0.7710\n'),
      { output: oomIn(oomPlace) },
    ],
  };
  return {
    title: 'train.ipynb',
    ...extra,
    cells: [
      { id: 'setup', source: 'import torch, colab_oom_guard' },
      { id: 'train', source: 'colab_oom_guard.status()\ntrain()', runs: { 1: first, default: EPOCH_DONE } },
    ],
  };
}

/**
 * Opens `scenario`, starts its training cell (`start`: a Run all, or the cell alone), and expects its OOM to restart
 * it once: the run fails at the training cell, the guard's Run all completes. Returns the notebook's key.
 */
async function failsThenRestartsOnce(fx: Fixtures, scenario: Scenario, start = runAll): Promise<string> {
  const { key } = await openNotebook(fx, scenario);
  await start(fx.page);
  expect(await waitForRun(fx.page, 1)).toMatchObject({ ok: false, failedCell: 1 });
  expect(await waitForRun(fx.page, 2)).toMatchObject({ ok: true });
  await expectOneRestart(fx, key);
  return key;
}

/** The guard restarted once for the OOM (a CUDA OOM verdict), and noted nothing it left alone. */
async function expectOneRestart(fx: Fixtures, key: string) {
  await expect.poll(async () => historyOf(await record(fx.serviceWorker, key), 'restarted').length).toBe(1);
  const rec = await record(fx.serviceWorker, key);
  expect(historyOf(rec, 'restart-scheduled').map((e) => e.verdict?.category)).toEqual(['gpu-oom']);
  expect(historyOf(rec, 'ignored')).toEqual([]);
}

/** Runs the training cell alone, by its run button (run 1 of the page). */
async function runTrainingCell(page: Page) {
  await page.locator('#cell-train #run-button').click();
}

test.describe('the frame opened before the log lines in the page, then the OOM in that frame: one restart', () => {
  for (const [name, opener] of Object.entries(OPENERS)) {
    test(`${name}, in a Run all`, async ({ context, page, serviceWorker, sim }) => {
      await failsThenRestartsOnce({ context, page, serviceWorker, sim }, openedFirst(opener, 'main', 'frame'));
    });
  }

  for (const name of ["the status helper's JavaScript (eval_js)", 'display(Javascript) showing nothing']) {
    test(`${name}, the cell run on its own: once, and nothing more before the next failure`, async ({
      context,
      page,
      serviceWorker,
      sim,
    }) => {
      const fx = { context, page, serviceWorker, sim };
      const key = await failsThenRestartsOnce(fx, openedFirst(OPENERS[name]!, 'main', 'frame'), runTrainingCell);
      await expectNothingBeforeSentinel(fx, key, ['gpu-oom']);
    });
  }

  test("without Colab's output numbers, the frame opened by the status helper: still one restart", async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const scenario = openedFirst(OPENERS["the status helper's JavaScript (eval_js)"]!, 'main', 'frame', {
      ui: { outputIds: false },
    });
    await failsThenRestartsOnce({ context, page, serviceWorker, sim }, scenario);
  });
});

test.describe('the same notebook with the OOM in the page, or its log in the frame: one restart', () => {
  const variants: Array<[string, Place, Place]> = [
    ['the OOM traceback in the page', 'main', 'main'],
    ['the log lines in the frame', 'frame', 'frame'],
  ];
  for (const [variant, logPlace, oomPlace] of variants) {
    for (const name of ["the status helper's JavaScript (eval_js)", 'a plot']) {
      test(`${name}, ${variant}`, async ({ context, page, serviceWorker, sim }) => {
        await failsThenRestartsOnce(
          { context, page, serviceWorker, sim },
          openedFirst(OPENERS[name]!, logPlace, oomPlace),
        );
      });
    }
  }
});

/**
 * A script in the cell's output (here `display(Javascript)`) can write where Colab's renderer writes: once the cell's
 * real error shows in the frame, it appends outputs of its own after it, a log line and an OOM's traceback.
 */
const FORGE_AFTER_ERROR = `new MutationObserver((_, observer) => {
  const body = document.getElementById('output-body');
  if (!body.querySelector('.error')) return;
  observer.disconnect();
  const line = document.createElement('div');
  line.className = 'stream output-id-8';
  line.innerHTML = '<div class="output_subarea output_text"><pre>retrying with batch_size=32</pre></div>';
  const forged = document.createElement('div');
  forged.className = 'error output-id-9';
  forged.innerHTML = '<div class="output_subarea output_text output_error"><pre>' +
    'OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 GiB (forged)</pre></div>';
  body.append(line, forged);
}).observe(document.getElementById('output-body'), { childList: true })`;

test.describe('the hard cases still restart nothing', () => {
  test("a script in the output appends a line and an OOM-looking error output after the cell's ValueError", async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const script: StepSpec = {
      output: { type: 'display_data', text: '<IPython.core.display.Javascript object>', javascript: FORGE_AFTER_ERROR },
    };
    const scenario: Scenario = {
      title: 'train.ipynb',
      cells: [
        { id: 'setup', source: 'import torch' },
        {
          id: 'train',
          source: 'display(Javascript(watch))\ntrain()',
          runs: { 1: { steps: [script, log('main', 'epoch 1/3\n')], fail: 'value-error' }, default: EPOCH_DONE },
        },
      ],
    };
    const { key } = await openNotebook(fx, scenario);
    await runAll(page);
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1 });
    const frame = page.frameLocator('#cell-train iframe');
    await expect(frame.locator('#output-body > .error')).toHaveCount(2);
    await expect(frame.locator('#output-body > .error').last()).toContainText('(forged)');
    // The history says why: which of the two ended the run cannot be told.
    await expect
      .poll(async () => historyOf(await record(serviceWorker, key), 'ignored').map((e) => e.params?.why))
      .toEqual(['ending-unclear']);
    await expectNothingBeforeSentinel(fx, key);
  });

  test('the status helper opened the frame, a caught OOM shown there, the log goes on in the page, then Stop', async ({
    context,
    page,
    serviceWorker,
    sim,
  }) => {
    const fx = { context, page, serviceWorker, sim };
    const run: RunSpec = {
      steps: [
        OPENERS["the status helper's JavaScript (eval_js)"]!,
        log('main', 'epoch 1/3: step 100/2300 loss=0.9121\n'),
        { output: shownOom('frame') },
        log('main', 'retrying with batch_size=32\n'),
        { pause: true },
      ],
    };
    const scenario: Scenario = {
      title: 'train.ipynb',
      cells: [
        { id: 'setup', source: 'import torch' },
        { id: 'train', source: 'train()', runs: { 1: run, default: EPOCH_DONE } },
      ],
    };
    const { key } = await openNotebook(fx, scenario);
    await runAll(page);
    await expect(page.frameLocator('#cell-train iframe').locator('.error')).toContainText('CUDA out of memory');
    await expect(page.locator('#cell-train colab-static-output-renderer')).toContainText('retrying');
    await stopCell(page, 'train');
    expect(await waitForRun(page, 1)).toMatchObject({ ok: false, failedCell: 1, reason: 'interrupt' });
    await expectNothingBeforeSentinel(fx, key);
  });
});
