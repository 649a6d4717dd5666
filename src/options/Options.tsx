import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { CATEGORIES, type Category } from '../detector';
import { validatePattern } from '../detector/patterns';
import { type MessageKey, t } from '../lib/i18n';
import { IMPORT_MAX_CHARS, MAX_PATTERN_PROGRAM } from '../limits';
import type { Command } from '../messaging/protocol';
import { defaultSettings, type NotebookRecord, SETTING_BOUNDS, type Settings } from '../state/schema';
import { isScratchKey } from '../state/scratch';
import { loadAllNotebooks, loadSettings } from '../state/store';
import { exportData } from '../state/transfer';
import { parseWholeNumber, useDraft } from '../ui/fields';
import { useAllNotebooks, useNow, useProblems, useSettings } from '../ui/hooks';
import { LINKS, WELCOME_PAGE } from '../ui/links';
import { nightLine } from '../ui/night-text';
import { StorageErrors } from '../ui/StorageErrors';
import { errorText, sendCommand, sendUi } from '../ui/send';
import { describeStatus } from '../ui/status-view';
import { formatTime, statusText } from '../ui/text';
import { categoryHint, categoryLabel } from './labels';
import { checkPatterns, type LineProblem } from './patterns';
import { testText } from './tester';

type Patch = Partial<Omit<Settings, 'categories'>> & { categories?: Partial<Settings['categories']> };
/** Saves through the service worker; resolves to its refusal, or null once saved. */
type Save = (patch: Patch) => Promise<string | null>;

export function Options() {
  const settings = useSettings();
  const current = settings.value;

  const save: Save = async (patch) => {
    const reply = await sendUi({ type: 'ui-settings', patch });
    await settings.reload();
    return reply.ok ? null : reply.message;
  };

  const [failureDraft, setFailureDraft] = useState<string | null>(null);
  const [markerDraft, setMarkerDraft] = useState<string | null>(null);

  if (!current) return <p class="muted">{t('loading')}</p>;
  const failureText = failureDraft ?? current.failurePatterns.join('\n');
  const markerText = markerDraft ?? current.markerPatterns.join('\n');

  return (
    <main class="options">
      <header>
        <h1>{t('optionsTitle')}</h1>
        <p class="muted">{t('optionsIntro')}</p>
        <About />
      </header>

      <StorageErrors />

      <Section id="notebooks" title="optionsNotebooks" intro="optionsNotebooksIntro">
        <NotebookList settings={current} />
      </Section>

      <Section id="limits" title="optionsLimits" intro="optionsLimitsIntro">
        <NumberSetting
          name="maxRestarts"
          label="settingMaxRestarts"
          hint="settingMaxRestartsHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="backoffBaseSec"
          label="settingBackoffBase"
          hint="settingBackoffBaseHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="backoffMaxSec"
          label="settingBackoffMax"
          hint="settingBackoffMaxHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="healthyMinutes"
          label="settingHealthy"
          hint="settingHealthyHint"
          settings={current}
          save={save}
        />
        <NumberSetting
          name="markerDailyLimit"
          label="settingMarkerLimit"
          hint="settingMarkerLimitHint"
          settings={current}
          save={save}
        />
        <Toggle
          id="guard-never-ends"
          label={t('settingGuardNeverEnds')}
          hint={t('settingGuardNeverEndsHint')}
          checked={current.guardNeverEnds}
          onToggle={(checked) => save({ guardNeverEnds: checked })}
        />
      </Section>

      <Section id="detection" title="optionsDetection" intro="optionsDetectionIntro">
        <fieldset class="checks">
          <legend>{t('optionsCategories')}</legend>
          {CATEGORIES.map((category) => (
            <Toggle
              key={category}
              id={`category-${category}`}
              label={categoryLabel(category)}
              hint={categoryHint(category)}
              checked={current.categories[category]}
              onToggle={(checked) =>
                save({ categories: { [category]: checked } as Partial<Record<Category, boolean>> })
              }
            />
          ))}
        </fieldset>
        <fieldset class="checks">
          <legend>{t('optionsColabEvents')}</legend>
          <Toggle
            id="reconnect"
            label={t('settingReconnect')}
            hint={t('settingReconnectHint')}
            checked={current.reconnectOnDisconnect}
            onToggle={(checked) => save({ reconnectOnDisconnect: checked })}
          />
        </fieldset>
      </Section>

      <Section id="patterns" title="optionsPatterns" intro="optionsPatternsIntro">
        <p class="hint">{t('optionsPatternsSyntax', MAX_PATTERN_PROGRAM)}</p>
        <PatternsEditor
          id="failure-patterns"
          label="patternsFailure"
          hint="patternsFailureHint"
          saveLabel="patternsSaveFailure"
          saved={current.failurePatterns}
          draft={failureText}
          setDraft={setFailureDraft}
          save={(patterns) => save({ failurePatterns: patterns })}
        />
        <PatternsEditor
          id="marker-patterns"
          label="patternsMarker"
          hint="patternsMarkerHint"
          saveLabel="patternsSaveMarker"
          saved={current.markerPatterns}
          draft={markerText}
          setDraft={setMarkerDraft}
          save={(patterns) => save({ markerPatterns: patterns })}
        />
      </Section>

      <Section id="tester" title="optionsTester" intro="optionsTesterIntro">
        <Tester settings={current} failureText={failureText} markerText={markerText} />
      </Section>

      <Section id="notebook-code" title="optionsNotebookCode">
        <Toggle
          id="status-api"
          label={t('settingStatusApi')}
          hint={t('settingStatusApiHint')}
          checked={current.statusApi}
          onToggle={(checked) => save({ statusApi: checked })}
        />
      </Section>

      <Section id="notifications" title="optionsNotifications" intro="optionsNotificationsIntro">
        <Notifications on={current.notifications} save={save} />
      </Section>

      <Section id="data" title="optionsData" intro="optionsDataIntro">
        <DataTools
          afterChange={async () => {
            setFailureDraft(null);
            setMarkerDraft(null);
            await settings.reload();
          }}
        />
      </Section>

      <Problems />
    </main>
  );
}

/** The version and where to read more: the user guide, troubleshooting, what changed. */
function About() {
  return (
    <p class="about">
      <span>{t('optionsVersion', browser.runtime.getManifest().version)}</span>
      <a href={LINKS.guide} target="_blank" rel="noreferrer">
        {t('linkReadme')}
      </a>
      <a href={LINKS.troubleshooting} target="_blank" rel="noreferrer">
        {t('linkTroubleshooting')}
      </a>
      <a href={LINKS.changelog} target="_blank" rel="noreferrer">
        {t('linkChangelog')}
      </a>
      <a href={browser.runtime.getURL(WELCOME_PAGE)} target="_blank" rel="noreferrer">
        {t('linkWelcome')}
      </a>
    </p>
  );
}

/** The notebooks with a record (switched on, or given their own Max restarts), by name: switch one off, reset it. */
function NotebookList({ settings }: { settings: Settings }) {
  const notebooks = useAllNotebooks();
  const now = useNow(1000);
  if (!notebooks.value) return <p class="muted">{t('loading')}</p>;
  if (notebooks.value.length === 0) return <p class="muted">{t('optionsNotebooksEmpty')}</p>;
  const named = notebooks.value.map((record) => ({ record, name: record.title || record.key }));
  named.sort((a, b) => a.name.localeCompare(b.name));
  return (
    <ul class="notebook-list">
      {named.map(({ record, name }) => (
        <NotebookRow key={record.key} record={record} name={name} settings={settings} now={now} />
      ))}
    </ul>
  );
}

function NotebookRow(props: { record: NotebookRecord; name: string; settings: Settings; now: number }) {
  const { record, name } = props;
  const [error, setError] = useState<string | null>(null);
  const view = describeStatus(record, props.settings, props.now);

  async function run(command: Command): Promise<boolean> {
    setError(null);
    const reply = await sendCommand(record.key, command);
    if (!reply.ok) setError(reply.message);
    return reply.ok;
  }

  return (
    <li class="notebook-row" data-state={view.state}>
      <div class="notebook-row-text">
        <p class="notebook-name" title={record.key}>
          {name}
        </p>
        <p class="hint">
          {statusText(view, record).headline} · {t('notebookUsed', view.used, view.max)}
        </p>
        <p class="hint">{nightLine(record.history, props.now, t)}</p>
        {isScratchKey(record.key) && <p class="hint">{t('notebookScratch')}</p>}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </div>
      <input
        type="checkbox"
        role="switch"
        class="switch"
        checked={record.enabled}
        aria-checked={record.enabled}
        aria-label={t('notebookSwitch', name)}
        onChange={async (event) => {
          const input = event.currentTarget;
          const wanted = input.checked;
          // Refused: storage did not change, so nothing re-renders the switch; put it back.
          if (!(await run({ type: 'set-enabled', enabled: wanted }))) input.checked = !wanted;
        }}
      />
      <button
        type="button"
        aria-label={t('notebookResetLabel', name)}
        onClick={() => void run({ type: 'reset-counter' })}
      >
        {t('notebookReset')}
      </button>
    </li>
  );
}

function Section(props: { id: string; title: MessageKey; intro?: MessageKey; children: preact.ComponentChildren }) {
  return (
    <section class="card" aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>{t(props.title)}</h2>
      {props.intro && <p class="muted">{t(props.intro)}</p>}
      {props.children}
    </section>
  );
}

type NumberName = keyof typeof SETTING_BOUNDS;

function NumberSetting(props: {
  name: NumberName;
  label: MessageKey;
  hint: MessageKey;
  settings: Settings;
  save: Save;
}) {
  const stored = String(props.settings[props.name]);
  const [draft, setDraft] = useDraft(stored);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function commit() {
    setSaved(false);
    const [min, max] = SETTING_BOUNDS[props.name];
    const value = parseWholeNumber(draft, min, max);
    if (value === null) {
      setError(t('settingWholeNumber', min, max));
      return;
    }
    if (String(value) === stored) {
      setError(null);
      setDraft(stored);
      return;
    }
    const refusal = await props.save({ [props.name]: value });
    setError(refusal);
    setSaved(refusal === null);
    // Shown as stored ("5", not "05" or "5 "), so the field follows changes made elsewhere again.
    if (refusal === null) setDraft(String(value));
  }

  const id = `setting-${props.name}`;
  return (
    <div class="setting">
      <label for={id}>{t(props.label)}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        size={7}
        value={draft}
        aria-invalid={error !== null}
        aria-describedby={`${id}-hint ${id}-message`}
        onInput={(event) => {
          setDraft(event.currentTarget.value);
          setSaved(false);
        }}
        onChange={() => void commit()}
      />
      <p id={`${id}-hint`} class="hint">
        {t(props.hint)}
      </p>
      <p id={`${id}-message`} class={error ? 'error' : 'success'} role={error ? 'alert' : 'status'}>
        {error ?? (saved ? t('saved') : '')}
      </p>
    </div>
  );
}

interface ToggleProps {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  /** Drawn as a switch (role="switch") rather than a checkbox. */
  asSwitch?: boolean;
  /** Shown under the hint, e.g. a permission that went missing. */
  note?: string | null;
  /** Called from the change event itself (a user gesture); resolves to a refusal, or null once done. */
  onToggle: (checked: boolean) => Promise<string | null>;
}

function Toggle(props: ToggleProps) {
  const [error, setError] = useState<string | null>(null);
  return (
    <div class="toggle">
      <input
        id={props.id}
        type="checkbox"
        role={props.asSwitch ? 'switch' : undefined}
        class={props.asSwitch ? 'switch' : undefined}
        checked={props.checked}
        aria-describedby={`${props.id}-hint`}
        onChange={async (event) => {
          const input = event.currentTarget;
          const wanted = input.checked;
          setError(null);
          const refusal = await props.onToggle(wanted);
          setError(refusal);
          // Refused: nothing changed in storage, so nothing re-renders the box; put it back.
          if (refusal !== null) input.checked = !wanted;
        }}
      />
      <div>
        <label for={props.id}>{props.label}</label>
        <p id={`${props.id}-hint`} class="hint">
          {props.hint}
        </p>
        {props.note && <p class="error">{props.note}</p>}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}

function PatternsEditor(props: {
  id: string;
  label: MessageKey;
  hint: MessageKey;
  saveLabel: MessageKey;
  saved: string[];
  draft: string;
  setDraft: (text: string | null) => void;
  save: (patterns: string[]) => Promise<string | null>;
}) {
  const check = useMemo(() => checkPatterns(props.draft), [props.draft]);
  // Saved by an earlier version or elsewhere, refused by this one: kept as the user wrote them, but not run.
  const refusedSaved = useMemo(() => props.saved.filter((p) => !validatePattern(p).ok).length, [props.saved]);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const dirty = props.draft !== props.saved.join('\n');

  async function save() {
    if (check.problems.length > 0) {
      setResult({ ok: false, message: t('patternsNotSaved') });
      return;
    }
    const refusal = await props.save(check.patterns);
    if (refusal === null) {
      props.setDraft(null);
      setResult({ ok: true, message: t('patternsSaved', check.patterns.length) });
    } else {
      setResult({ ok: false, message: refusal });
    }
  }

  return (
    <div class="patterns">
      <label for={props.id}>{t(props.label)}</label>
      <p id={`${props.id}-hint`} class="hint">
        {t(props.hint)}
      </p>
      {refusedSaved > 0 && (
        <p id={`${props.id}-refused`} class="error">
          {t('patternsSavedRefused', refusedSaved)}
        </p>
      )}
      <textarea
        id={props.id}
        rows={4}
        spellcheck={false}
        value={props.draft}
        aria-invalid={check.problems.length > 0}
        aria-describedby={`${props.id}-hint ${refusedSaved > 0 ? `${props.id}-refused ` : ''}${props.id}-problems`}
        onInput={(event) => {
          props.setDraft(event.currentTarget.value);
          setResult(null);
        }}
      />
      <ul id={`${props.id}-problems`} class="problems error">
        {check.problems.map((problem) => (
          <li key={`${problem.line}-${problem.message}`}>{lineMessage(problem)}</li>
        ))}
      </ul>
      <div class="row">
        <button type="button" class="primary" onClick={() => void save()}>
          {t(props.saveLabel)}
        </button>
        {dirty && <span class="hint">{t('patternsUnsaved')}</span>}
        <span role={result && !result.ok ? 'alert' : 'status'} class={result ? (result.ok ? 'success' : 'error') : ''}>
          {result?.message ?? ''}
        </span>
      </div>
    </div>
  );
}

function lineMessage(problem: LineProblem): string {
  return problem.line === 0 ? problem.message : t('patternsLine', problem.line, problem.message);
}

function Tester(props: { settings: Settings; failureText: string; markerText: string }) {
  const [text, setText] = useState('');
  const failurePatterns = useMemo(() => checkPatterns(props.failureText).patterns, [props.failureText]);
  const markerPatterns = useMemo(() => checkPatterns(props.markerText).patterns, [props.markerText]);
  const result = useMemo(
    () => testText(text, { categories: props.settings.categories, failurePatterns, markerPatterns }),
    [text, props.settings.categories, failurePatterns, markerPatterns],
  );
  return (
    <div class="tester">
      <label for="tester-input">{t('testerLabel')}</label>
      <textarea
        id="tester-input"
        rows={6}
        spellcheck={false}
        value={text}
        placeholder={t('testerPlaceholder')}
        aria-describedby="tester-verdict"
        onInput={(event) => setText(event.currentTarget.value)}
      />
      <div id="tester-verdict" role="status" class={`verdict ${result ? '' : 'muted'}`}>
        {result ? (
          <>
            <p class="verdict-headline">{result.headline}</p>
            <p>{result.detail}</p>
            {result.rule && <p class="hint">{t('testerRule', result.rule)}</p>}
          </>
        ) : (
          <p>{t('testerEmpty')}</p>
        )}
      </div>
    </div>
  );
}

function Notifications({ on, save }: { on: boolean; save: Save }) {
  const [granted, setGranted] = useState<boolean | null>(null);
  useEffect(() => {
    browser.permissions.contains({ permissions: ['notifications'] }).then(setGranted, () => setGranted(null));
  }, [on]);

  function onToggle(wanted: boolean): Promise<string | null> {
    if (!wanted) return save({ notifications: false });
    // Asked for in the change event itself: browsers grant optional permissions only during a user gesture.
    return browser.permissions.request({ permissions: ['notifications'] }).then(
      (ok) => {
        setGranted(ok);
        return ok ? save({ notifications: true }) : t('notificationsRefused');
      },
      (error: unknown) => t('notificationsRefusedError', errorText(error)),
    );
  }

  return (
    <Toggle
      id="notifications"
      asSwitch
      label={t('notificationsLabel')}
      hint={t('notificationsHint')}
      checked={on}
      note={on && granted === false ? t('notificationsMissing') : null}
      onToggle={onToggle}
    />
  );
}

type Outcome = { ok: boolean; message: string } | null;

function DataTools({ afterChange }: { afterChange: () => Promise<void> }) {
  const [exported, setExported] = useState<Outcome>(null);
  const [imported, setImported] = useState<Outcome>(null);
  const [cleared, setCleared] = useState<Outcome>(null);
  const [restored, setRestored] = useState<Outcome>(null);

  async function doExport() {
    try {
      const file = exportData(await loadSettings(), await loadAllNotebooks());
      const blob = new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `colab-oom-guard-${file.exportedAt.slice(0, 10)}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setExported({ ok: true, message: t('exportDone', file.notebooks.length) });
    } catch (error) {
      setExported({ ok: false, message: t('exportFailed', errorText(error)) });
    }
  }

  async function doImport(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    setImported(null);
    // Checked before reading: a huge file would be read whole into memory first.
    if (file.size > IMPORT_MAX_CHARS) {
      input.value = '';
      setImported({
        ok: false,
        message: t('importTooLarge', file.name, megabytes(file.size), megabytes(IMPORT_MAX_CHARS)),
      });
      return;
    }
    let text: string;
    try {
      text = await file.text();
    } catch (error) {
      setImported({ ok: false, message: t('importUnreadable', errorText(error)) });
      return;
    } finally {
      input.value = '';
    }
    const reply = await sendUi({ type: 'ui-import', text });
    if (reply.ok) {
      setImported({ ok: true, message: t('importDone', file.name, reply.notebooks) });
      await afterChange();
    } else {
      setImported({ ok: false, message: t('importRefused', file.name, reply.message) });
    }
  }

  /** Settings only: every notebook, its switch and its history stay. */
  async function doRestore() {
    const { v: _version, ...patch } = defaultSettings();
    const reply = await sendUi({ type: 'ui-settings', patch });
    setRestored(reply.ok ? { ok: true, message: t('restoreDone') } : { ok: false, message: reply.message });
    if (reply.ok) await afterChange();
  }

  async function doClear() {
    const reply = await sendUi({ type: 'ui-clear' });
    setCleared(reply.ok ? { ok: true, message: t('clearDone') } : { ok: false, message: reply.message });
    if (reply.ok) await afterChange();
  }

  return (
    <div class="data">
      <div class="row">
        <button type="button" onClick={() => void doExport()}>
          {t('exportButton')}
        </button>
        <Result outcome={exported} />
      </div>

      <div class="import">
        <label for="import-file">{t('importLabel')}</label>
        <input
          id="import-file"
          type="file"
          accept="application/json,.json"
          aria-describedby="import-hint import-result"
          onChange={(event) => void doImport(event.currentTarget)}
        />
        <p id="import-hint" class="hint">
          {t('importHint')}
        </p>
        <Result id="import-result" outcome={imported} />
      </div>

      <div class="clear">
        <Confirmed
          button="restoreButton"
          question="restoreQuestion"
          confirm="restoreConfirm"
          keep="restoreKeep"
          onConfirm={doRestore}
        />
        <Result outcome={restored} />
      </div>

      <div class="clear">
        <Confirmed
          danger
          button="clearButton"
          question="clearQuestion"
          confirm="clearConfirm"
          keep="clearKeep"
          onConfirm={doClear}
        />
        <Result outcome={cleared} />
      </div>
    </div>
  );
}

/**
 * A button that asks before it acts. The question takes the focus on the safe answer, and the focus goes back to the
 * button afterwards, so keyboard users never lose their place.
 */
function Confirmed(props: {
  button: MessageKey;
  question: MessageKey;
  confirm: MessageKey;
  keep: MessageKey;
  onConfirm: () => Promise<void>;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const keepButton = useRef<HTMLButtonElement>(null);
  const askButton = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) keepButton.current?.focus();
    else if (wasAsking.current) askButton.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  const questionId = `${props.button}-question`;
  if (!asking) {
    return (
      <button type="button" class={props.danger ? 'danger' : ''} ref={askButton} onClick={() => setAsking(true)}>
        {t(props.button)}
      </button>
    );
  }
  return (
    <fieldset aria-labelledby={questionId} class={`confirm ${props.danger ? 'confirm-danger' : ''}`}>
      <p id={questionId}>{t(props.question)}</p>
      <div class="row">
        <button
          type="button"
          class={props.danger ? 'danger' : 'primary'}
          onClick={async () => {
            await props.onConfirm();
            setAsking(false);
          }}
        >
          {t(props.confirm)}
        </button>
        <button type="button" ref={keepButton} onClick={() => setAsking(false)}>
          {t(props.keep)}
        </button>
      </div>
    </fieldset>
  );
}

function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}

function Result({ outcome, id }: { outcome: Outcome; id?: string }) {
  return (
    <p
      id={id}
      role={outcome && !outcome.ok ? 'alert' : 'status'}
      class={outcome ? (outcome.ok ? 'success' : 'error') : ''}
    >
      {outcome?.message ?? ''}
    </p>
  );
}

function Problems() {
  const problems = useProblems();
  const now = Date.now();
  if (problems.length === 0) return null;
  return (
    <section class="card" aria-labelledby="problems-heading">
      <h2 id="problems-heading">{t('problemsTitle')}</h2>
      <p class="muted">{t('problemsIntro')}</p>
      <ul class="problem-list">
        {[...problems].reverse().map((problem) => (
          <li key={`${problem.at}-${problem.key}`}>
            <time dateTime={new Date(problem.at).toISOString()}>{formatTime(problem.at, now)}</time>{' '}
            <code>{problem.key}</code>: {problem.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
