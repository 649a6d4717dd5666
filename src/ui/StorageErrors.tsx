import { t } from '../lib/i18n';
import { useNow, useStorageErrors } from './hooks';
import { sendUi } from './send';
import { formatTime } from './text';

/**
 * What the browser refused to save (storage full), shown at the top of the popup and the options page until the user
 * dismisses it: a failure report that could not be saved overnight must not go unnoticed.
 */
export function StorageErrors() {
  const errors = useStorageErrors();
  const now = useNow(60_000);
  const list = errors.value ?? [];
  if (list.length === 0) return null;
  return (
    <section class="storage-errors error" role="alert" aria-labelledby="storage-errors-heading">
      <h2 id="storage-errors-heading">{t('storageErrorsTitle')}</h2>
      <p>{t('storageErrorsIntro')}</p>
      <ul>
        {[...list].reverse().map((error) => (
          <li key={`${error.at}-${error.lost}`}>
            <time dateTime={new Date(error.at).toISOString()}>{formatTime(error.at, now)}</time>{' '}
            {t('storageErrorsLost', error.lost, error.message)}
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={async () => {
          await sendUi({ type: 'ui-clear-storage-errors' });
          await errors.reload();
        }}
      >
        {t('storageErrorsDismiss')}
      </button>
    </section>
  );
}
