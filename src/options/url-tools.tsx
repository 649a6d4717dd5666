import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import type { AlertTestReply } from '../messaging/protocol';
import type { AlertDataCategory } from '../state/alerts';
import { deliveryErrorText } from '../ui/alert-text';
import { asksDataConsent } from '../ui/data-consent';
import { errorText, type Failure } from '../ui/send';
import { whyWords } from '../ui/why-text';

/** What the URLs the person saves share (the alert URL, the heartbeat): a site's permission, a test, a result line. */

export interface Said {
  error: boolean;
  text: string;
}

/** Whether the browser asks consent to the data sent (Firefox): known before any click, which must ask at once. */
export function useAsksDataConsent(): boolean | undefined {
  const [asks, setAsks] = useState<boolean | undefined>(undefined);
  useEffect(() => {
    void asksDataConsent().then(setAsks, () => setAsks(false));
  }, []);
  return asks;
}

/** What a URL's save asks for, in one prompt: its site, and where the browser asks (Firefox) the data sent there. */
export interface Sending {
  permission: string;
  data: readonly AlertDataCategory[];
  asksConsent: boolean;
}

/**
 * Asks for the one site's permission (and the consent to the data sent there), then saves. Call it in the click
 * itself, before anything is awaited: browsers grant a permission only during the person's gesture. Refused: nothing
 * is saved, and the answer says so.
 */
export function grantThenSave(sending: Sending, save: () => Promise<string | null>, saved: string): Promise<Said> {
  const data = sending.asksConsent ? { data_collection: [...sending.data] } : {};
  return browser.permissions.request({ origins: [sending.permission], ...data }).then(
    async (granted) => {
      if (!granted) return { error: true, text: t('alertsPermissionRefused') };
      const refusal = await save();
      return refusal ? { error: true, text: refusal } : { error: false, text: saved };
    },
    (error: unknown) => ({ error: true, text: t('alertsPermissionError', errorText(error)) }),
  );
}

type TestReply = AlertTestReply | Failure;

/** A button that sends once, now, and says what happened: the HTTP status, or why nothing arrived. */
export function TestSend(props: {
  id: string;
  label: string;
  send: () => Promise<TestReply>;
  sent: (status: number) => string;
  failed: (why: string) => string;
}) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Said | null>(null);

  async function onTest() {
    setBusy(true);
    setResult(null);
    const reply = await props.send();
    setBusy(false);
    if (!reply.ok) return setResult({ error: true, text: whyWords(reply.why) });
    const outcome = reply.result;
    setResult(
      outcome.kind === 'sent'
        ? { error: false, text: props.sent(outcome.status) }
        : { error: true, text: props.failed(deliveryErrorText(outcome)) },
    );
  }

  return (
    <div class="row test-alert">
      <button type="button" disabled={busy} onClick={() => void onTest()}>
        {props.label}
      </button>
      <SaidLine id={props.id} said={busy ? { error: false, text: t('alertTestSending') } : result} />
    </div>
  );
}

/** A result line: read out at once when it is an error, politely otherwise. */
export function SaidLine({ id, said }: { id: string; said: Said | null }) {
  return (
    <p id={id} class={said?.error ? 'error' : 'success'} role={said?.error ? 'alert' : 'status'}>
      {said?.text ?? ''}
    </p>
  );
}
