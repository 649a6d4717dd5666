import { useEffect, useRef, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { useAlertsConfig } from '../ui/alert-hooks';
import { errorText, sendUi } from '../ui/send';
import { whyWords } from '../ui/why-text';

/**
 * Offered once, right after the guard is first switched on: desktop notifications, in one click. Whatever the answer
 * (or none), it is not offered again; the options page keeps the switch.
 */
export function NotificationOffer({ notificationsOn }: { notificationsOn: boolean }) {
  const config = useAlertsConfig();
  const [closed, setClosed] = useState(false);
  const [answer, setAnswer] = useState<{ error: boolean; text: string } | null>(null);
  // Decided once, when the alert settings are first read: noting the offer must not take it away again.
  const offer = useRef<boolean | null>(null);
  if (config && offer.current === null) offer.current = !config.notificationsOffered && !notificationsOn;
  const offering = offer.current === true;

  useEffect(() => {
    if (offering) void sendUi({ type: 'ui-alerts', patch: { notificationsOffered: true } });
  }, [offering]);

  if (!offering || closed) return null;
  if (answer) {
    return (
      <p class={answer.error ? 'error offer' : 'success offer'} role={answer.error ? 'alert' : 'status'}>
        {answer.text}
      </p>
    );
  }

  // Asked for in the click itself: browsers grant optional permissions only during a user gesture.
  function accept() {
    void browser.permissions.request({ permissions: ['notifications'] }).then(
      async (granted) => {
        if (!granted) return setAnswer({ error: true, text: t('offerRefused') });
        const reply = await sendUi({ type: 'ui-settings', patch: { notifications: true } });
        setAnswer(reply.ok ? { error: false, text: t('offerOn') } : { error: true, text: whyWords(reply.why) });
      },
      (error: unknown) => setAnswer({ error: true, text: t('notificationsRefusedError', errorText(error)) }),
    );
  }

  return (
    <section class="offer" aria-labelledby="offer-text">
      <p id="offer-text">{t('offerNotifications')}</p>
      <div class="row">
        <button type="button" class="primary" onClick={accept}>
          {t('offerAccept')}
        </button>
        <button type="button" onClick={() => setClosed(true)}>
          {t('offerDecline')}
        </button>
      </div>
    </section>
  );
}
