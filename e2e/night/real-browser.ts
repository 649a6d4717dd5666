import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { CHROMIUM_FLAGS, findChromium } from '../harness/browser-path';

/**
 * Chromium as a user has it, driven by Playwright: tabs that can be hidden, and hidden tabs throttled.
 *
 * Playwright keeps every page it drives visible: on each page it enables CDP focus emulation
 * (`Emulation.setFocusEmulationEnabled`), which keeps the page's tab shown even behind another tab (puppeteer-core
 * with the same call sees the same). `chromium.connectOverCDP(…, { noDefaults: true })` leaves the browser's own
 * context without it, so this starts Chromium itself (headless, a DevTools port) and connects so. Without Playwright's
 * launch, Chromium also runs without its three anti-throttling flags (`--disable-background-timer-throttling`,
 * `--disable-backgrounding-occluded-windows`, `--disable-renderer-backgrounding`), and with intensive wake-up
 * throttling 10 s after a page hidden while loading is hidden instead of 5 minutes. A page that has loaded gets it a
 * minute after it is hidden, which the flag does not change (docs/performance.md, "A tab hidden all night"): the
 * night's hidden OOMs come sooner, and e2e/hidden-tab.spec.ts holds the restart in a tab throttled to the minute.
 *
 * Every page the night opens besides the Colab tab (the options page it reads storage through, the popup, a second tab
 * on the notebook) opens in a window of its own: a tab opened in the Colab tab's window would hide it.
 *
 * CDP's `Extensions.loadUnpacked` (an update in place) answers only on the DevTools pipe, which Chromium opens beside
 * the port: `loadUnpacked` speaks it.
 */
export interface RealTabs {
  context: BrowserContext;
  /**
   * Closes the browser, waits for it to exit and removes its profile; never throws: what could not be cleaned up is
   * returned, for the run to report apart from the night's verdict.
   */
  close: () => Promise<string[]>;
  /** A page in a new window (about:blank). */
  newWindow: () => Promise<Page>;
  /** CDP Extensions.loadUnpacked over the pipe: the extension's id. */
  loadUnpacked: (path: string) => Promise<string>;
}

export async function launchRealTabs(extension: string): Promise<RealTabs> {
  const profile = mkdtempSync(join(tmpdir(), 'oom-guard-night-profile-'));
  const child = spawn(
    findChromium()!,
    [
      '--headless',
      '--remote-debugging-port=0',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
      '--enable-unsafe-extension-debugging',
      '--enable-features=IntensiveWakeUpThrottling:grace_period_seconds/10',
      ...CHROMIUM_FLAGS,
      'about:blank',
    ],
    // Its own process group, so that closing it ends its renderers and helpers too, not the main process alone.
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], detached: true },
  );
  // Not left behind by a night that ends abruptly (a killed run, a worker torn down).
  const orphaned = () => signal(child, 'SIGKILL');
  process.once('exit', orphaned);
  const close = async (browser?: Browser): Promise<string[]> => {
    await browser?.close().catch(() => undefined);
    const problems = [await stop(child)];
    process.off('exit', orphaned);
    problems.push(remove(profile));
    return problems.filter((p): p is string => p !== null);
  };
  try {
    const port = await devToolsPort(profile, child);
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { noDefaults: true });
    const context = browser.contexts()[0]!;
    const session = await browser.newBrowserCDPSession();
    const newWindow = async () => {
      const [page] = await Promise.all([
        context.waitForEvent('page'),
        session.send('Target.createTarget', { url: 'about:blank', newWindow: true }),
      ]);
      return page;
    };
    const pipe = devToolsPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
    const loadUnpacked = async (path: string) => {
      const result = (await pipe('Extensions.loadUnpacked', { path })) as { id?: string };
      if (!result.id) throw new Error(`Extensions.loadUnpacked gave no id: ${JSON.stringify(result)}`);
      return result.id;
    };
    return { context, close: () => close(browser), newWindow, loadUnpacked };
  } catch (error) {
    const problems = await close();
    if (problems.length) console.warn(`cleanup after a failed launch: ${problems.join('; ')}`);
    throw error;
  }
}

/** Commands over the DevTools pipe: JSON messages each ended by a NUL, answers matched by id. */
function devToolsPipe(input: Writable, output: Readable): (method: string, params: object) => Promise<unknown> {
  let next = 0;
  let buffer = '';
  const waiting = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\0'); end >= 0; end = buffer.indexOf('\0')) {
      const message = JSON.parse(buffer.slice(0, end)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      buffer = buffer.slice(end + 1);
      if (message.id !== undefined) waiting.get(message.id)?.(message);
    }
  });
  return (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (message) => {
        waiting.delete(id);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      });
      input.write(`${JSON.stringify({ id, method, params })}\0`);
    });
}

/** The port Chromium wrote to its profile's DevToolsActivePort once it listens. */
async function devToolsPort(profile: string, child: ChildProcess): Promise<string> {
  const file = join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`Chromium exited (${child.exitCode}) before listening`);
    if (existsSync(file)) {
      const port = readFileSync(file, 'utf8').split('\n')[0];
      if (port) return port;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('Chromium did not open its DevTools port in 30 s');
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Signals Chromium's whole process group (it was started detached: its own group). */
function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, name);
  } catch {
    // The group is gone already.
  }
}

/** Ends Chromium and waits for it to exit (SIGTERM, then SIGKILL): null, or why it did not. */
async function stop(child: ChildProcess): Promise<string | null> {
  if (child.pid === undefined) return null;
  const exit = new Promise((resolve) => (exited(child) ? resolve(null) : child.once('exit', resolve)));
  const within = (ms: number) => Promise.race([exit, new Promise((resolve) => setTimeout(resolve, ms))]);
  signal(child, 'SIGTERM');
  await within(10_000);
  // The rest of the group too (a renderer still writing to the profile), whether or not the main process went.
  signal(child, 'SIGKILL');
  await within(10_000);
  return exited(child) ? null : `Chromium (pid ${child.pid}) had not exited 20 s after it was told to`;
}

/**
 * Removes a folder the night made, retrying while a process that just exited lets go of it (ENOTEMPTY, EBUSY):
 * null, or why it could not.
 */
export function remove(dir: string): string | null {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    return null;
  } catch (error) {
    return `could not remove ${dir}: ${(error as Error).message}`;
  }
}
