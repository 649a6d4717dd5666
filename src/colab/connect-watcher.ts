/**
 * The page observer's watcher of the connect button: what it shows now, and its changes, only while someone needs
 * them (watch). Colab renders it anew at every cell of a Run all, so it has an observer of its own, on only while
 * asked.
 */

import { kernelBusyAt } from './kernel-state';
import type { WatchContext } from './watch-context';

export type ConnectWatcher = ReturnType<typeof watchConnectButton>;

export function watchConnectButton(ctx: WatchContext) {
  const { handlers } = ctx;
  let connectHost: Element | null = null;
  /** The connect button's shadow root, observed while watched; null while not. */
  let kernelMo: MutationObserver | null = null;
  /** A new connect button appeared while watched: said at the batch's end. */
  let kernelTouched = false;

  function observeButton(observer: MutationObserver, host: Element): void {
    if (host.shadowRoot) observer.observe(host.shadowRoot, { subtree: true, childList: true, characterData: true });
  }

  return {
    /** A connect button appeared (Colab renders a new one at times): the one read from now on. */
    hook(host: Element): void {
      connectHost = host;
      if (!kernelMo) return;
      observeButton(kernelMo, host);
      kernelTouched = true;
    },
    /** Whether the connect button shows the runtime busy running code (§5.4), read now; false without one. */
    busy: (): boolean => !!connectHost && kernelBusyAt(connectHost),
    /** Whether its changes are reported (kernelChanged). */
    watch(on: boolean): void {
      if (!on) {
        kernelMo?.disconnect();
        kernelMo = null;
        return;
      }
      if (kernelMo) return;
      // Created after the page observer, so called back after it in a task: the batch's cell states come first.
      kernelMo = new MutationObserver(() => handlers.kernelChanged?.());
      if (connectHost) observeButton(kernelMo, connectHost);
    },
    /** The batch's end, after the cells': a new button watched is a change. */
    flush(): void {
      if (!kernelTouched) return;
      kernelTouched = false;
      handlers.kernelChanged?.();
    },
    stop: () => kernelMo?.disconnect(),
  };
}
