/**
 * The naive detector the guard is compared with: what a quick user script would do. A MutationObserver on the whole
 * document re-reads `document.body.innerText` on every batch of mutations and regex-tests it. Injected into every
 * frame with addInitScript (main world). The sourceURL lets the CPU profile attribute its time.
 */
export const NAIVE_DETECTOR = `(() => {
  const OOM = /CUDA out of memory|OutOfMemoryError|RESOURCE_EXHAUSTED|Resource exhausted|out of memory/i;
  let seen = 0;
  function naiveDetectorOnMutation() {
    const text = document.body ? document.body.innerText : '';
    if (OOM.test(text)) seen++;
  }
  const everything = { childList: true, subtree: true, characterData: true };
  new MutationObserver(naiveDetectorOnMutation).observe(document, everything);
  Object.defineProperty(window, '__benchNaiveSeen', { get: () => seen });
})();
//# sourceURL=bench-naive-detector.js
`;

export const NAIVE_URL = 'bench-naive-detector.js';
