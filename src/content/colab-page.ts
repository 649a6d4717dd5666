import browser from 'webextension-polyfill';
document.documentElement.dataset.oomGuard = browser.runtime.id ? 'ready' : 'none';
