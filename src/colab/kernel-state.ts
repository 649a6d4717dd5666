/** The runtime's state as the connect button shows it (REFERENCE.md §5.4, §11.5). */

import { CONNECT } from './selectors';

/**
 * Busy executing: the connect icon shows `more_horiz` while connected. `more_horiz` with "Connecting"/"Allocating"
 * is a runtime starting, not running code (§11.5), and so is not busy here. Reads the host's open shadow root.
 */
export function kernelBusyAt(host: Element): boolean {
  const root = host.shadowRoot ?? host;
  const icon = root.querySelector(CONNECT.icon)?.textContent ?? '';
  if (!icon.includes(CONNECT.busyIcon)) return false;
  return !CONNECT.busyText.test(root.querySelector(CONNECT.button)?.textContent ?? '');
}
