import type BrowserApi from 'webextension-polyfill';

declare global {
  /**
   * Firefox's own extension API in the extension's pages, where the tests evaluate code (harness/firefox.ts). Only
   * the e2e type check sees this; product code goes through webextension-polyfill.
   */
  const browser: BrowserApi.Browser;
}
