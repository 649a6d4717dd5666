import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import {
  checkHeartbeatUrl,
  configuredHeartbeat,
  HEARTBEAT_DATA,
  HEARTBEAT_KEY,
  HEARTBEAT_LOG_KEY,
  HEARTBEAT_MINUTES,
  type HeartbeatConfig,
  type Ping,
  parseHeartbeatConfig,
  parsePings,
} from '../state/heartbeat';
import { NIGHT_WATCH_KEY, parseNightWatch } from '../state/run-going';
import type { Settings } from '../state/schema';
import { deliveryErrorText, heartbeatUrlProblemText } from '../ui/alert-text';
import { parseWholeNumber } from '../ui/fields';
import { useLocalKey, useSessionKey } from '../ui/hooks';
import { sendUi } from '../ui/send';
import { formatTime } from '../ui/text';
import { whyWords } from '../ui/why-text';
import { Toggle } from './controls';
import type { Save } from './save';
import { grantThenSave, type Said, SaidLine, TestSend, useAsksDataConsent } from './url-tools';

/**
 * Through the night: the computer kept awake while a guarded run goes on, and the heartbeat that tells the person
 * when the pings stop (state/heartbeat.ts). Its URL, like the alert URL, asks for its one site in the click.
 */
export function Night({ settings, save }: { settings: Settings; save: Save }) {
  const watch = useSessionKey(NIGHT_WATCH_KEY, parseNightWatch);
  const cannot = watch !== undefined && !watch.canKeepAwake;
  return (
    <>
      <Toggle
        id="keep-awake"
        label={t('settingKeepAwake')}
        hint={t('settingKeepAwakeHint')}
        checked={settings.keepAwake}
        note={cannot ? t('settingKeepAwakeUnsupported') : null}
        onToggle={(checked) => save({ keepAwake: checked })}
      />
      <h3 id="heartbeat-heading">{t('heartbeatHeading')}</h3>
      <p class="hint">{t('heartbeatIntro')}</p>
      <Heartbeat />
    </>
  );
}

function Heartbeat() {
  const config = useLocalKey(HEARTBEAT_KEY, parseHeartbeatConfig);
  const pings = useSessionKey(HEARTBEAT_LOG_KEY, parsePings);
  const asksConsent = useAsksDataConsent();
  if (!config || asksConsent === undefined) return <p class="muted">{t('loading')}</p>;
  const saved = configuredHeartbeat(config);
  return (
    <div class="heartbeat">
      <HeartbeatForm config={config} asksConsent={asksConsent} />
      {saved && (
        <>
          <p class="alert-target">
            {t(
              saved.service === 'healthchecks' ? 'heartbeatPingingHealthchecks' : 'heartbeatPinging',
              new URL(saved.url).host,
              config.everyMinutes,
            )}
          </p>
          <TestSend
            id="heartbeat-test-result"
            label={t('heartbeatTest')}
            send={() => sendUi({ type: 'ui-heartbeat-test' })}
            sent={(status) => t('heartbeatTestSent', status)}
            failed={(why) => t('heartbeatTestFailed', why)}
          />
          <LastPing ping={pings?.at(-1)} />
        </>
      )}
    </div>
  );
}

function HeartbeatForm({ config, asksConsent }: { config: HeartbeatConfig; asksConsent: boolean }) {
  const [url, setUrl] = useState(config.url ?? '');
  const [every, setEvery] = useState(String(config.everyMinutes));
  const [message, setMessage] = useState<Said | null>(null);
  // What was saved (here or in another window) shows as saved; typing is left alone until then.
  const shown = useRef(config);
  useEffect(() => {
    if (shown.current.url === config.url && shown.current.everyMinutes === config.everyMinutes) return;
    shown.current = config;
    setUrl(config.url ?? '');
    setEvery(String(config.everyMinutes));
  }, [config]);

  const save = (patch: { url?: string; everyMinutes: number }) =>
    sendUi({ type: 'ui-heartbeat', patch }).then((reply) => (reply.ok ? null : whyWords(reply.why)));

  // The permission is asked for before anything is awaited: browsers grant it only during the click itself.
  function onSave() {
    const checked = checkHeartbeatUrl(url);
    if (!checked.ok) return setMessage({ error: true, text: heartbeatUrlProblemText(checked.problem) });
    const everyMinutes = parseWholeNumber(every, ...HEARTBEAT_MINUTES);
    if (everyMinutes === null) return setMessage({ error: true, text: t('heartbeatEveryRefused') });
    setMessage(null);
    const saving = () => save({ url: checked.url, everyMinutes });
    if (checked.url === config.url) {
      void saving().then((refusal) =>
        setMessage(refusal ? { error: true, text: refusal } : { error: false, text: t('heartbeatSaved') }),
      );
      return;
    }
    const sending = { permission: checked.permission, data: HEARTBEAT_DATA, asksConsent };
    void grantThenSave(sending, saving, t('heartbeatSaved')).then(setMessage);
  }

  async function onRemove() {
    const reply = await sendUi({ type: 'ui-heartbeat', patch: { url: null } });
    setMessage(reply.ok ? { error: false, text: t('heartbeatRemoved') } : { error: true, text: whyWords(reply.why) });
  }

  return (
    <div class="alert-url">
      <label for="heartbeat-url">{t('heartbeatUrlLabel')}</label>
      <input
        id="heartbeat-url"
        type="url"
        size={50}
        spellcheck={false}
        autocomplete="off"
        placeholder="https://hc-ping.com/…"
        value={url}
        aria-describedby="heartbeat-url-hint heartbeat-message"
        onInput={(event) => setUrl(event.currentTarget.value)}
      />
      <p id="heartbeat-url-hint" class="hint">
        {t('heartbeatUrlHint')}
      </p>
      <div class="row">
        <label for="heartbeat-every">{t('heartbeatEveryLabel')}</label>
        <input
          id="heartbeat-every"
          type="text"
          inputMode="numeric"
          size={4}
          value={every}
          onInput={(event) => setEvery(event.currentTarget.value)}
        />
      </div>
      <div class="row">
        <button type="button" class="primary" onClick={onSave}>
          {t('heartbeatSave')}
        </button>
        {config.url !== null && (
          <button type="button" onClick={() => void onRemove()}>
            {t('heartbeatRemove')}
          </button>
        )}
      </div>
      <SaidLine id="heartbeat-message" said={message} />
    </div>
  );
}

/** The newest ping of a run and what the service answered: a check deleted on the service shows here, not at 3 am. */
function LastPing({ ping }: { ping: Ping | undefined }) {
  if (!ping) return null;
  const at = formatTime(ping.at, Date.now());
  const outcome =
    ping.outcome.kind === 'sent' ? t('heartbeatAnswered', ping.outcome.status) : deliveryErrorText(ping.outcome);
  return (
    <p class={ping.outcome.kind === 'sent' ? 'hint' : 'error'} id="heartbeat-last">
      {t('heartbeatLast', at, outcome)}
    </p>
  );
}
