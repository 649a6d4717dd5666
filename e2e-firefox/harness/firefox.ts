/**
 * Debian's Firefox ESR with the built Firefox package (dist-firefox/), driven by puppeteer-core over WebDriver BiDi.
 * One test profile per browser, in the temporary directory. What it takes (found on Firefox 153 ESR):
 * - the add-on goes in as a temporary add-on (`Browser.installExtension`, BiDi `webExtension.install`, Firefox 138+);
 * - its internal UUID is fixed by the pref `extensions.webextensions.uuids`, so its pages have known URLs;
 * - `--remote-allow-system-access`: without it Firefox refuses to navigate a tab to a moz-extension:// page;
 * - `page.goto` to an extension page never resolves: the navigation is started and the document waited for;
 * - the background page is no target Puppeteer can reach: the tests use the extension's API from one of its pages.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from '@playwright/test';
import { Browser as BrowserKind, createProfile, launch } from '@puppeteer/browsers';
import puppeteer, { type Browser, type CreatePageOptions, type Page } from 'puppeteer-core';

export const DIST_FIREFOX = resolve(import.meta.dirname, '../../dist-firefox');

/** Where the tests find Firefox, in order of preference. */
export function findFirefox(): string | undefined {
  const candidates = [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'];
  return candidates.find((path): path is string => Boolean(path && existsSync(path)));
}

export const NO_FIREFOX_MESSAGE =
  "No Firefox found: set FIREFOX_PATH, or install Debian's package (sudo apt-get install -y firefox-esr).";

/** The add-on's internal UUID in the test browser (any fixed value: Firefox makes one up per profile otherwise). */
const ADDON_UUID = '0c5a7e21-3f4b-4d6e-8a9c-b1d2e3f4a5b6';

/**
 * A neutral extension document to call the extension's API from: an icon has no script of its own, so nothing in the
 * page under test reacts to it, and Firefox still gives a moz-extension:// document the `browser` API.
 */
const CONTROL_PAGE = 'icons/icon-16.png';

export interface StoredRecord {
  enabled: boolean;
  status: { kind: string; ownerTab?: number; restartAt?: number; attempt?: string };
  loopCount: number;
  totalRestarts: number;
  blindSince?: number;
  history: Array<{ type: string; at: number; action?: string; verdict?: { category: string } }>;
}

export interface LaunchOptions {
  /** Extra Firefox prefs (e.g. a short `extensions.background.idle.timeout`). */
  prefs?: Record<string, unknown>;
  /** Install the add-on at launch (default true); without it, call `install()` later. */
  install?: boolean;
}

export async function launchFirefox({ prefs = {}, install = true }: LaunchOptions = {}): Promise<Firefox> {
  const executablePath = findFirefox();
  if (!executablePath) throw new Error(NO_FIREFOX_MESSAGE);
  const manifest = builtManifest();
  // puppeteer.launch would force `fission.webContentIsolationStrategy` to 0 (every site in one process); users'
  // Firefox gives each site its own, so Colab's output frames run apart from the page. Puppeteer's own launcher
  // library writes the same automation prefs without that one.
  const profile = mkdtempSync(join(tmpdir(), 'oom-guard-firefox-'));
  await createProfile(BrowserKind.FIREFOX, {
    path: profile,
    preferences: { 'extensions.webextensions.uuids': JSON.stringify({ [manifest.id]: ADDON_UUID }), ...prefs },
  });
  const child = launch({
    executablePath,
    args: [
      '--headless',
      '--no-remote',
      '--remote-debugging-port=0',
      '--remote-allow-system-access',
      '--profile',
      profile,
    ],
  });
  try {
    const endpoint = await child.waitForLineOutput(/^WebDriver BiDi listening on (ws:\/\/.*)$/, 30_000);
    const browser = await puppeteer.connect({ browserWSEndpoint: `${endpoint}/session`, protocol: 'webDriverBiDi' });
    const version = await browser.version();
    if (Number(/^firefox\/(\d+)/.exec(version)?.[1]) < manifest.minVersion) {
      throw new Error(`${version} is older than the package's lowest Firefox, ${manifest.minVersion}`);
    }
    const firefox = new Firefox(browser, async () => {
      await child.close();
      rmSync(profile, { recursive: true, force: true });
    });
    if (install) await firefox.install();
    return firefox;
  } catch (error) {
    await child.close();
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

/** The gecko id and lowest Firefox of the built package. */
function builtManifest(): { id: string; minVersion: number } {
  const path = join(DIST_FIREFOX, 'manifest.json');
  const manifest = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  const gecko = manifest.browser_specific_settings?.gecko ?? {};
  if (typeof gecko.id !== 'string') throw new Error('No Firefox package in dist-firefox/: run npm run build:firefox');
  return { id: gecko.id, minVersion: Number.parseInt(gecko.strict_min_version, 10) };
}

export class Firefox {
  readonly origin = `moz-extension://${ADDON_UUID}`;
  #control: Page | null = null;

  constructor(
    readonly browser: Browser,
    private readonly stop: () => Promise<void>,
  ) {}

  /** Installs dist-firefox/ as a temporary add-on; installing it again is an update, as Firefox sees it. */
  async install(): Promise<void> {
    await this.browser.installExtension(DIST_FIREFOX);
    // An update reloads the extension: a page of the old one has no API any more.
    if (this.#control && !this.#control.isClosed()) await this.#control.close();
    this.#control = await this.openPage(CONTROL_PAGE, { background: true });
  }

  /** Opens one of the extension's pages (`src/popup/index.html?tab=3`) in a new tab, or a window, once loaded. */
  async openPage(path: string, options: CreatePageOptions = {}): Promise<Page> {
    const page = await this.browser.newPage(options);
    const url = `${this.origin}/${path}`;
    // page.goto to a moz-extension:// URL never resolves: Puppeteer never sees the navigation (page.url() stays
    // about:blank), so a waitForFunction is not restarted in the new document either. The document is polled from
    // here instead, one evaluation at a time: Firefox's WebDriver BiDi fails one that runs as the tab swaps documents.
    page.goto(url).catch(() => undefined);
    const deadline = Date.now() + POLL.timeout;
    const loaded = (url: string) => location.href === url && document.readyState === 'complete';
    while (!(await page.evaluate(loaded, url).catch(() => false))) {
      if (Date.now() > deadline) throw new Error(`${url} did not load`);
      await new Promise((resolve) => setTimeout(resolve, POLL.polling));
    }
    return page;
  }

  /** Runs `fn` in an extension page, where `browser` is the extension's API. */
  evaluate<A, T>(fn: (arg: A) => T | Promise<T>, arg: A): Promise<T> {
    if (!this.#control) throw new Error('the add-on is not installed');
    return this.#control.evaluate(fn as (arg: unknown) => unknown, arg) as Promise<T>;
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.stop();
  }

  // Test set-up and state, through the extension's storage.

  /** Puppeteer's clicks are a person at the keyboard: the guard's own acting is tested with its question off. */
  async resetStorage(settings: Record<string, unknown> = {}): Promise<void> {
    await this.evaluate(
      async (settings) => {
        await browser.storage.local.clear();
        await browser.storage.local.set({ settings: { v: 1, ...settings } });
      },
      { askAtKeyboard: false, ...settings },
    );
  }

  /** Switches the guard on for `key`, with `extra` fields in its record (e.g. `blindSince`). */
  /** Switches the guard on as the popup does: through the background script, which keeps the record's history. */
  async switchOn(key: string): Promise<void> {
    const reply = await this.evaluate(
      (key) =>
        browser.runtime.sendMessage({ type: 'ui-command', key, command: { type: 'set-enabled', enabled: true } }),
      key,
    );
    if ((reply as { ok?: boolean } | undefined)?.ok !== true) throw new Error(`set-enabled: ${JSON.stringify(reply)}`);
  }

  async enableGuard(key: string, extra: Record<string, unknown> = {}): Promise<void> {
    await this.evaluate(
      ({ key, extra }) => browser.storage.local.set({ [`nb:${key}`]: { v: 1, key, enabled: true, ...extra } }),
      { key, extra },
    );
  }

  async record(key: string): Promise<StoredRecord | undefined> {
    const name = `nb:${key}`;
    return this.evaluate(async (name) => (await browser.storage.local.get(name))[name], name) as Promise<
      StoredRecord | undefined
    >;
  }

  async session(name: string): Promise<unknown> {
    return this.evaluate(async (name) => (await browser.storage.session.get(name))[name], name);
  }

  async tabIdOf(page: Page): Promise<number> {
    const id = await this.evaluate(async (url) => (await browser.tabs.query({ url }))[0]?.id, page.url());
    if (id === undefined) throw new Error(`no tab for ${page.url()}`);
    return id;
  }

  async badgeText(tabId: number): Promise<string> {
    return this.evaluate((tabId) => browser.action.getBadgeText({ tabId }), tabId);
  }

  /** Whether the extension's background page is loaded now (Firefox unloads it when idle). */
  async backgroundAlive(): Promise<boolean> {
    return this.evaluate(
      () => browser.extension.getViews().some((view) => view.location.pathname === '/_generated_background_page.html'),
      null,
    );
  }

  /** Waits, as it is set (storage.session.onChanged, no polling), until session storage has `name`. */
  async waitForSessionKey(name: string, failure: string): Promise<void> {
    const found = await this.evaluate(
      (name) =>
        new Promise<boolean>((resolve) => {
          const done = (found: boolean) => {
            clearTimeout(timer);
            browser.storage.session.onChanged.removeListener(listener);
            resolve(found);
          };
          const listener = (changes: Record<string, { newValue?: unknown }>) => {
            if (changes[name]?.newValue) done(true);
          };
          const timer = setTimeout(() => done(false), 15_000);
          browser.storage.session.onChanged.addListener(listener);
          void browser.storage.session.get(name).then((items) => items[name] && done(true));
        }),
      name,
    );
    if (!found) throw new Error(failure);
  }

  /** Waits until the Colab page in `tabId` watches `key` (the popup's page-state question; see e2e/harness/guard). */
  async waitForWatching(tabId: number, key: string): Promise<void> {
    const ask = (tabId: number) => browser.tabs.sendMessage(tabId, { type: 'page-state' }).catch(() => null);
    await expect
      .poll(() => this.evaluate(ask, tabId), { message: `the page never watched ${key}`, timeout: 15_000 })
      .toEqual({ key, watching: true });
  }

  /**
   * The page's scripts are set up: its notebook is registered (`tab:<id>`) and the hello answered (the frame token,
   * `token:<id>`, is the last thing the background sets up). Returns the tab's id.
   */
  async waitForGuard(page: Page): Promise<number> {
    const tabId = await this.tabIdOf(page);
    await this.waitForSessionKey(`tab:${tabId}`, 'the content script never said hello');
    await this.waitForSessionKey(`token:${tabId}`, 'the hello of the tab was never answered');
    return tabId;
  }
}

/** How the harness polls a page's state: at intervals, as a tab behind another one gets no animation frames. */
const POLL = { polling: 100, timeout: 20_000 };
