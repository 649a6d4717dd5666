/**
 * Run in the service worker (`worker.evaluate(welcomeTabClosed)`, Playwright's or Puppeteer's): waits for the welcome
 * page the extension opens on install and closes it, so that tests start with only the tabs they open. False if none
 * opened within 15 s.
 */
export function welcomeTabClosed(): Promise<boolean> {
  return new Promise((resolve) => {
    const url = chrome.runtime.getURL('src/welcome/index.html');
    let done = false;
    const finish = (closed: boolean) => {
      done = true;
      clearTimeout(timer);
      chrome.tabs.onUpdated.removeListener(look);
      resolve(closed);
    };
    const look = async () => {
      const [tab] = await chrome.tabs.query({ url });
      if (done || tab?.id === undefined) return;
      finish(true);
      await chrome.tabs.remove(tab.id);
    };
    const timer = setTimeout(() => finish(false), 15_000);
    chrome.tabs.onUpdated.addListener(look);
    void look();
  });
}
