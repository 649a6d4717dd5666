import type Browser from 'webextension-polyfill';

/**
 * webextension-polyfill in the output-frame script, taken with `require`: the package is CommonJS, and an `import` of
 * it adds the bundler's ES-module interop helpers (~0.5 kB) to the self-contained frame script.
 */
const browser: typeof Browser = require('webextension-polyfill');

/** The frame script uses the runtime API only. */
export const { runtime } = browser;

export type MessageSender = Browser.Runtime.MessageSender;
