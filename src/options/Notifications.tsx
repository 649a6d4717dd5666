import { useEffect, useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import { errorText } from '../ui/send';
import { Toggle } from './controls';
import type { Save } from './save';

export function Notifications({ on, save }: { on: boolean; save: Save }) {
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
