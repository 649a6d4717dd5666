// What `loadDetector` imports in Colab pages. A module of its own, not patterns.ts itself: patterns.ts shares a chunk
// with the service worker and the options page, and importing a shared chunk's module would make the bundler build
// a namespace object with a helper that lands in the script injected into every Colab page.
export { compilePatterns } from './patterns';
