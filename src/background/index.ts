import browser from 'webextension-polyfill';
browser.runtime.onInstalled.addListener(() => undefined);
