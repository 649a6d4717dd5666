/**
 * The system's power management, through `chrome.power` (permission `power`): webextension-polyfill has no such
 * namespace, and Firefox no such API (REFERENCE §13.4), so this reads it where the browser has it (null elsewhere).
 * The browser drops the request when the extension is unloaded; while it is loaded it holds whether or not the worker
 * runs.
 */
interface PowerApi {
  requestKeepAwake(level: 'system' | 'display'): void;
  releaseKeepAwake(): void;
}

export function powerApi(): PowerApi | null {
  const power = (globalThis as { chrome?: { power?: Partial<PowerApi> } }).chrome?.power;
  return typeof power?.requestKeepAwake === 'function' && typeof power.releaseKeepAwake === 'function'
    ? (power as PowerApi)
    : null;
}

/**
 * Asks the system to stay awake, or lets go. `system`: the computer keeps running; the screen may still turn off and
 * lock. Returns false when this browser cannot.
 */
export function keepAwake(on: boolean): boolean {
  const power = powerApi();
  if (!power) return false;
  if (on) power.requestKeepAwake('system');
  else power.releaseKeepAwake();
  return true;
}
