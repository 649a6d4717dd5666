import type Browser from 'webextension-polyfill';

/**
 * The extension's runtime API in the output-frame script, without webextension-polyfill (9.6 kB of a script held to
 * 15 kB): Firefox gives `browser`, and Chrome's `chrome.runtime` returns promises in Manifest V3 (Chrome 111 and
 * later, the manifest's minimum). The script uses `id`, `sendMessage` and `onMessage` only.
 */
const { browser, chrome } = globalThis as unknown as { browser?: typeof Browser; chrome: typeof Browser };

export const { runtime } = browser ?? chrome;

export type MessageSender = Browser.Runtime.MessageSender;
