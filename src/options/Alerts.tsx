import { useEffect, useRef, useState } from 'preact/hooks';
import { t, tn } from '../lib/i18n';
import type { AlertsPatch } from '../messaging/protocol';
import type { AlertLog } from '../state/alert-delivery';
import {
  ALERT_EVENTS,
  type AlertsConfig,
  checkAlertUrl,
  configuredReceiver,
  KIND_CHOICES,
  type KindChoice,
} from '../state/alerts';
import { useAlertLog, useAlertsConfig } from '../ui/alert-hooks';
import { alertEventLabel, deliveryErrorText, receiverName, urlProblemText } from '../ui/alert-text';
import { sendUi } from '../ui/send';
import { formatTime } from '../ui/text';
import { Toggle } from './controls';
import { grantThenSave, type Said, SaidLine, TestSend } from './url-tools';

/**
 * Alerts to a URL (ntfy, Slack, Discord, any JSON receiver): where, which events, whether the notebook's name goes
 * with them, a test, and the last failures. Saving a URL asks for that one host's permission first, in the click.
 */
export function Alerts() {
  const config = useAlertsConfig();
  const log = useAlertLog();
  if (!config) return <p class="muted">{t('loading')}</p>;
  return (
    <div class="alerts">
      <AlertUrl config={config} />
      {config.url !== null && (
        <>
          <AlertEvents config={config} />
          <TestAlert />
        </>
      )}
      {log && <AlertFailures log={log} />}
    </div>
  );
}

function save(patch: AlertsPatch): Promise<string | null> {
  return sendUi({ type: 'ui-alerts', patch }).then((reply) => (reply.ok ? null : reply.message));
}

function AlertUrl({ config }: { config: AlertsConfig }) {
  const [draft, setDraft] = useState(config.url ?? '');
  const [kind, setKind] = useState<KindChoice>(config.kind);
  const [message, setMessage] = useState<Said | null>(null);
  // A URL saved or removed (here or in another window) shows as saved; typing is left alone until then.
  const shown = useRef({ url: config.url, kind: config.kind });
  useEffect(() => {
    if (shown.current.url === config.url && shown.current.kind === config.kind) return;
    shown.current = { url: config.url, kind: config.kind };
    setDraft(config.url ?? '');
    setKind(config.kind);
  }, [config.url, config.kind]);

  const checked = draft.trim() === '' ? null : checkAlertUrl(draft, kind);
  const saved = configuredReceiver(config);

  // The permission is asked for before anything is awaited: browsers grant it only during the click itself.
  function onSave() {
    const result = checkAlertUrl(draft, kind);
    if (!result.ok) {
      setMessage({ error: true, text: urlProblemText(result.problem) });
      return;
    }
    setMessage(null);
    void grantThenSave(result.permission, () => save({ url: result.url, kind }), t('alertsSaved')).then(setMessage);
  }

  async function onRemove() {
    const refusal = await save({ url: null });
    setMessage(refusal ? { error: true, text: refusal } : { error: false, text: t('alertsRemoved') });
  }

  return (
    <div class="alert-url">
      <label for="alert-url">{t('alertsUrlLabel')}</label>
      <input
        id="alert-url"
        type="url"
        size={50}
        spellcheck={false}
        autocomplete="off"
        placeholder="https://ntfy.sh/…"
        value={draft}
        aria-invalid={checked !== null && !checked.ok}
        aria-describedby="alert-url-hint alert-url-message"
        onInput={(event) => setDraft(event.currentTarget.value)}
      />
      <p id="alert-url-hint" class="hint">
        {t('alertsUrlHint')}
      </p>
      <div class="row">
        <label for="alert-kind">{t('alertsKindLabel')}</label>
        <select id="alert-kind" value={kind} onChange={(event) => setKind(event.currentTarget.value as KindChoice)}>
          {KIND_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice === 'auto'
                ? t('alertKindAuto', checked?.ok ? receiverName(checked.kind) : '…')
                : receiverName(choice)}
            </option>
          ))}
        </select>
      </div>
      <div class="row">
        <button type="button" class="primary" onClick={onSave}>
          {t('alertsSave')}
        </button>
        {config.url !== null && (
          <button type="button" onClick={() => void onRemove()}>
            {t('alertsRemove')}
          </button>
        )}
      </div>
      <SaidLine id="alert-url-message" said={message} />
      {saved && <p class="alert-target">{t('alertsSending', receiverName(saved.kind), new URL(saved.url).host)}</p>}
    </div>
  );
}

function AlertEvents({ config }: { config: AlertsConfig }) {
  return (
    <>
      <fieldset class="checks">
        <legend>{t('alertsEventsLegend')}</legend>
        {ALERT_EVENTS.map((event) => (
          <Toggle
            key={event}
            id={`alert-event-${event}`}
            label={alertEventLabel(event)}
            hint=""
            checked={config.events[event]}
            onToggle={(checked) => save({ events: { [event]: checked } })}
          />
        ))}
      </fieldset>
      <Toggle
        id="alert-include-title"
        label={t('alertsIncludeTitle')}
        hint={t('alertsIncludeTitleHint')}
        checked={config.includeTitle}
        onToggle={(checked) => save({ includeTitle: checked })}
      />
    </>
  );
}

function TestAlert() {
  return (
    <TestSend
      id="alert-test-result"
      label={t('alertsTest')}
      send={() => sendUi({ type: 'ui-alert-test' })}
      sent={(status) => t('alertTestSent', status)}
      failed={(why) => t('alertTestFailed', why)}
    />
  );
}

function AlertFailures({ log }: { log: AlertLog }) {
  if (log.failures.length === 0) return null;
  const waiting = log.pending.length;
  return (
    <section class="alert-failures" aria-labelledby="alert-failures-heading">
      <h3 id="alert-failures-heading">{t('alertsFailuresHeading')}</h3>
      <ul>
        {[...log.failures].reverse().map((failure) => (
          <li key={`${failure.at}-${failure.event}`}>
            {t(
              failure.final ? 'alertFailureFinal' : 'alertFailureRetry',
              formatTime(failure.at, Date.now()),
              alertEventLabel(failure.event),
              deliveryErrorText(failure.error),
            )}
          </li>
        ))}
      </ul>
      {waiting > 0 && <p class="hint">{tn('alertsWaiting', waiting, waiting)}</p>}
    </section>
  );
}
