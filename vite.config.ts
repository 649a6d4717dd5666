import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';
import manifestSource from './manifest.json' with { type: 'json' };
import pkg from './package.json' with { type: 'json' };
import { expandColabPages } from './src/site/origins';

// One manifest.json for both browsers. `vite build` builds the Chrome package into dist/;
// `vite build --mode firefox` builds the Firefox package into dist-firefox/ from the same sources,
// with the Firefox differences generated here by `firefoxManifest` (never kept in a second file).

// The version lives in package.json only; manifest.json carries a placeholder. Colab's pages are `<colab-pages>`
// there (the host permissions, the page script's matches): Colab's origins are listed once, in src/site/origins.ts.
const [pageScript, ...otherScripts] = manifestSource.content_scripts;
if (!pageScript) throw new Error('manifest.json: no content scripts');
const manifest = {
  ...manifestSource,
  version: pkg.version,
  host_permissions: expandColabPages(manifestSource.host_permissions),
  content_scripts: [{ ...pageScript, matches: expandColabPages(pageScript.matches) }, ...otherScripts],
};

/** Add-on id on addons.mozilla.org. Never change it after the first release: it is the add-on's identity. */
const GECKO_ID = 'colab-oom-guard@colab-oom-guard';

/**
 * Lowest Firefox the package supports:
 * - MV3 with `action` and `host_permissions`: 109; `background.type: "module"`: 112; `storage.session`: 115.
 * - 127: MV3 host permissions (and content-script matches) are shown and granted at install. Before that they
 *   were optional and off by default, so the content scripts would not run on Colab until the user found the
 *   toggle in about:addons.
 * - 140 (the current ESR): `browser_specific_settings.gecko.data_collection_permissions`, which AMO requires for
 *   new extensions. Optional `notifications` (55) and `all_frames` content scripts (48) are far older.
 */
const FIREFOX_MIN_VERSION = '140';
const FIREFOX_ANDROID_MIN_VERSION = '142';

/** Chrome-only permissions: Firefox has no `power` API (REFERENCE §13.4), and web-ext lint refuses the unknown name. */
const CHROME_ONLY_PERMISSIONS = new Set(['power']);

/**
 * The Firefox manifest: the Chrome one with Firefox's background page and Gecko settings. Chrome's `key` (which pins
 * the Chrome extension id) goes: Firefox's identity is the Gecko id.
 */
function firefoxManifest(source: typeof manifest) {
  const { minimum_chrome_version: _chromeOnly, key: _chromeKey, background, ...common } = source;
  return {
    ...common,
    permissions: common.permissions.filter((permission) => !CHROME_ONLY_PERMISSIONS.has(permission)),
    // Firefox has no MV3 service workers: the same entry runs as a (non-persistent) background script.
    background: { scripts: [background.service_worker], type: background.type },
    browser_specific_settings: {
      gecko: {
        id: GECKO_ID,
        strict_min_version: `${FIREFOX_MIN_VERSION}.0`,
        // Nothing is required: without alerts or a heartbeat nothing leaves the browser. What those send, to the one
        // address the person typed, is optional and asked for when it is saved (ui/data-consent.ts): what happened
        // in Colab and what the guard did, and a heartbeat's pings while a run goes on (websiteActivity); an error's
        // type or line and Colab's words (websiteContent); the notebook's name and a link to it, only when the person
        // allows the name (browsingActivity). docs/alerts.md and store/privacy.md say the same; keep them together.
        data_collection_permissions: {
          required: ['none' as const],
          optional: ['websiteActivity' as const, 'websiteContent' as const, 'browsingActivity' as const],
        },
      },
      // Firefox for Android gained `data_collection_permissions` in 142.
      gecko_android: { strict_min_version: `${FIREFOX_ANDROID_MIN_VERSION}.0` },
    },
  };
}

/**
 * Vite wraps every dynamic import in a preload helper (~1.3 kB) that adds <link rel=modulepreload> tags to the
 * document. In the Colab page that document is Colab's, and with `modulePreload: false` the helper has nothing to
 * preload anyway: the lazily imported guard loads from the extension's own files. Replace it with a pass-through.
 */
const noPreloadHelper: Plugin = {
  name: 'colab-oom-guard:no-preload-helper',
  enforce: 'pre',
  load(id) {
    if (id === '\0vite/preload-helper.js') return 'export const __vitePreload = (load) => load();';
  },
};

/**
 * Preact's one HTML sink is its `dangerouslySetInnerHTML` prop, which the pages never use (Biome's
 * noDangerouslySetInnerHtml forbids it). Its `innerHTML` assignment is the one warning addons-linter (web-ext lint,
 * and AMO's review) gives the Firefox package, so the bundle gets a throw in its place. The build fails if Preact's
 * code no longer has exactly one such assignment, rather than shipping it unnoticed.
 */
const PREACT_HTML_SINK = /\(\w+\.innerHTML=\w+\.__html\)/g;
const noPreactHtmlSink: Plugin = {
  name: 'colab-oom-guard:no-preact-html-sink',
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]preact[\\/]dist[\\/]preact\.mjs$/.test(id)) return;
    const sinks = code.match(PREACT_HTML_SINK)?.length ?? 0;
    if (sinks !== 1) this.error(`expected one innerHTML assignment in ${id}, found ${sinks}: update noPreactHtmlSink`);
    return code.replace(PREACT_HTML_SINK, '(()=>{throw new Error("dangerouslySetInnerHTML is not supported")})()');
  },
};

export default defineConfig(({ mode }) => {
  const firefox = mode === 'firefox';

  // The output-frame script is a self-contained IIFE: it must be small and run at once in every output frame.
  // The Colab page script is crxjs's loader plus ES-module chunks, so that the guard proper (page/guard.ts) is
  // imported only on notebooks where it is switched on; crxjs declares those chunks web-accessible to Colab only.
  const standaloneFiles = ['src/frame/frame-script.ts'];

  return {
    // Build-time facts, inherited by crxjs's IIFE build of the output-frame script (≤ 15 kB, the polyfill 9.6 kB of
    // it): no AMD loader exists in an extension's contexts, so webextension-polyfill's UMD header folds to its
    // CommonJS branch; the DOM's node-type constants are fixed by the standard, literals instead of property reads.
    define: { define: 'undefined', 'Node.ELEMENT_NODE': '1', 'Node.TEXT_NODE': '3', 'NodeFilter.SHOW_TEXT': '4' },
    plugins: [
      noPreloadHelper,
      noPreactHtmlSink,
      preact(),
      crx({
        manifest: firefox ? firefoxManifest(manifest) : manifest,
        browser: firefox ? 'firefox' : 'chrome',
        contentScripts: { standaloneFiles },
      }),
    ],
    build: {
      outDir: firefox ? 'dist-firefox' : 'dist',
      emptyOutDir: true,
      sourcemap: false,
      target: firefox ? `firefox${FIREFOX_MIN_VERSION}` : 'chrome111',
      // No preload helper around dynamic imports: in the Colab page it would add <link rel=modulepreload> to
      // Colab's document and ship ~1 kB of loader code; the extension's files load from disk anyway.
      modulePreload: false,
      // Extension pages the manifest does not name: the welcome page, opened by the service worker on install.
      rollupOptions: { input: { welcome: 'src/welcome/index.html' } },
    },
  };
});
