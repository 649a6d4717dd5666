import browser from 'webextension-polyfill';
import { WELCOME_PAGE } from '../ui/links';

/** The welcome page opens once, when the extension is installed: never on an update or a browser update. */
export async function welcomeOnInstall(reason: browser.Runtime.OnInstalledReason): Promise<void> {
  if (reason !== 'install') return;
  // A page that cannot open (no browser window yet) costs nothing: the options page links to it.
  await browser.tabs.create({ url: browser.runtime.getURL(WELCOME_PAGE) }).catch(() => undefined);
}
