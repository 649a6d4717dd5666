#!/usr/bin/env node
// Zips the built extension for each browser into release/:
//   dist/          -> release/colab-oom-guard-chrome-<version>.zip   (Chrome Web Store, or unzip and "Load unpacked")
//   dist-firefox/  -> release/colab-oom-guard-firefox-<version>.zip  (addons.mozilla.org)
//
// Run through `npm run package`, which builds both first (`npm run build`, then `npm run lint:firefox`, which builds
// dist-firefox/ and fails on any web-ext lint error). Zipping uses web-ext's `build` command, already a dev dependency,
// so no zip library or system `zip` is needed. web-ext leaves out dot files, *.zip and *.xpi.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webExt from 'web-ext';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const releaseDir = path.join(root, 'release');
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));

const targets = [
  {
    browser: 'chrome',
    dir: 'dist',
    check: (m) => typeof m.background?.service_worker === 'string' || 'no background.service_worker',
  },
  {
    browser: 'firefox',
    dir: 'dist-firefox',
    check: (m) =>
      Array.isArray(m.background?.scripts) && !m.background.service_worker
        ? typeof m.browser_specific_settings?.gecko?.id === 'string' || 'no browser_specific_settings.gecko.id'
        : 'no background.scripts (or a service_worker Firefox would reject)',
  },
];

/** Fails when a build is missing, stale (another version) or built for the other browser. */
async function readBuiltManifest({ browser, dir, check }) {
  const file = path.join(root, dir, 'manifest.json');
  let manifest;
  try {
    manifest = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `${dir}/manifest.json is missing or invalid: build ${browser} first (npm run package does). ${error}`,
    );
  }
  if (manifest.version !== pkg.version) {
    throw new Error(`${dir}/ is version ${manifest.version}, package.json is ${pkg.version}: rebuild it.`);
  }
  const verdict = check(manifest);
  if (verdict !== true) throw new Error(`${dir}/ is not a ${browser} build: ${verdict}.`);
  return manifest;
}

for (const target of targets) {
  const manifestData = await readBuiltManifest(target);
  const filename = `${pkg.name}-${target.browser}-${pkg.version}.zip`;
  const { extensionPath } = await webExt.cmd.build(
    { sourceDir: path.join(root, target.dir), artifactsDir: releaseDir, filename, overwriteDest: true },
    { manifestData, showReadyMessage: false },
  );
  const { size } = await stat(extensionPath);
  console.log(`${target.browser.padEnd(8)} ${path.relative(root, extensionPath)}  (${(size / 1024).toFixed(1)} kB)`);
}
