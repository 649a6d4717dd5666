import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type CDPSession, expect, type Page } from '@playwright/test';
import {
  type ColabSim,
  holdMirror,
  installColabSim,
  type LogEntry,
  planRun,
  releaseMirror,
  resume,
  runAll,
  type Scenario,
  setOutage,
  shellRun,
  showDialog,
  showDisconnect,
  shownOom,
  simLog,
  simState,
  stopCell,
  waitForKernel,
  waitForRole,
  waitForRun,
} from '../colab-sim';
import { DIST, extensionServiceWorker } from '../harness/extension';
import { welcomeTabClosed } from '../harness/welcome-tab';
import { NightAlertWatch } from './alerts';
import type { Answer, NightColab, NightEvent, PersonDialog } from './events';
import { type Expected, NightModel } from './model';
import { launchRealTabs, type RealTabs, remove } from './real-browser';

/**
 * One night in real Chromium with the built extension, on the simulator. The extension is watched from outside only:
 * the simulator's log (menus, dialogs, restarts, runs), the page (the guard's notice), the popup's words, and
 * chrome.storage read by an extension page. Nothing here imports src/.
 */

/** Countdowns short enough for hundreds of failures a night: every countdown 1 s (the shortest settings allow). */
const FAST = { backoffBaseSec: 1, backoffMaxSec: 1 };
/**
 * A countdown long enough for an event to land inside it on a loaded machine (a reload, a navigation, an update): a
 * visit to another notebook took more than 8 s with three nights and three other builds on two cores.
 */
const SLOW = { backoffBaseSec: 15, backoffMaxSec: 15 };
/** Switching off cancels the countdown at once, so a long one costs nothing and leaves the popup all the time. */
const CANCEL_WINDOW = { backoffBaseSec: 60, backoffMaxSec: 60 };
/** README: "If 30 minutes pass after a restart without a failure…": a healthy stretch jumps one minute past that. */
const HEALTHY_JUMP_MS = 31 * 60_000;
/** The computer asleep through a countdown: past settings.md's 2 minutes of grace, within the 12 hours. */
const SLEEP_IN_COUNTDOWN_MS = 2 * 60 * 60_000;
const SETTLE_MS = 30_000;
/** A page that missed the switch-off would claim at its deadline; a few seconds later its restart would show. */
const CLAIM_LATE_MS = 5_000;
/** settings.md: "Once nothing has been typed or clicked in the tab for 2 minutes, the question gives way…". */
const AWAY_MS = 2 * 60_000;
/** Less than the night's 1 s countdown: a countdown shown this long before the question is one, not a flash. */
const FLASH_MS = 1000;
/**
 * Longer than any event can take (a settle, a 60 s countdown window, a person away for 2 minutes): past it the night
 * itself is stuck.
 */
const EVENT_MS = 240_000;

/**
 * The night's own timing failed (an event meant to land inside a countdown came after it ran out): the guard is not
 * judged on that event. The run counts these apart from failures and plays the event again in a fresh world.
 */
export class NightTiming extends Error {}

/** An invariant that does not hold; `signature` names which, so that shrinking keeps to the same failure. */
export class InvariantBroken extends Error {
  constructor(
    readonly signature: string,
    detail: string,
  ) {
    super(`${signature}: ${detail}`);
  }
}

interface Observed {
  restarts: Array<{ at: number }>;
  guardRunAlls: Array<{ at: number }>;
  /** The Reconnects clicked in "Runtime disconnected" dialogs: the night's person never clicks them. */
  reconnects: Array<{ at: number }>;
  countdownsShown: number[];
  /** When the notice started asking "Restart session and run all?" (Restart now / Not now). */
  questionsShown: number[];
  dangerous: string[];
  foreignCommands: string[];
  foreignConfirms: string[];
}

/** The main world of every page: note each time the guard's notice starts showing a countdown (its Cancel). */
function noticeWatcher() {
  if (!location.hostname.startsWith('colab.')) return;
  const shown: number[] = [];
  const asked: number[] = [];
  (window as unknown as { __nightCountdowns: number[] }).__nightCountdowns = shown;
  (window as unknown as { __nightQuestions: number[] }).__nightQuestions = asked;
  const watchHost = (host: Element) => {
    let had = false;
    let hadQuestion = false;
    const look = () => {
      const text = host.shadowRoot?.textContent ?? '';
      const has = text.includes('Cancel restart');
      if (has && !had) shown.push(Date.now());
      had = has;
      const question = text.includes('Restart now') && text.includes('Not now');
      if (question && !hadQuestion) asked.push(Date.now());
      hadQuestion = question;
    };
    const attach = () => {
      if (!host.shadowRoot) return false;
      new MutationObserver(look).observe(host.shadowRoot, { childList: true, subtree: true, characterData: true });
      look();
      return true;
    };
    if (!attach()) queueMicrotask(attach);
  };
  new MutationObserver((records) => {
    for (const r of records)
      for (const node of r.addedNodes)
        if (node instanceof Element && node.localName === 'colab-oom-guard-notice') watchHost(node);
  }).observe(document, { childList: true, subtree: true });
}

/** The main world: the guard's notice says `words`. */
function noticeSays(words: string): boolean {
  const hosts = [...document.querySelectorAll('colab-oom-guard-notice')];
  return hosts.some((host) => !!host.shadowRoot?.textContent?.includes(words));
}

/** The main world: the guard's notice shows a countdown (its Cancel button) or the question in its place. */
function countdownShown(): boolean {
  const hosts = [...document.querySelectorAll('colab-oom-guard-notice')];
  return hosts.some((host) => /Cancel restart|Restart now/.test(host.shadowRoot?.textContent ?? ''));
}

/** The main world: the guard's notice asks the person (its Restart now and Not now buttons). */
function questionShown(): boolean {
  const hosts = [...document.querySelectorAll('colab-oom-guard-notice')];
  return hosts.some((host) =>
    /Restart now[\s\S]*Not now|Not now[\s\S]*Restart now/.test(host.shadowRoot?.textContent ?? ''),
  );
}

export interface NightResult {
  events: number;
  checks: number;
}

export class Night {
  model = new NightModel();
  checks = 0;
  #past: Observed = emptyObserved();
  #notebook = '';
  #key = '';
  #other = '';
  #tabId = -1;
  #settings: Record<string, unknown> = {};
  #colab: NightColab | null = null;
  /** A second tab on the notebook, open for one event and its checks. */
  #second: Page | null = null;
  #phase = '';
  /** The deadline of the last countdown the person cancelled by switching off (0: none). */
  #cancelledDeadline = 0;
  /** Versions of the extension loaded over the first one. */
  #updates = 0;

  private constructor(
    private readonly context: BrowserContext,
    private readonly close: () => Promise<string[]>,
    private readonly sim: ColabSim,
    private probe: Page,
    private cdp: CDPSession,
    readonly page: Page,
    private readonly extensionId: string,
    private readonly alerts: NightAlertWatch,
    private readonly tabs: RealTabs,
  ) {}

  static async open(): Promise<Night> {
    const tabs = await launchWithCopy();
    const { context, close } = tabs;
    const worker = await extensionServiceWorker(context);
    if (!(await worker.evaluate(welcomeTabClosed))) throw new Error('no welcome page opened on install');
    const extensionId = new URL(worker.url()).host;
    await context.addInitScript(noticeWatcher);
    const sim = await installColabSim(context);
    const { probe, cdp } = await openProbe(tabs, extensionId);
    const page = await tabs.newWindow();
    return new Night(context, close, sim, probe, cdp, page, extensionId, await NightAlertWatch.start(), tabs);
  }

  /**
   * Closes the night's browser; never throws: what could not be cleaned up is returned, reported apart from the
   * night's verdict.
   */
  async dispose(): Promise<string[]> {
    const problems: string[] = [];
    const step = (what: string) => (error: Error) => void problems.push(`${what}: ${error.message}`);
    await this.sim.dispose().catch(step('the simulator'));
    problems.push(...(await this.close()));
    await this.alerts.stop().catch(step('the alert receiver'));
    return problems;
  }

  /** A fresh notebook for this night (a night's replay must not see an earlier night's counts), switched on. */
  async begin(name: string, colab: NightColab): Promise<void> {
    await this.#closeSecond();
    this.#notebook = this.sim.notebook(`/drive/${name}`, notebookScenario(colab));
    this.#key = `drive:${name}`;
    this.#other = this.sim.notebook(`/drive/${name}other`, notebookScenario(colab));
    this.model = new NightModel({
      reconnectOnDisconnect: colab.reconnectOnDisconnect,
      askAtKeyboard: colab.askAtKeyboard,
    });
    this.#colab = colab;
    this.#past = emptyObserved();
    this.#cancelledDeadline = 0;
    await this.#storage((s) => chrome.storage.local.clear().then(() => s), null);
    const alerts = this.alerts.begin(name, colab.alerts);
    if (alerts) await this.#storage((alerts) => chrome.storage.local.set({ alerts }), alerts);
    this.#settings = {};
    await this.#setSettings({
      ...FAST,
      reconnectOnDisconnect: colab.reconnectOnDisconnect,
      askAtKeyboard: colab.askAtKeyboard,
    });
    await this.page.goto(this.#notebook);
    await this.#loaded();
    this.#tabId = await this.#tabIdOf(this.#notebook);
    await this.#switch(true);
    await this.#waitWatching();
  }

  async play(event: NightEvent): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<never>((_, reject) => {
      const stuck = () => reject(new Error(`the event hung for ${EVENT_MS / 1000} s, ${this.#phase}`));
      timer = setTimeout(stuck, EVENT_MS);
    });
    try {
      await Promise.race([this.#play(event), hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #play(event: NightEvent): Promise<void> {
    this.#phase = 'closing the second tab';
    await this.#closeSecond();
    const countdown = this.model.countsDown(event);
    this.#phase = 'performing';
    this.#answer = this.model.question(event);
    await this.#perform(event, countdown);
    this.model.apply(event);
    this.#phase = 'settling';
    await this.#settle(this.model.expected());
    this.#phase = 'checking';
    await this.#check(this.model.expected());
  }

  // Events

  async #perform(event: NightEvent, countdown: boolean): Promise<void> {
    switch (event.kind) {
      case 'run-ok':
        return this.#run();
      case 'oom':
        return this.#oom(event, countdown);
      case 'ram-crash':
        return this.#run({ crash: 'ram' });
      case 'unknown-crash':
        return this.#run({ crash: 'unknown' });
      case 'other-error':
        return this.#run({ fail: 'value-error' });
      case 'caught-oom':
        return this.#run({ outputs: [shownOom()] });
      case 'stop':
        return this.#stop();
      case 'shell-oom':
        return this.#run(shellRun('accelerate-oom'), 'shell');
      case 'old-log':
        return this.#run(shellRun('old-log'), 'log');
      case 'healthy-stretch':
        return this.#healthyStretch();
      case 'asleep':
        return this.#clockJump(event.hours * 60 * 60_000);
      case 'disconnect':
        return this.#disconnect(event);
      case 'outage':
        return this.#outage();
      case 'reload':
        return this.#reload();
      case 'other-notebook':
        return this.#visitOther();
      case 'worker-stop':
        return this.#stopWorker();
      case 'update':
        return this.#update();
      case 'dialog':
        return this.#dialog(event.dialog);
      case 'switch':
        return this.#switch(event.on);
      case 'limit':
        return this.#limit(event.max);
      case 'second-tab':
        return this.#secondTab(event.late);
      case 'hidden':
        return this.#hidden(event.fails);
      case 'typing':
        // In the training cell's editor, as a person editing code does (not on the last button clicked).
        await this.page.locator('#cell-train .view-line').first().click();
        await this.page.keyboard.type('x = 1');
        return;
    }
  }

  /** The person's Run all, the cell `cell` doing `run`; resolves when the run has ended. */
  async #run(run?: Parameters<typeof planRun>[2], cell = 'train'): Promise<void> {
    if (run) await planRun(this.page, cell, run);
    const n = (await simState(this.page)).runs + 1;
    await runAll(this.page);
    await waitForRun(this.page, n, SETTLE_MS);
  }

  /**
   * An OOM; an event meant for its countdown (`during`) lands inside it when the guard starts one. Where the model
   * says the person who clicked Run all is asked, the question must come instead of a countdown, and the person
   * answers it (after the stopped worker, if one is meant to land there).
   */
  async #oom(event: Extract<NightEvent, { kind: 'oom' }>, countdown: boolean): Promise<void> {
    const during = countdown ? event.during : undefined;
    const answer = this.#answer;
    const countdownsBefore = (await this.#observe(this.page)).countdownsShown.length;
    if (during) await this.#setSettings(during === 'switch-off' ? CANCEL_WINDOW : SLOW);
    await this.#run({ fail: event.preset, place: event.place });
    if (answer) await this.#asked(countdownsBefore);
    if (!during) {
      if (answer) await this.#give(answer);
      return;
    }
    await this.#waitStatus('pending');
    const deadline = await this.#storage(async (name) => {
      const status = ((await chrome.storage.local.get(name))[name] as { status?: { restartAt?: number } } | undefined)
        ?.status;
      return status?.restartAt ?? 0;
    }, `nb:${this.#key}`);
    if (during === 'reload') await this.#reload();
    else if (during === 'switch-off') await this.#switchOff(deadline);
    else if (during === 'worker-stop') await this.#stopWorker();
    else if (during === 'update') await this.#update();
    else if (during === 'asleep') await this.#clockJump(SLEEP_IN_COUNTDOWN_MS, true);
    else if (during === 'disconnect') await this.#disconnectInCountdown(deadline);
    else await this.#visitOther();
    // Landed after the countdown ran out, the event would meet a restart under way (which README lets finish): the
    // night's own timing failed, not the guard. A question has no deadline: the person is there.
    const asked = this.#colab?.askAtKeyboard;
    if (!asked && Date.now() >= deadline) {
      throw new NightTiming(`${during} came after the countdown ran out: the machine is too slow`);
    }
    await this.#setSettings(FAST);
    if (answer) await this.#give(answer);
  }

  /** The person's answer to this event's question (null: the countdown's, or Restart now wherever one is asked). */
  #answer: Answer | null = null;

  /** settings.md: the person at the keyboard gets the question, not a countdown (none shown in between). */
  async #asked(countdownsBefore: number): Promise<void> {
    await expect
      .poll(() => this.page.evaluate(questionShown), { timeout: SETTLE_MS, message: 'the question is asked' })
      .toBe(true)
      .catch(() => undefined);
    const shown = await this.page.evaluate(questionShown);
    const seen = await this.#observe(this.page);
    const countdown = seen.countdownsShown[countdownsBefore];
    const question = seen.questionsShown.at(-1) ?? Number.POSITIVE_INFINITY;
    // The page shows the countdown until the worker has stored the question (one message's round trip): a flash,
    // counted and reported; a countdown shown as long as its 1 s would be the countdown itself.
    const flash = countdown === undefined ? 0 : question - countdown;
    if (countdown !== undefined) this.flashes.push(flash);
    this.checks++;
    if (!shown || flash >= FLASH_MS) {
      throw new InvariantBroken(
        'question instead of a countdown',
        `question shown: ${shown}, a countdown shown ${flash} ms before it; status ${await this.#status()}`,
      );
    }
  }

  /** How long a countdown showed before each question (the page's round trip to the worker), for the report. */
  readonly flashes: number[] = [];

  /** Restart now or Not now, clicked in the notice; away: no input for 2 minutes, until the countdown is back. */
  async #give(answer: Answer): Promise<void> {
    if (answer !== 'away') {
      await this.#click(this.page, answer === 'restart' ? 'Restart now' : 'Not now');
      return;
    }
    const away = () =>
      this.#storage(async (name) => {
        const rec = (await chrome.storage.local.get(name))[name] as
          | { history?: Array<{ type: string; params?: { choice?: string } }> }
          | undefined;
        return (rec?.history ?? []).filter((e) => e.type === 'asked' && e.params?.choice === 'away').length;
      }, `nb:${this.#key}`);
    const before = await away();
    this.#phase = 'the person away for 2 minutes';
    await expect.poll(away, { timeout: AWAY_MS + SETTLE_MS, intervals: [1000] }).toBeGreaterThan(before);
  }

  /** The person clicks the question's button `name` (in the guard's notice). */
  async #click(page: Page, name: 'Restart now' | 'Not now'): Promise<void> {
    await page.locator('colab-oom-guard-notice').getByRole('button', { name }).click();
  }

  /**
   * A question the night does not follow (a second tab's, a reconnect's, a reloaded page's): whoever is asked answers
   * Restart now, as the countdown would have acted. Returns whether it clicked.
   */
  async #answerAnyQuestion(): Promise<void> {
    if (!this.#colab?.askAtKeyboard) return;
    for (const page of [this.page, this.#second]) {
      if (!page || page.isClosed()) continue;
      if (!(await page.evaluate(questionShown).catch(() => false))) continue;
      await this.#click(page, 'Restart now').catch(() => undefined);
    }
  }

  /**
   * A second tab on the notebook follows the first one's runtime; training dies of OOM there, shown in the second
   * tab late when `late` (a background tab). The tab stays open until the next event: its guard must not add a
   * restart.
   */
  async #secondTab(late: boolean): Promise<void> {
    const second = await this.tabs.newWindow();
    this.#second = second;
    const url = `${this.#notebook}?authuser=1`;
    await second.goto(url);
    await waitForRole(second, 'follower');
    if (this.model.expected().enabled) await this.#waitWatching(await this.#tabIdOf(url));
    if (late) await holdMirror(second);
    await this.#run({ fail: 'cuda-oom' });
    if (late) await releaseMirror(second);
  }

  /**
   * Run all, then another tab in front of the Colab tab (opened by the person in its window: the Colab tab hidden, as
   * `document.visibilityState` says), the run ending behind it; what the guard does about it happens there, and only
   * then does the person come back (the front tab closed).
   */
  async #hidden(fails: boolean): Promise<void> {
    const acts = this.model.acts({ kind: 'hidden', fails });
    const before = (await this.#observed()).restarts.length;
    await planRun(this.page, 'train', fails ? { pause: true, fail: 'cuda-oom', place: 'frame' } : { pause: true });
    const n = (await simState(this.page)).runs + 1;
    await runAll(this.page);
    // The training cell waits at its pause (or passes it, resumed early) until the tab is hidden.
    const front = await this.probe.evaluate(async (tabId) => {
      const { windowId } = await chrome.tabs.get(tabId);
      return (await chrome.tabs.create({ windowId, active: true, url: 'about:blank' })).id!;
    }, this.#tabId);
    try {
      const visibility = () => this.page.evaluate(() => document.visibilityState);
      await expect.poll(visibility, { timeout: SETTLE_MS, message: 'the Colab tab hidden' }).toBe('hidden');
      await resume(this.page);
      // Polled, not per animation frame: a hidden tab draws none.
      await waitForRun(this.page, n, SETTLE_MS, 100);
      if (acts) {
        // Hidden tabs' timers are throttled (once a minute after 10 s hidden): the restart may take that long.
        const restarted = async () => (await this.#observed()).restarts.length;
        await expect
          .poll(restarted, { timeout: 2 * 60_000 + SETTLE_MS, message: 'the restart in the hidden tab' })
          .toBeGreaterThan(before);
        this.checks++;
        if ((await visibility()) !== 'hidden') {
          throw new InvariantBroken('hidden tab', 'the Colab tab was shown again before the restart');
        }
      }
    } finally {
      await this.probe.evaluate((id) => chrome.tabs.remove(id), front);
    }
    await expect.poll(() => this.page.evaluate(() => document.visibilityState)).toBe('visible');
  }

  async #closeSecond(): Promise<void> {
    if (!this.#second) return;
    await this.#harvest(this.#second);
    await this.#second.close();
    this.#second = null;
  }

  async #stop(): Promise<void> {
    await planRun(this.page, 'train', { hang: true });
    const n = (await simState(this.page)).runs + 1;
    await runAll(this.page);
    await this.page.waitForFunction(() =>
      (window as unknown as { __colabSim: { state(): { cells: Array<{ id: string; state: string }> } } }).__colabSim
        .state()
        .cells.some((c) => c.id === 'train' && c.state === 'running'),
    );
    await stopCell(this.page, 'train');
    await waitForRun(this.page, n, SETTLE_MS);
  }

  /** Time passes past the healthy window. */
  async #healthyStretch(): Promise<void> {
    await this.#clockJump(HEALTHY_JUMP_MS);
  }

  /**
   * The guard's clock jumps `ms` ahead: it computes from stored times when an event arrives (no timer runs that long),
   * so every time stored about the notebook moves back. Nothing is under way (the last event settled), so the
   * simulator has no timer to jump.
   */
  async #clockJump(ms: number, countdown = false): Promise<void> {
    await this.#storage(
      async ({ name, jump, countdown }) => {
        const rec = (await chrome.storage.local.get(name))[name] as Record<string, unknown> | undefined;
        if (!rec) return;
        const back = (at: unknown) => (typeof at === 'number' ? at - jump : at);
        const activity = rec.activity as { at?: number } | undefined;
        // Asleep in a countdown: its deadline passed while the computer slept.
        const status = rec.status as { kind?: string; restartAt?: number } | undefined;
        const slept =
          countdown && status?.kind === 'pending' ? { status: { ...status, restartAt: back(status.restartAt) } } : {};
        await chrome.storage.local.set({
          [name]: {
            ...rec,
            ...slept,
            lastRestartAt: back(rec.lastRestartAt),
            lastFailureAt: back(rec.lastFailureAt),
            touchedAt: back(rec.touchedAt),
            ...(activity ? { activity: { ...activity, at: back(activity.at) } } : {}),
          },
        });
      },
      { name: `nb:${this.#key}`, jump: ms, countdown },
    );
  }

  /**
   * Colab ends the runtime with "Runtime disconnected". Where the model says the guard reconnects, the settle waits
   * for its Reconnect and Run all; otherwise the person, once the guard has had its say, closes the dialog and
   * connects again from the toolbar (never the dialog's Reconnect, so that every Reconnect seen is the guard's).
   */
  async #disconnect(event: Extract<NightEvent, { kind: 'disconnect' }>): Promise<void> {
    const acts = this.model.acts(event);
    await showDisconnect(this.page, event.reason);
    await waitForKernel(this.page, 'disconnected', SETTLE_MS);
    if (acts) return;
    const want = this.model.expected();
    if (event.reason !== 'idle' && want.enabled && !want.gaveUp) {
      // settings.md: "the notice in the page says why"; the guard has decided once it shows.
      await expect.poll(() => this.page.evaluate(noticeSays, 'does not reconnect'), { timeout: SETTLE_MS }).toBe(true);
    }
    await this.page
      .locator(
        [
          'mwc-dialog[open] [dialogaction=cancel]',
          'md-dialog[open] [value=cancel]',
          'paper-dialog[opened] [dialog-dismiss]',
        ].join(', '),
      )
      .click();
    await this.page.locator('colab-connect-button colab-toolbar-button.split-button').click();
    await waitForKernel(this.page, 'idle', SETTLE_MS);
  }

  async #reload(): Promise<void> {
    await this.#harvest(this.page);
    await this.page.reload();
    await this.#loaded();
    if (this.model.expected().enabled) await this.#waitWatching();
  }

  /** The tab opens a notebook never guarded, which fails of OOM there, and comes back. */
  async #visitOther(): Promise<void> {
    await this.#harvest(this.page);
    await this.page.goto(this.#other);
    await this.#loaded();
    await this.#run({ fail: 'cuda-oom' });
    await this.#harvest(this.page);
    await this.page.goto(this.#notebook);
    await this.#loaded();
    if (this.model.expected().enabled) await this.#waitWatching();
  }

  async #stopWorker(): Promise<void> {
    const { versions } = await new Promise<{ versions: Array<{ versionId: string; scriptURL: string }> }>((resolve) => {
      this.cdp.once('ServiceWorker.workerVersionUpdated', resolve);
      void this.cdp.send('ServiceWorker.enable');
    });
    const version = versions.find((v) => v.scriptURL.startsWith(`chrome-extension://${this.extensionId}/`));
    if (version) await this.cdp.send('ServiceWorker.stopWorker', { versionId: version.versionId });
    await this.cdp.send('ServiceWorker.disable');
  }

  /**
   * A new version of the extension, loaded in place as Chrome updates one (CDP Extensions.loadUnpacked of another
   * folder with the same manifest key: the same id, storage kept), the Colab tab left open: the new version must find
   * the open notebook and guard it. The extension's own pages close with the old version; the probe opens again.
   */
  async #update(): Promise<void> {
    const copy = DIST_COPY.get(this.context)!;
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as { version: string };
    const parts = manifest.version.split('.').slice(0, 3);
    while (parts.length < 3) parts.push('0');
    const dir = mkdtempSync(join(tmpdir(), 'oom-guard-night-update-'));
    cpSync(copy, dir, { recursive: true });
    writeFileSync(
      join(dir, 'manifest.json'),
      JSON.stringify({ ...manifest, version: [...parts, ++this.#updates].join('.') }),
    );
    UPDATES.get(this.context)!.push(dir);
    const started = this.context.waitForEvent('serviceworker', {
      predicate: (w) => w.url().startsWith(`chrome-extension://${this.extensionId}/`),
    });
    const id = await this.tabs.loadUnpacked(dir);
    if (id !== this.extensionId) throw new Error(`the update loaded as ${id}, not ${this.extensionId}`);
    await started;
    await this.cdp.detach().catch(() => undefined);
    if (!this.probe.isClosed()) await this.probe.close();
    ({ probe: this.probe, cdp: this.cdp } = await openProbe(this.tabs, this.extensionId));
    if (this.model.expected().enabled) await this.#waitWatching();
  }

  /**
   * Colab cannot connect. Where the guard reconnects, the person waits for its first attempt to fail (a countdown long
   * enough for the person to act in before the second), and then for its give-up or, Colab back, leaves the second
   * attempt to it; otherwise the person sees Colab back and connects from the toolbar.
   */
  async #outage(): Promise<void> {
    const event = { kind: 'outage' } as const;
    const attempts = this.model.countsDown(event);
    const givesUp = this.model.outageGivesUp();
    const failed = async () => (await simLog(this.page)).filter((e) => e.type === 'connect-failed').length;
    const before = await failed();
    if (attempts) await this.#setSettings(SLOW);
    await setOutage(this.page, true);
    await waitForKernel(this.page, 'disconnected', SETTLE_MS);
    if (attempts) {
      const waitMs = SLOW.backoffMaxSec * 1000 + SETTLE_MS;
      const answeredFailed = async () => {
        await this.#answerAnyQuestion();
        return failed();
      };
      await expect
        .poll(answeredFailed, { timeout: waitMs, message: "the guard's reconnect fails" })
        .toBeGreaterThan(before);
    }
    if (givesUp) await this.#waitStatus('gave-up');
    await setOutage(this.page, false);
    await this.#setSettings(FAST);
    if (attempts && !givesUp) return;
    await this.page.locator('colab-connect-button colab-toolbar-button.split-button').click();
    await waitForKernel(this.page, 'idle', SETTLE_MS);
  }

  /**
   * One of the person's dialogs; the person closes it (Close / No, thanks), or, for the disallowed-code warning whose
   * both buttons are a decision, presses Escape.
   */
  async #dialog(kind: PersonDialog): Promise<void> {
    if (kind === 'disallowed-code') return this.#warning();
    const before = (await simLog(this.page)).filter((e) => e.type === 'dialog-cancel').length;
    await showDialog(this.page, kind);
    const cancel = [
      'mwc-dialog[open] [dialogaction=cancel]',
      'md-dialog[open] [value=cancel]',
      'paper-dialog[opened] [dialog-dismiss]',
    ].join(', ');
    await this.page.locator(cancel).click();
    await expect
      .poll(async () => (await simLog(this.page)).filter((e) => e.type === 'dialog-cancel').length)
      .toBeGreaterThan(before);
  }

  /** Colab's disallowed-code warning: the guard leaves it (checked: nothing dangerous); the person presses Escape. */
  async #warning(): Promise<void> {
    const open = 'mwc-dialog[open], md-dialog[open], paper-dialog[opened]';
    await showDialog(this.page, 'disallowed-code');
    await this.page.locator(open).first().waitFor();
    await this.page.keyboard.press('Escape');
    await expect(this.page.locator(open)).toHaveCount(0);
  }

  /**
   * Colab ends the runtime for a reason that is the person's (no compute units) during the countdown: settings.md says
   * the countdown is cancelled; the person closes the dialog and connects again. Its deadline must pass unperformed.
   */
  async #disconnectInCountdown(deadline: number): Promise<void> {
    await this.#disconnect({ kind: 'disconnect', reason: 'zero-units' });
    this.#cancelledDeadline = Math.max(this.#cancelledDeadline, deadline);
  }

  /**
   * The person switches off during the countdown: the page drops its countdown, and the night remembers the
   * deadline, which `waitOutCancelled` lets pass before the night's last check.
   */
  async #switchOff(deadline: number): Promise<void> {
    await this.#switch(false);
    this.#cancelledDeadline = Math.max(this.#cancelledDeadline, deadline);
    await expect
      .poll(() => this.page.evaluate(countdownShown), { timeout: SETTLE_MS, message: 'the page drops its countdown' })
      .toBe(false);
  }

  /**
   * A countdown the person cancelled must never restart, even past its deadline: checked again once the clock has
   * passed the last cancelled deadline (a night shorter than the countdown would otherwise end before it).
   */
  async waitOutCancelled(): Promise<void> {
    const until = this.#cancelledDeadline + CLAIM_LATE_MS;
    if (Date.now() >= until) return;
    await expect
      .poll(() => Date.now() >= until, { timeout: CANCEL_WINDOW.backoffMaxSec * 1000 + SETTLE_MS })
      .toBe(true);
    await this.#check(this.model.expected());
  }

  /** The popup's switch, as the person uses it. */
  async #switch(on: boolean): Promise<void> {
    const popup = await this.#popup();
    const toggle = popup.getByRole('switch', { name: 'Auto-restart this notebook' });
    await expect(toggle).toBeVisible();
    if ((await toggle.isChecked()) !== on) await toggle.click();
    await expect(toggle).toBeChecked({ checked: on });
    // The switch shows the person's choice at once; the night goes on once the extension has stored it.
    await expect
      .poll(() =>
        this.#storage(
          async (name) => ((await chrome.storage.local.get(name))[name] as { enabled?: boolean } | undefined)?.enabled,
          `nb:${this.#key}`,
        ),
      )
      .toBe(on);
    await expect(toggle).toBeChecked({ checked: on });
    await popup.close();
  }

  async #limit(max: number): Promise<void> {
    const popup = await this.#popup();
    const field = popup.getByLabel('Max restarts');
    await field.fill(String(max));
    await field.press('Enter');
    await field.blur();
    await expect
      .poll(() =>
        this.#storage(
          async (name) =>
            ((await chrome.storage.local.get(name))[name] as { overrides?: { maxRestarts?: number } } | undefined)
              ?.overrides?.maxRestarts,
          `nb:${this.#key}`,
        ),
      )
      .toBe(max);
    await popup.close();
  }

  // Settling and invariants

  /** Waits until the extension has done what the model expects, or fails with what it did instead. */
  async #settle(want: Expected): Promise<void> {
    const step = async (what: string, wait: () => Promise<void>) => {
      try {
        await wait();
      } catch {
        const seen = await this.#observed();
        const state = await simState(this.page);
        throw new InvariantBroken(
          `not settled (${what})`,
          `${seen.restarts.length} restarts, ${seen.guardRunAlls.length} guard's Run alls and ` +
            `${seen.reconnects.length} reconnects seen, ${want.restarts}, ${want.crashRunAlls} and ` +
            `${want.reconnects} expected; kernel ${state.kernel}, ` +
            `cells ${state.cells.map((c) => c.state).join('/')}; status ${await this.#status()}; ` +
            `last events: ${await this.#lastEvents()}`,
        );
      }
    };
    await step('guard actions', () =>
      expect
        .poll(
          async () => {
            await this.#answerAnyQuestion();
            const seen = await this.#observed();
            return [seen.restarts.length, seen.guardRunAlls.length, seen.reconnects.length];
          },
          { timeout: SETTLE_MS },
        )
        .toEqual([want.restarts, want.crashRunAlls, want.reconnects]),
    );
    await step('kernel idle', () => waitForKernel(this.page, 'idle', SETTLE_MS));
    await step('cells done', () =>
      expect
        .poll(async () => (await simState(this.page)).cells.some((c) => c.state === 'pending' || c.state === 'running'))
        .toBe(false),
    );
    if (want.enabled) await step('status', () => this.#waitStatus(want.gaveUp ? 'gave-up' : 'watching'));
  }

  async #check(want: Expected): Promise<void> {
    const seen = await this.#observed();
    const broken: Array<[string, string]> = [];
    const check = (ok: boolean, signature: string, detail = '') => {
      this.checks++;
      if (!ok) broken.push([signature, detail]);
    };
    check(
      seen.restarts.length === want.restarts,
      'restarts',
      `${seen.restarts.length} seen, ${want.restarts} qualifying failures under the limit`,
    );
    check(
      seen.guardRunAlls.length === want.crashRunAlls,
      'crash Run alls',
      `${seen.guardRunAlls.length} seen, ${want.crashRunAlls} expected`,
    );
    check(
      seen.reconnects.length === want.reconnects,
      'reconnects',
      `${seen.reconnects.length} seen, ${want.reconnects} idle disconnects under the limit with the setting on`,
    );
    check(seen.dangerous.length === 0, 'dangerous', seen.dangerous.join(', '));
    check(seen.foreignCommands.length === 0, 'menu items not the guard’s', seen.foreignCommands.join(', '));
    check(seen.foreignConfirms.length === 0, 'dialogs confirmed not the restart’s', seen.foreignConfirms.join(', '));
    // A reconnect and its Run all are one action, announced by one countdown.
    const actions = [...seen.restarts, ...seen.guardRunAlls].map((a) => a.at).sort((a, b) => a - b);
    const notices = [...seen.countdownsShown, ...seen.questionsShown];
    const unannounced = actions.filter((at, i) => notices.filter((c) => c <= at).length < i + 1);
    check(unannounced.length === 0, 'countdown notice', `${unannounced.length} action(s) with none shown before`);

    const stored = await this.#storage(async () => chrome.storage.local.get(null), null);
    const notebooks = Object.keys(stored).filter((k) => k.startsWith('nb:'));
    const foreign = notebooks.filter((k) => k !== `nb:${this.#key}`);
    check(foreign.length === 0, 'records of notebooks never guarded', foreign.join(', '));
    const rec = stored[`nb:${this.#key}`] as
      | { history?: Array<{ type: string }>; loopCount?: number; status?: { kind: string } }
      | undefined;
    const history = rec?.history ?? [];
    check(history.length <= 200, 'history bounded', `${history.length} events (README: 200 at most)`);
    if (history.length < 200) {
      const gaveUp = history.filter((e) => e.type === 'gave-up').length;
      check(gaveUp === want.giveUps, 'give-ups recorded', `${gaveUp} in the history, ${want.giveUps} expected`);
      const left = history.filter(
        (e) => e.type === 'asked' && (e as { params?: { choice?: string } }).params?.choice === 'not-now',
      ).length;
      check(left === want.leftToYou, 'Not now left to you', `${left} in the history, ${want.leftToYou} expected`);
    }
    await this.alerts.check(want, () => this.#heldAlerts(), check);
    if (want.enabled) {
      check(rec?.status?.kind === (want.gaveUp ? 'gave-up' : 'watching'), 'stored status', `${rec?.status?.kind}`);
      await this.#checkPopup(want, check);
    } else {
      // Switching off cancels a countdown: none is left stored for a page to claim.
      check(rec?.status?.kind !== 'pending', 'stored status', 'a countdown pending with the guard off');
    }
    if (broken.length) {
      const detail = broken.map(([what, detail]) => `${what} ${detail}`).join('; ');
      throw new InvariantBroken(broken[0]![0], `${detail}; last events: ${await this.#lastEvents()}`);
    }
  }

  /** The record's last events: what the guard thought it was doing. */
  async #lastEvents(): Promise<string> {
    const history = await this.#storage(async (name) => {
      const rec = (await chrome.storage.local.get(name))[name] as { history?: unknown[] } | undefined;
      return (rec?.history ?? []).slice(-8);
    }, `nb:${this.#key}`);
    return history
      .map((e) => {
        const { type, params } = e as { type: string; params?: object };
        return params ? `${type} ${JSON.stringify(params)}` : type;
      })
      .join(' | ');
  }

  /** The popup's status words agree with the model. */
  async #checkPopup(want: Expected, check: (ok: boolean, signature: string, detail?: string) => void): Promise<void> {
    const popup = await this.#popup();
    // "Restarts in a row: 1 of 3 used".
    const used = popup.getByText(/^Restarts in a row: \d+ of \d+ used/);
    await used.waitFor();
    const text = (await popup.locator('body').innerText()).replace(/\s+/g, ' ');
    await popup.close();
    if (want.gaveUp) {
      // An outage's give-up counts attempts to connect: "Gave up: Colab could not connect to a runtime (2 attempts)".
      const gaveUp = /Gave up after \d+ restarts?|Gave up: Colab could not connect to a runtime \(\d+ attempts?\)/;
      check(gaveUp.test(text), 'popup words', `no "Gave up": ${text.slice(0, 200)}`);
      return;
    }
    const loopWords = `Restarts in a row: ${want.loop} of ${want.limit} used`;
    check(text.includes(loopWords), 'popup words', `expected "${loopWords}" in ${text.slice(0, 300)}`);
    check(text.includes('Watching'), 'popup words', `no "Watching": ${text.slice(0, 200)}`);
  }

  async #observed(): Promise<Observed> {
    const now = [await this.#observe(this.page)];
    if (this.#second) now.push(await this.#observe(this.#second));
    const all = emptyObserved();
    for (const o of [this.#past, ...now]) {
      all.restarts.push(...o.restarts);
      all.guardRunAlls.push(...o.guardRunAlls);
      all.reconnects.push(...o.reconnects);
      all.countdownsShown.push(...o.countdownsShown);
      all.questionsShown.push(...o.questionsShown);
      all.dangerous.push(...o.dangerous);
      all.foreignCommands.push(...o.foreignCommands);
      all.foreignConfirms.push(...o.foreignConfirms);
    }
    return all;
  }

  /** What the current page load saw. */
  async #observe(page: Page): Promise<Observed> {
    const log = await simLog(page);
    const { origin, countdowns, questions } = await page.evaluate(() => ({
      origin: performance.timeOrigin,
      countdowns: (window as unknown as { __nightCountdowns?: number[] }).__nightCountdowns ?? [],
      questions: (window as unknown as { __nightQuestions?: number[] }).__nightQuestions ?? [],
    }));
    const at = (e: LogEntry) => ({ at: origin + e.t });
    const items = log.filter((e) => e.type === 'menu-item');
    // The person's Run alls are the toolbar's; the guard's go through the Runtime menu.
    const runAlls = items.filter((e) => e.command === 'runall');
    return {
      restarts: log.filter((e) => e.type === 'restart').map(at),
      guardRunAlls: runAlls.filter((e) => e.via !== 'toolbar').map(at),
      reconnects: log.filter((e) => e.type === 'dangerous' && e.what === 'reconnect').map(at),
      countdownsShown: countdowns,
      questionsShown: questions,
      dangerous: log.flatMap((e) => (e.type === 'dangerous' && e.what !== 'reconnect' ? [e.what] : [])),
      foreignCommands: items.flatMap((e) =>
        e.command === 'runall' || e.command === 'restart-and-run-all' ? [] : [`${e.command}@${e.via}`],
      ),
      foreignConfirms: log.flatMap((e) =>
        // The idle "Runtime disconnected" dialog's Reconnect is counted (and checked) as a reconnect.
        e.type === 'dialog-confirm' && e.kind !== 'restart-confirm' && e.kind !== 'disconnected' ? [e.kind] : [],
      ),
    };
  }

  /** Keeps what a page load saw before the tab leaves it. */
  async #harvest(page: Page): Promise<void> {
    const o = await this.#observe(page);
    this.#past.restarts.push(...o.restarts);
    this.#past.guardRunAlls.push(...o.guardRunAlls);
    this.#past.reconnects.push(...o.reconnects);
    this.#past.countdownsShown.push(...o.countdownsShown);
    this.#past.questionsShown.push(...o.questionsShown);
    this.#past.dangerous.push(...o.dangerous);
    this.#past.foreignCommands.push(...o.foreignCommands);
    this.#past.foreignConfirms.push(...o.foreignConfirms);
  }

  // Plumbing

  /** How many alerts of each kind the worker holds back now, one alert per kind per notebook in 5 minutes. */
  #heldAlerts(): Promise<Record<string, number>> {
    return this.#storage(async () => {
      const log = (await chrome.storage.local.get('alertLog')).alertLog as
        | { recent?: Array<{ event: string; held: number }> }
        | undefined;
      const held: Record<string, number> = {};
      for (const { event, held: n } of log?.recent ?? []) held[event] = (held[event] ?? 0) + n;
      return held;
    }, null);
  }

  #storage<A, R>(fn: (arg: A) => Promise<R>, arg: A): Promise<R> {
    return this.probe.evaluate(fn as (arg: unknown) => Promise<R>, arg as unknown);
  }

  async #setSettings(values: Record<string, unknown>): Promise<void> {
    this.#settings = { ...this.#settings, ...values };
    await this.#storage((settings) => chrome.storage.local.set({ settings: { v: 1, ...settings } }), this.#settings);
  }

  async #waitStatus(kind: string): Promise<void> {
    await expect.poll(() => this.#status(), { timeout: SETTLE_MS, message: `status ${kind}` }).toBe(kind);
  }

  /** The notebook's stored status (its kind, and its detail when it has one). */
  #status(): Promise<string | undefined> {
    return this.#storage(async (name) => {
      const status = ((await chrome.storage.local.get(name))[name] as { status?: { kind: string } } | undefined)
        ?.status;
      return status?.kind;
    }, `nb:${this.#key}`);
  }

  /** The night's tab has loaded its notebook and runs its runtime. */
  async #loaded(): Promise<void> {
    await waitForRole(this.page, 'leader');
    await waitForKernel(this.page, 'idle');
  }

  async #tabIdOf(url: string): Promise<number> {
    const id = await this.probe.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]?.id, url);
    if (id === undefined) throw new Error(`no tab for ${url}`);
    return id;
  }

  /** The page's guard watches the notebook (it answers the popup's page-state question so). */
  async #waitWatching(tabId = this.#tabId): Promise<void> {
    const ask = (tabId: number) => chrome.tabs.sendMessage(tabId, { type: 'page-state' }).catch(() => null);
    await expect
      .poll(() => this.probe.evaluate(ask, tabId), { timeout: SETTLE_MS })
      .toEqual({ key: this.#key, watching: true });
  }

  async #popup(): Promise<Page> {
    const popup = await this.tabs.newWindow();
    await popup.goto(`chrome-extension://${this.extensionId}/src/popup/index.html?tab=${this.#tabId}`);
    // Until the notebook's record has loaded, the popup says "Loading" and its switch would read as off.
    await popup.locator('main.notebook[data-state]').waitFor();
    return popup;
  }
}

/** The folder each browser's extension was loaded from, and the folders of its updates (removed on close). */
const DIST_COPY = new WeakMap<BrowserContext, string>();
const UPDATES = new WeakMap<BrowserContext, string[]>();

/**
 * Chromium with a copy of dist/: a long night must not see the extension's files change under it when the build runs
 * again meanwhile (the suite builds, and names its chunks by content). CDP may load an update in place.
 */
async function launchWithCopy(): Promise<RealTabs> {
  const copy = mkdtempSync(join(tmpdir(), 'oom-guard-night-'));
  cpSync(DIST, copy, { recursive: true });
  // The alert receiver's host granted at install, as e2e/harness/alert-extension.ts does (a prompt cannot be answered).
  const manifestPath = join(copy, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { host_permissions: string[] };
  manifest.host_permissions = [...manifest.host_permissions, 'http://127.0.0.1/*'];
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  const tabs = await launchRealTabs(copy);
  const { context, close } = tabs;
  DIST_COPY.set(context, copy);
  UPDATES.set(context, []);
  return {
    ...tabs,
    close: async () => {
      const problems = await close();
      for (const dir of [copy, ...(UPDATES.get(context) ?? [])]) problems.push(remove(dir) ?? '');
      return problems.filter(Boolean);
    },
  };
}

/** An extension page (the options page) to read storage and tabs through, and its CDP session. */
async function openProbe(tabs: RealTabs, extensionId: string): Promise<{ probe: Page; cdp: CDPSession }> {
  const probe = await tabs.newWindow();
  await probe.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  return { probe, cdp: await tabs.context.newCDPSession(probe) };
}

function emptyObserved(): Observed {
  return {
    restarts: [],
    guardRunAlls: [],
    reconnects: [],
    countdownsShown: [],
    questionsShown: [],
    dangerous: [],
    foreignCommands: [],
    foreignConfirms: [],
  };
}

/** Setup, training, a shell-launched training, a look at a log; each cell ends well unless the night plans it. */
function notebookScenario(colab: NightColab): Scenario {
  return {
    title: 'night.ipynb',
    // One runtime for every tab of the notebook, as Colab has: a second tab follows the first.
    sharedKernel: true,
    ui: {
      dialog: colab.dialog,
      renderDelayMs: colab.renderDelayMs,
      interruptErrorDelayMs: colab.interruptErrorDelayMs,
    },
    cells: [
      { id: 'setup', source: 'import torch' },
      { id: 'train', source: 'train()', outputs: [{ type: 'stream', text: 'epoch 1 done\n' }] },
      {
        id: 'shell',
        source: '!accelerate launch train.py',
        outputs: [{ type: 'stream', text: 'Training complete.\n' }],
      },
      { id: 'log', source: '!tail -n 40 train.log', outputs: [{ type: 'stream', text: 'epoch 3/3 done\n' }] },
    ],
  };
}
