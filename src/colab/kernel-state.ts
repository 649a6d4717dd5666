/** The runtime's state as the connect button shows it (REFERENCE.md §5.4, §11.5): the one reader of that button. */

import { deepQuery, squash } from './dom';
import { CONNECT } from './selectors';

export type RuntimeState = 'idle' | 'busy' | 'connecting' | 'disconnected' | 'unknown';

/**
 * What the connect button shows (§5.4, §11.5), or null without one. Its English label wins when it names a state
 * ("Connecting", "Reconnect"); otherwise `#connect-icon`'s ligature, which no translation changes, tells idle
 * (`done`) from busy or connecting (`more_horiz`).
 */
export function runtimeState(doc: Document): RuntimeState | null {
  const host = deepQuery(doc, CONNECT.host);
  return host ? connectButtonState(host) : null;
}

/** The state one connect button (`colab-connect-button`, read through its open shadow root) shows. */
export function connectButtonState(host: Element): RuntimeState {
  const root = host.shadowRoot ?? host;
  const label = squash(root.querySelector(CONNECT.button)?.textContent);
  if (CONNECT.connectingText.test(label)) return 'connecting';
  if (CONNECT.disconnectedText.test(label)) return 'disconnected';
  const icon = root.querySelector(CONNECT.icon);
  const ligature = icon && !icon.closest('[hidden]') ? squash(icon.textContent) : '';
  if (CONNECT.busyIcon.test(ligature)) return 'busy';
  return CONNECT.idleIcon.test(ligature) ? 'idle' : 'unknown';
}

/**
 * Busy executing: `more_horiz` while connected. `more_horiz` with "Connecting"/"Allocating" is a runtime starting,
 * not running code (§11.5), and so is not busy here.
 */
export function kernelBusyAt(host: Element): boolean {
  return connectButtonState(host) === 'busy';
}
