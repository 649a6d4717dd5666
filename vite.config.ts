import { defineConfig } from 'vite';
import { crx } from '@crxjs/vite-plugin';
import preact from '@preact/preset-vite';
import manifestSource from './manifest.json' with { type: 'json' };
import pkg from './package.json' with { type: 'json' };

// The version lives in package.json only; manifest.json carries a placeholder.
const manifest = { ...manifestSource, version: pkg.version };

// Content scripts are built as self-contained IIFEs: no loader, no extra chunk
// requests from the Colab page, and nothing web-accessible to fingerprint.
const contentScripts = manifest.content_scripts.flatMap((script) => script.js);

export default defineConfig({
  plugins: [preact(), crx({ manifest, contentScripts: { standaloneFiles: contentScripts } })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'chrome111',
  },
});
