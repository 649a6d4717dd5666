import browser from 'webextension-polyfill';
if (window.top !== window) document.documentElement.dataset.oomGuardFrame = browser.runtime.id;
