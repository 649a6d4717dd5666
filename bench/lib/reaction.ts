/**
 * Reaction time: from the moment the OOM error output is inserted (in the notebook document, or in the cell's
 * cross-origin output frame) to the moment the guard opens the Runtime menu, minus the configured back-off.
 *
 * - Appearance: a bench init script (main world, every frame) timestamps the first `.error` output element it sees,
 *   in its MutationObserver callback (the microtask after the insertion), as `performance.timeOrigin + now()`, and
 *   hands it to Node with an exposed binding (the output frame is removed by the restart, so it is not read later).
 * - Menu: the simulator's own log entry `menu-open {menu: 'runtime'}`, whose `t` is the page's performance.now(),
 *   converted the same way.
 * Frames run in another renderer process: the offset between the two processes' `timeOrigin + now()` clocks is
 * measured against Date.now() (`clockSkewMs`, small) and reported, not corrected.
 * Each trial uses a fresh notebook id (fresh restart counters and back-off), enabled before the page opens.
 */
import type { BrowserContext, Frame, Page, Worker } from '@playwright/test';
import { installColabSim, type LogEntry, runAll, simLog, waitForKernel } from '../../e2e/colab-sim';
import { enableNotebook } from './browser';

export type Place = 'main' | 'frame';

/**
 * Where the time goes, from the notebook record's own timestamps (Date.now(), 1 ms resolution), captured by a
 * storage.onChanged listener in the service worker: the page's report (`pending.detectedAt`), the deadline the
 * service worker set (`pending.restartAt` = its clock when it scheduled + back-off) and the granted claim
 * (`restarting.startedAt`).
 */
export interface ReactionPhases {
  /** error output inserted → the page's report is dated (observer + classification). */
  detectMs: number;
  /** report dated → deadline set, minus the back-off (message to the service worker, policy, storage write). */
  scheduleMs: number;
  /** deadline → claim granted (page timer lateness, claim message, policy, storage write). */
  claimMs: number;
  /** claim granted → Runtime menu open (reply to the page, UI steps). */
  menuMs: number;
  /** Part of menuMs: claim granted → its status write seen by storage.onChanged in the service worker. */
  claimWriteMs: number;
}

export interface ReactionTrial {
  place: Place;
  phases?: ReactionPhases;
  /** menu-open − appearance − back-off, ms. Null when the guard did not open the menu within the timeout. */
  reactionMs: number | null;
  appearedToMenuMs: number | null;
  /** The sim log entry timed: `menu-open runtime` normally. */
  via?: string;
  error?: string;
}

const MARKER = `(() => {
  let done = false;
  const check = (records) => {
    if (done) return;
    for (const r of records) for (const n of r.addedNodes) {
      if (n.nodeType !== 1) continue;
      const el = n.matches('.error, .output_error') ? n : n.querySelector('.error, .output_error');
      if (!el) continue;
      done = true;
      const t = performance.timeOrigin + performance.now();
      window.__benchOomAppeared?.({ t, top: window.top === window });
      return;
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})();`;

async function clockOffset(frame: Frame): Promise<number> {
  // Date.now() − (timeOrigin + now()), averaged: compares the high-resolution clocks of two renderer processes.
  return frame.evaluate(() => {
    let sum = 0;
    for (let i = 0; i < 200; i++) sum += Date.now() - (performance.timeOrigin + performance.now());
    return sum / 200;
  });
}

let serial = 0;

interface StatusChange {
  at: number;
  status?: { kind: string; detectedAt?: number; restartAt?: number; startedAt?: number };
}

/** A storage.onChanged listener in the service worker that keeps every notebook status change (idempotent). */
async function watchStatuses(sw: Worker): Promise<void> {
  await sw.evaluate(() => {
    const g = globalThis as unknown as { __benchStatuses?: Record<string, StatusChange[]> };
    if (g.__benchStatuses) return;
    const all: Record<string, StatusChange[]> = {};
    g.__benchStatuses = all;
    chrome.storage.onChanged.addListener((changes, area) => {
      if (area !== 'local') return;
      for (const [key, change] of Object.entries(changes)) {
        if (!key.startsWith('nb:')) continue;
        all[key] ??= [];
        all[key].push({
          at: Date.now(),
          status: (change.newValue as { status?: StatusChange['status'] } | undefined)?.status,
        });
      }
    });
  });
}

async function statusesOf(sw: Worker, key: string): Promise<StatusChange[]> {
  return sw
    .evaluate(
      (k) => (globalThis as unknown as { __benchStatuses?: Record<string, StatusChange[]> }).__benchStatuses?.[k] ?? [],
      `nb:${key}`,
    )
    .catch(() => []);
}

export async function reactionTrial(
  context: BrowserContext,
  sw: Worker,
  place: Place,
  backoffMs: number,
  timeoutMs = 15_000,
): Promise<ReactionTrial & { clockSkewMs?: number }> {
  const sim = await installColabSim(context);
  const id = `benchReact${place}${Date.now().toString(36)}${serial++}`;
  const url = sim.notebook(`/drive/${id}`, {
    title: `bench reaction ${place}`,
    autosave: false,
    cells: [
      { source: 'import torch' },
      {
        source: 'train(model)',
        runs: {
          1: { durationMs: 400, fail: 'cuda-oom', place },
          default: { outputs: [{ type: 'stream', text: 'done\n' }] },
        },
      },
    ],
  });
  await watchStatuses(sw);
  await enableNotebook(sw, `drive:${id}`);
  const page: Page = await context.newPage();
  let appeared: { t: number; frame: Frame } | null = null;
  let appearedResolve!: () => void;
  const appearedPromise = new Promise<void>((r) => (appearedResolve = r));
  await page.exposeBinding('__benchOomAppeared', (source, data: { t: number }) => {
    if (!appeared) {
      appeared = { t: data.t, frame: source.frame };
      appearedResolve();
    }
  });
  await page.addInitScript({ content: MARKER });
  try {
    await page.goto(url);
    await waitForKernel(page, 'idle');
    await page.waitForTimeout(500); // the document_idle content script settles in
    await runAll(page);
    await Promise.race([appearedPromise, page.waitForTimeout(10_000)]);
    if (!appeared) return { place, reactionMs: null, appearedToMenuMs: null, error: 'no error output seen' };
    const seen = appeared as { t: number; frame: Frame };
    let clockSkewMs: number | undefined;
    if (seen.frame !== page.mainFrame()) {
      clockSkewMs = await Promise.all([clockOffset(page.mainFrame()), clockOffset(seen.frame)])
        .then(([a, b]) => a - b)
        .catch(() => undefined);
    }
    // The appearance in the top page's clock (the sim log's `t` is its performance.now()).
    const origin = await page.evaluate(() => performance.timeOrigin);
    const appearedAt = seen.t - origin;
    const opened = await page
      .waitForFunction(
        // The Runtime menu opening after the error; should the guard take another route (toolbar menu, main-world
        // API), its first step. (The bench's own Run all click comes before the error.)
        (after) =>
          (window as unknown as { __colabSim: { log: LogEntry[] } }).__colabSim.log.find(
            (e) => e.t > after && (e.type === 'menu-open' || e.type === 'menu-item' || e.type === 'api-call'),
          ),
        appearedAt,
        { timeout: timeoutMs, polling: 50 },
      )
      .then((h) => h.jsonValue() as Promise<LogEntry>)
      .catch(() => null);
    if (!opened) {
      const log = await simLog(page).catch(() => []);
      return {
        place,
        reactionMs: null,
        appearedToMenuMs: null,
        error: `no menu-open within ${timeoutMs} ms (log: ${log.map((e) => e.type).join(',')})`,
      };
    }
    const appearedToMenuMs = origin + opened.t - seen.t;
    const changes = await statusesOf(sw, `drive:${id}`);
    const pending = changes.find((c) => c.status?.kind === 'pending')?.status;
    const restartingChange = changes.find((c) => c.status?.kind === 'restarting');
    const restarting = restartingChange?.status;
    const phases: ReactionPhases | undefined =
      pending?.detectedAt !== undefined && pending.restartAt !== undefined && restarting?.startedAt !== undefined
        ? {
            detectMs: pending.detectedAt - seen.t,
            scheduleMs: pending.restartAt - backoffMs - pending.detectedAt,
            claimMs: restarting.startedAt - pending.restartAt,
            menuMs: origin + opened.t - restarting.startedAt,
            claimWriteMs: restartingChange!.at - restarting.startedAt,
          }
        : undefined;
    const via =
      opened.type === 'menu-open'
        ? `menu-open ${opened.menu}`
        : opened.type === 'menu-item'
          ? `menu-item ${opened.command} via ${opened.via}`
          : opened.type;
    return {
      place,
      appearedToMenuMs,
      reactionMs: appearedToMenuMs - backoffMs,
      via,
      ...(phases ? { phases } : {}),
      ...(clockSkewMs === undefined ? {} : { clockSkewMs }),
    };
  } finally {
    await page.close();
    await sim.dispose();
  }
}
