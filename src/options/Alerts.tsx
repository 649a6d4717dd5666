import { useEffect, useRef, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { t, tn } from '../lib/i18n';
import type { AlertsPatch } from '../messaging/protocol';
import type { AlertLog } from '../state/alert-delivery';
import {
  ALERT_EVENTS,
  ALERT_NAME_DATA,
  type AlertsConfig,
  alertDataCategories,
  type CheckedUrl,
  checkAlertUrl,
  configuredReceiver,
  KIND_CHOICES,
  type KindChoice,
  type ReceiverKind,
  secretProblem,
  TELEGRAM_API,
  TOKEN_KINDS,
} from '../state/alerts';
import { useAlertLog, useAlertsConfig } from '../ui/alert-hooks';
import { alertEventLabel, deliveryErrorText, receiverName, secretProblemText, urlProblemText } from '../ui/alert-text';
import { sendUi } from '../ui/send';
import { formatTime } from '../ui/text';
import { whyWords } from '../ui/why-text';
import { Toggle } from './controls';
import { grantThenSave, type Said, SaidLine, TestSend, useAsksDataConsent } from './url-tools';

/**
 * Alerts to a URL (ntfy, Telegram, Slack, Discord, any JSON receiver): where, with which secret, which events, what of
 * the notebook goes with them, a test, and the last failures. Saving a URL asks for that one host's permission first,
 * in the click (and, in Firefox, the consent to the data alerts send).
 */
export function Alerts() {
  const config = useAlertsConfig();
  const log = useAlertLog();
  const consent = useAsksDataConsent();
  if (!config || consent === undefined) return <p class="muted">{t('loading')}</p>;
  return (
    <div class="alerts">
      <AlertUrl config={config} asksConsent={consent} />
      {config.url !== null && (
        <>
          <AlertEvents config={config} />
          <AlertPrivacy config={config} asksConsent={consent} />
          <TestAlert />
        </>
      )}
      {log && <AlertFailures log={log} />}
    </div>
  );
}

function save(patch: AlertsPatch): Promise<string | null> {
  return sendUi({ type: 'ui-alerts', patch }).then((reply) => (reply.ok ? null : whyWords(reply.why)));
}

function AlertUrl({ config, asksConsent }: { config: AlertsConfig; asksConsent: boolean }) {
  const [draft, setDraft] = useState(config.url ?? '');
  const [kind, setKind] = useState<KindChoice>(config.kind);
  // The token is never shown again once saved: the field stays empty, and empty keeps the saved one.
  const [token, setToken] = useState('');
  const [chatId, setChatId] = useState(config.chatId ?? '');
  const [message, setMessage] = useState<Said | null>(null);
  // A URL saved or removed (here or in another window) shows as saved; typing is left alone until then.
  const shown = useRef({ url: config.url, kind: config.kind, chatId: config.chatId });
  useEffect(() => {
    const now = { url: config.url, kind: config.kind, chatId: config.chatId };
    if (JSON.stringify(shown.current) === JSON.stringify(now)) return;
    shown.current = now;
    setDraft(config.url ?? '');
    setKind(config.kind);
    setChatId(config.chatId ?? '');
  }, [config.url, config.kind, config.chatId]);

  const checked = draft.trim() === '' ? null : checkAlertUrl(draft, kind);
  const saved = configuredReceiver(config);
  const drafted = draftedKind(checked, kind);
  const keptToken = tokenKeptFor(checked, config);

  function onKind(choice: KindChoice) {
    setKind(choice);
    // Telegram's URL is its Bot API server: most people use Telegram's own.
    if (choice === 'telegram' && draft.trim() === '') setDraft(TELEGRAM_API);
  }

  // The permission is asked for before anything is awaited: browsers grant it only during the click itself.
  function onSave() {
    const result = checkAlertUrl(draft, kind);
    if (!result.ok) {
      setMessage({ error: true, text: urlProblemText(result.problem) });
      return;
    }
    const typed = token.trim() === '' ? undefined : token.trim();
    const chat = result.kind === 'telegram' ? chatId.trim() || null : null;
    const secret = secretProblem(result.kind, typed ?? (keptToken ? config.token : null), chat);
    if (secret) {
      setMessage({ error: true, text: secretProblemText(secret) });
      return;
    }
    setMessage(null);
    const sending = { permission: result.permission, data: alertDataCategories(config), asksConsent };
    const saving = async () => {
      const refusal = await save({ url: result.url, kind, chatId: chat, ...(typed ? { token: typed } : {}) });
      if (!refusal) setToken('');
      return refusal;
    };
    void grantThenSave(sending, saving, t('alertsSaved')).then(setMessage);
  }

  async function onForgetToken() {
    const refusal = await save({ token: null });
    setMessage(refusal ? { error: true, text: refusal } : { error: false, text: t('alertsTokenForgotten') });
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
        <select id="alert-kind" value={kind} onChange={(event) => onKind(event.currentTarget.value as KindChoice)}>
          {KIND_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice === 'auto'
                ? t('alertKindAuto', checked?.ok ? receiverName(checked.kind) : '…')
                : receiverName(choice)}
            </option>
          ))}
        </select>
      </div>
      {drafted && (
        <AlertSecrets
          kind={drafted}
          token={token}
          chatId={chatId}
          tokenKept={keptToken}
          onToken={setToken}
          onChatId={setChatId}
          onForget={() => void onForgetToken()}
        />
      )}
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

/** The receiver the form is filled in for: the URL's, or the one chosen while the URL does not check yet. */
function draftedKind(checked: CheckedUrl | null, kind: KindChoice): ReceiverKind | null {
  if (checked?.ok) return checked.kind;
  return kind === 'auto' ? null : kind;
}

/** Whether the saved token goes on with the URL typed: it belongs to the host it was saved for. */
function tokenKeptFor(checked: CheckedUrl | null, config: AlertsConfig): boolean {
  if (config.token === null || config.url === null || !checked?.ok) return false;
  const saved = checkAlertUrl(config.url, config.kind);
  return saved.ok && saved.permission === checked.permission && TOKEN_KINDS.includes(checked.kind);
}

/** Telegram's bot token and chat; ntfy's or a JSON receiver's optional access token. Never shown once saved. */
function AlertSecrets(props: {
  kind: ReceiverKind;
  token: string;
  chatId: string;
  tokenKept: boolean;
  onToken: (token: string) => void;
  onChatId: (chatId: string) => void;
  onForget: () => void;
}) {
  if (!TOKEN_KINDS.includes(props.kind)) return null;
  const telegram = props.kind === 'telegram';
  return (
    <div class="alert-secrets">
      <label for="alert-token">{t(telegram ? 'alertsBotTokenLabel' : 'alertsTokenLabel')}</label>
      <input
        id="alert-token"
        type="password"
        size={50}
        spellcheck={false}
        autocomplete="off"
        placeholder={props.tokenKept ? t('alertsTokenKept') : telegram ? '123456789:AAH…' : 'tk_…'}
        value={props.token}
        aria-describedby="alert-token-hint"
        onInput={(event) => props.onToken(event.currentTarget.value)}
      />
      <p id="alert-token-hint" class="hint">
        {t(telegram ? 'alertsBotTokenHint' : 'alertsTokenHint')}
      </p>
      {props.tokenKept && !telegram && (
        <div class="row">
          <button type="button" onClick={props.onForget}>
            {t('alertsForgetToken')}
          </button>
        </div>
      )}
      {telegram && (
        <>
          <label for="alert-chat">{t('alertsChatLabel')}</label>
          <input
            id="alert-chat"
            type="text"
            size={30}
            spellcheck={false}
            autocomplete="off"
            placeholder="123456789"
            value={props.chatId}
            aria-describedby="alert-chat-hint"
            onInput={(event) => props.onChatId(event.currentTarget.value)}
          />
          <p id="alert-chat-hint" class="hint">
            {t('alertsChatHint')}
          </p>
        </>
      )}
    </div>
  );
}

function AlertEvents({ config }: { config: AlertsConfig }) {
  return (
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
  );
}

/**
 * What of the notebook may leave the browser: its name (and a link that opens it), a stopped run's whole error line.
 * In Firefox the name needs its own consent (browsing activity), asked for in the click.
 */
function AlertPrivacy({ config, asksConsent }: { config: AlertsConfig; asksConsent: boolean }) {
  async function onIncludeTitle(checked: boolean): Promise<string | null> {
    if (checked && asksConsent) {
      const granted = await browser.permissions.request({ data_collection: [ALERT_NAME_DATA] }).catch(() => false);
      if (!granted) return t('alertsConsentRefused');
    }
    return save({ includeTitle: checked });
  }

  return (
    <>
      <Toggle
        id="alert-include-title"
        label={t('alertsIncludeTitle')}
        hint={t('alertsIncludeTitleHint')}
        checked={config.includeTitle}
        onToggle={onIncludeTitle}
      />
      <Toggle
        id="alert-include-error-line"
        label={t('alertsIncludeErrorLine')}
        hint={t('alertsIncludeErrorLineHint')}
        checked={config.includeErrorLine}
        onToggle={(checked) => save({ includeErrorLine: checked })}
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
