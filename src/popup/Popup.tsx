import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { t, tn } from '../lib/i18n';
import { BLIND_AFTER_MS } from '../limits';
import type { CheckUiReply, Command } from '../messaging/protocol';
import { NOTICE_LANGUAGES, noticesKnown } from '../site/languages';
import { isColabUrl } from '../site/origins';
import { notebookKeyFromUrl } from '../state/notebook-key';
import { notebookTitleFromDocumentTitle } from '../state/notebook-title';
import { validCaptures } from '../state/page-capture';
import { NIGHT_WATCH_KEY, parseNightWatch } from '../state/run-going';
import { type HistoryEntry, SETTING_BOUNDS } from '../state/schema';
import { isScratchKey, isScratchUrl } from '../state/scratch';
import { CopyButton, gatherDiagnostics } from '../ui/CopyButton';
import { parseWholeNumber, useDraft } from '../ui/fields';
import { useNotebook, useNow, useSessionKey, useSettings } from '../ui/hooks';
import { nightLogText } from '../ui/night-log';
import { nightLine } from '../ui/night-text';
import { StorageErrors } from '../ui/StorageErrors';
import { sendCommand } from '../ui/send';
import { statusLines } from '../ui/status-lines';
import { describeStatus } from '../ui/status-view';
import { stepWords } from '../ui/steps';
import { Timeline } from '../ui/Timeline';
import { eventText, formatTime, languageList, languageName, statusText } from '../ui/text';
import { whyWords } from '../ui/why-text';
import { NotificationOffer } from './NotificationOffer';
import { askTab, useColabLanguage, usePageWatched, useTabNotebook, useTargetTab } from './tab';

/** How many events the popup lists, above its controls (the full history is in the export). */
export const EVENTS_SHOWN = 5;

export function Popup({ search }: { search: string }) {
  const target = useTargetTab(search);
  return (
    <div class="popup">
      <header class="bar">
        <img src={browser.runtime.getURL('icons/icon-32.png')} width={20} height={20} alt="" />
        <span class="brand">{t('extName')}</span>
        <OptionsLink />
      </header>
      <StorageErrors />
      {target.kind === 'loading' && <p class="muted pad">{t('loading')}</p>}
      {target.kind === 'error' && <p class="error pad">{t('popupNoTab', target.message)}</p>}
      {target.kind === 'tab' && <TabPanel tabId={target.tabId} url={target.url} tabTitle={target.title} />}
    </div>
  );
}

function OptionsLink() {
  return (
    <a
      class="options-link"
      href={browser.runtime.getURL('src/options/index.html')}
      onClick={(event) => {
        event.preventDefault();
        void browser.runtime.openOptionsPage();
      }}
    >
      {t('popupOptions')}
    </a>
  );
}

function TabPanel({ tabId, url, tabTitle }: { tabId: number; url: string | undefined; tabTitle: string }) {
  const scratch = url !== undefined && isScratchUrl(url);
  // A scratch notebook has no key in its address: its page's key, tied to the tab, is the worker's.
  const pageKey = useTabNotebook(tabId, scratch);
  if (scratch) {
    if (pageKey === undefined) return <p class="muted pad">{t('loading')}</p>;
    if (pageKey === null || !isScratchKey(pageKey)) return <ScratchNotSeen />;
    return <NotebookPanel key={pageKey} notebookKey={pageKey} tabId={tabId} tabTitle={tabTitle} url={url} scratch />;
  }
  const key = url ? notebookKeyFromUrl(url) : null;
  if (key === null) return <NotColab onColab={isColabUrl(url)} />;
  return <NotebookPanel key={key} notebookKey={key} tabId={tabId} tabTitle={tabTitle} url={url} scratch={false} />;
}

/**
 * What the guard does not read in Colab's language, when Colab is in one whose notices are not known (languages.ts):
 * said before the user relies on it, and again with "Check Colab UI".
 */
function LanguageNote({ language }: { language: string | null }) {
  if (language === null || noticesKnown(language)) return null;
  const here = languageName(language);
  return <p class="language-note">{t('popupLanguageNote', here, languageList(NOTICE_LANGUAGES))}</p>;
}

function ScratchNotSeen() {
  return (
    <main class="pad not-colab">
      <p>{t('popupScratchNotSeen')}</p>
    </main>
  );
}

function NotColab({ onColab }: { onColab: boolean }) {
  return (
    <main class="pad not-colab">
      <p>{onColab ? t('popupColabNoNotebook') : t('popupNotColab')}</p>
      <p class="muted">{t('popupHowToStart')}</p>
    </main>
  );
}

function NotebookPanel(props: {
  notebookKey: string;
  tabId: number;
  tabTitle: string;
  url: string | undefined;
  scratch: boolean;
}) {
  const { notebookKey, tabId, tabTitle, scratch } = props;
  const language = useColabLanguage(tabId, props.url);
  const notebook = useNotebook(notebookKey);
  const settings = useSettings();
  const pending = notebook.value?.enabled === true && notebook.value.status.kind === 'pending';
  const now = useNow(pending ? 250 : 1000);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [wantEnabled, setWantEnabled] = useState<boolean | null>(null);
  const [switchedOn, setSwitchedOn] = useState(false);

  const record = notebook.value;
  const watched = usePageWatched(tabId, notebookKey, record?.enabled === true);
  useEffect(() => {
    if (record && wantEnabled === record.enabled) setWantEnabled(null);
  }, [record, wantEnabled]);
  // A guard that saw nothing run for its whole stretch ends when it is looked at, not only at the next event.
  const enabled = record?.enabled === true;
  useEffect(() => {
    if (enabled) void sendCommand(notebookKey, { type: 'settle' });
  }, [notebookKey, enabled]);

  if (!record || !settings.value) return <p class="muted pad">{t('loading')}</p>;

  const view = describeStatus(record, settings.value, now);
  const text = statusText(view, record);
  const lines = statusLines(record, view, settings.value, now);

  async function run(command: Command): Promise<boolean> {
    setBusy(true);
    setError(null);
    const reply = await sendCommand(notebookKey, command);
    await notebook.reload();
    setBusy(false);
    if (!reply.ok) setError(whyWords(reply.why));
    return reply.ok;
  }

  async function toggle(enabled: boolean) {
    setWantEnabled(enabled);
    const done = await run({ type: 'set-enabled', enabled });
    if (!done) setWantEnabled(null);
    setSwitchedOn(done && enabled);
  }

  const checked = wantEnabled ?? record.enabled;
  // A notebook never guarded has no record, so no stored name: the tab's title gives it.
  const title =
    record.title || notebookTitleFromDocumentTitle(tabTitle) || (scratch ? t('popupScratchTitle') : notebookKey);
  const stopped = view.state === 'gave-up' || view.state === 'ui-problem';
  return (
    <main class="pad notebook" data-state={view.state}>
      <h1 class="nb-title" title={notebookKey}>
        {title}
      </h1>
      {record.enabled && <p class="night-line">{nightLine(record.history, now, { t, tn })}</p>}
      {scratch && <p class="scratch-note">{t('popupScratch')}</p>}
      <LanguageNote language={language} />

      <label class="switch-row">
        <input
          type="checkbox"
          role="switch"
          class="switch"
          checked={checked}
          aria-checked={checked}
          onChange={(event) => void toggle(event.currentTarget.checked)}
        />
        <span>{t('popupSwitch')}</span>
      </label>
      {switchedOn && <NotificationOffer notificationsOn={settings.value.notifications} />}

      <section class={`status status-${view.state}`} aria-labelledby="status-headline">
        <p id="status-headline" class="headline">
          <span class="dot" aria-hidden="true" />
          {text.headline}
        </p>
        {lines.happened && <p class="happened">{lines.happened}</p>}
        {lines.next && <p class="next">{lines.next}</p>}
        {text.detail && <p class="detail">{text.detail}</p>}
        {record.enabled && watched === false && <p class="detail not-watched">{t('popupNotWatched')}</p>}
        {record.enabled && record.blindSince !== undefined && (
          <p class="detail blind">{t('popupBlind', BLIND_AFTER_MS / 60_000)}</p>
        )}
        {record.enabled && <AwakeLine notebookKey={notebookKey} keepAwake={settings.value.keepAwake} />}
        {text.details && <Details text={text.details} />}
        <p class="sr-only" role="status">
          {text.announcement}
        </p>
        {(view.state === 'pending' || view.state === 'asking') && (
          <button type="button" class="primary" disabled={busy} onClick={() => void run({ type: 'cancel' })}>
            {t('popupCancel')}
          </button>
        )}
        {stopped && (
          <button type="button" class="primary" disabled={busy} onClick={() => void run({ type: 'rearm' })}>
            {t('popupRearm')}
          </button>
        )}
      </section>

      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}

      <section aria-labelledby="events-heading">
        <h2 id="events-heading">{t('popupEvents')}</h2>
        <EventList history={record.history} now={now} />
      </section>

      <Timeline id="timeline" history={record.history} now={now} />

      <div class="share">
        <CopyButton
          id="copy-log"
          label={t('popupCopyLog')}
          make={async () => nightLogText(record, title, Date.now(), text.headline)}
        />
        <CopyButton
          id="copy-diagnostics"
          label={t('copyDiagnostics')}
          make={async () => gatherDiagnostics([record], (await askCheck(tabId)) ?? 'no-answer')}
        />
      </div>

      <section class="controls" aria-labelledby="controls-heading">
        <h2 id="controls-heading">{t('popupControls')}</h2>
        <div class="counts">
          <p>
            {tn('popupUsed', view.max, view.used, view.max)}
            {view.markersToday > 0 && (
              <span class="muted"> · {t('popupMarkers', view.markersToday, view.markerLimit)}</span>
            )}
          </p>
          <button type="button" disabled={busy} onClick={() => void run({ type: 'reset-counter' })}>
            {t('popupResetCounter')}
          </button>
        </div>
        <MaxRestartsField
          override={record.overrides.maxRestarts}
          defaultMax={settings.value.maxRestarts}
          save={(value) => run({ type: 'set-max-restarts', value })}
        />
        <CheckUi tabId={tabId} />
      </section>
    </main>
  );
}

/** While this notebook's run goes on: the computer is kept awake, or this browser cannot keep it so (Firefox). */
function AwakeLine({ notebookKey, keepAwake }: { notebookKey: string; keepAwake: boolean }) {
  const watch = useSessionKey(NIGHT_WATCH_KEY, parseNightWatch);
  if (!keepAwake || !watch?.going.includes(notebookKey)) return null;
  return <p class="awake">{t(watch.canKeepAwake ? 'popupKeepingAwake' : 'popupCannotKeepAwake')}</p>;
}

/** Empty means "use the default from the options". */
export function parseMaxRestarts(text: string): { ok: true; value: number | null } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: null };
  const value = parseWholeNumber(text, ...SETTING_BOUNDS.maxRestarts);
  return value === null ? { ok: false } : { ok: true, value };
}

function MaxRestartsField(props: {
  override: number | undefined;
  defaultMax: number;
  save: (value: number | null) => Promise<boolean>;
}) {
  const stored = props.override === undefined ? '' : String(props.override);
  const [draft, setDraft] = useDraft(stored);
  const [invalid, setInvalid] = useState(false);

  async function commit() {
    const parsed = parseMaxRestarts(draft);
    if (!parsed.ok) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    // Shown as stored ("5", not "05" or "5 "), so the field follows changes made elsewhere again.
    const canonical = parsed.value === null ? '' : String(parsed.value);
    if (parsed.value === (props.override ?? null) || (await props.save(parsed.value))) setDraft(canonical);
  }

  return (
    <div class="field">
      <label for="max-restarts">{t('popupMaxRestarts')}</label>
      <input
        id="max-restarts"
        type="text"
        inputMode="numeric"
        size={6}
        value={draft}
        placeholder={t('popupMaxPlaceholder', props.defaultMax)}
        aria-invalid={invalid}
        aria-describedby="max-restarts-hint"
        onInput={(event) => {
          setDraft(event.currentTarget.value);
          if (invalid) setInvalid(!parseMaxRestarts(event.currentTarget.value).ok);
        }}
        onChange={() => void commit()}
      />
      <p id="max-restarts-hint" class={invalid ? 'error' : 'hint'} role={invalid ? 'alert' : undefined}>
        {invalid
          ? t('popupMaxInvalid', SETTING_BOUNDS.maxRestarts[1], props.defaultMax)
          : t('popupMaxHint', props.defaultMax)}
      </p>
    </div>
  );
}

type CheckState =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'done'; ok: boolean; text: string; language?: string };

function CheckUi({ tabId }: { tabId: number }) {
  const [state, setState] = useState<CheckState>({ kind: 'idle' });

  async function check() {
    setState({ kind: 'checking' });
    const reply = await askCheck(tabId);
    if (!reply) {
      setState({ kind: 'done', ok: false, text: t('checkReload') });
      return;
    }
    const language = typeof reply.language === 'string' ? reply.language : undefined;
    if (reply.ready) {
      // What the check found, in Colab's ids, is for Copy diagnostics; a person reads that it works.
      setState({ kind: 'done', ok: true, text: t('checkReady'), language });
    } else {
      setState({ kind: 'done', ok: false, text: t('checkProblem', stepWords(reply.failed)), language });
    }
  }

  const done = state.kind === 'done' ? state : null;
  return (
    <div class="check">
      <button type="button" disabled={state.kind === 'checking'} onClick={() => void check()}>
        {t('popupCheckUi')}
      </button>
      <div role="status" class={done ? (done.ok ? 'success' : 'error') : 'muted'}>
        <p class="check-result">{state.kind === 'checking' ? t('checkRunning') : (done?.text ?? '')}</p>
        {done?.language && <LanguageNote language={done.language} />}
      </div>
    </div>
  );
}

/** The tab's UI check (the dry run), or undefined when its page gave no answer it can read. */
async function askCheck(tabId: number): Promise<CheckUiReply | undefined> {
  let reply: CheckUiReply | undefined;
  try {
    reply = await askTab(tabId, { type: 'check-ui' });
  } catch {
    return undefined;
  }
  if (!reply || typeof reply !== 'object' || typeof reply.ready !== 'boolean' || !(reply.ready || reply.failed)) {
    return undefined;
  }
  return { ...reply, captures: validCaptures(reply.captures) };
}

function EventList({ history, now }: { history: readonly HistoryEntry[]; now: number }) {
  if (history.length === 0) return <p class="muted">{t('popupNoEvents')}</p>;
  const first = Math.max(0, history.length - EVENTS_SHOWN);
  const newest = history
    .slice(first)
    .map((entry, i) => ({ entry, index: first + i }))
    .reverse();
  return (
    <ol class="events">
      {newest.map(({ entry, index }) => (
        <EventItem key={`${entry.at}-${index}`} entry={entry} earlier={history.slice(0, index)} now={now} />
      ))}
    </ol>
  );
}

/**
 * One event; its output lines show two lines each until the title is pressed (click, Enter or Space), which shows
 * them whole: a morning reader must not need a mouse hovering a tooltip to read the line that caused a restart.
 */
function EventItem({ entry, earlier, now }: { entry: HistoryEntry; earlier: readonly HistoryEntry[]; now: number }) {
  const [open, setOpen] = useState(false);
  const text = eventText(entry, earlier);
  const linesId = `event-lines-${earlier.length}`;
  const clamp = open ? '' : ' clamp';
  const more = Boolean(text.detail || text.verdict);
  return (
    <li data-type={entry.type}>
      <time dateTime={new Date(entry.at).toISOString()}>{formatTime(entry.at, now)}</time>
      <div>
        {more ? (
          <button
            type="button"
            class="event-title event-toggle"
            aria-expanded={open}
            aria-controls={linesId}
            onClick={() => setOpen(!open)}
          >
            <span class="chevron" aria-hidden="true" />
            {text.title}
          </button>
        ) : (
          <p class="event-title">{text.title}</p>
        )}
        {more && (
          <div id={linesId}>
            {text.detail && <p class={`muted${clamp}`}>{text.detail}</p>}
            {text.verdict && <p class={`verdict${clamp}`}>{text.verdict}</p>}
          </div>
        )}
      </div>
    </li>
  );
}

/** Ids and what a step saw, folded away: the headline says it in words, these are for the curious and bug reports. */
function Details({ text }: { text: string }) {
  return (
    <details class="details">
      <summary>{t('detailsSummary')}</summary>
      <p>{text}</p>
    </details>
  );
}
