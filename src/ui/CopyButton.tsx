import { useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import { t } from '../lib/i18n';
import type { CheckUiReply } from '../messaging/protocol';
import { ALERT_LOG_KEY, parseAlertLog } from '../state/alert-delivery';
import { ALERTS_KEY, parseAlertsConfig } from '../state/alerts';
import type { NotebookRecord } from '../state/schema';
import { loadSettings } from '../state/store';
import { diagnosticsText } from './diagnostics';
import { errorText } from './send';

/**
 * A button that copies a text made when it is pressed (a night log, diagnostics) and says it did, beside it: a copy
 * gives no sign of its own.
 */
export function CopyButton(props: { label: string; id: string; make: () => Promise<string>; hint?: string }) {
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);

  async function copy() {
    setSaid(null);
    try {
      await navigator.clipboard.writeText(await props.make());
      setSaid({ ok: true, text: t('copied') });
    } catch (error) {
      setSaid({ ok: false, text: t('copyFailed', errorText(error)) });
    }
  }

  const hintId = props.hint ? `${props.id}-hint` : undefined;
  return (
    <div class="copy">
      <button type="button" id={props.id} aria-describedby={hintId} onClick={() => void copy()}>
        {props.label}
      </button>
      {props.hint && (
        <p id={hintId} class="hint">
          {props.hint}
        </p>
      )}
      <p role="status" class={said ? (said.ok ? 'success' : 'error') : 'muted'}>
        {said?.text ?? ''}
      </p>
    </div>
  );
}

/** Diagnostics of `notebooks` as the browser runs them now; `check`: the popup's UI check of its tab. */
export async function gatherDiagnostics(
  notebooks: readonly NotebookRecord[],
  check?: CheckUiReply | 'no-answer',
): Promise<string> {
  const stored = await browser.storage.local.get([ALERTS_KEY, ALERT_LOG_KEY]);
  return diagnosticsText({
    extensionVersion: browser.runtime.getManifest().version,
    browser: navigator.userAgent,
    uiLanguage: browser.i18n.getUILanguage(),
    settings: await loadSettings(),
    alerts: { config: parseAlertsConfig(stored[ALERTS_KEY]), log: parseAlertLog(stored[ALERT_LOG_KEY]) },
    notebooks,
    check,
    now: Date.now(),
  });
}
