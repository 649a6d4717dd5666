#!/usr/bin/env node
// Writes the release files into release/:
//   dist/          -> colab-oom-guard-chrome-<version>.zip        (unzip, then "Load unpacked"; the manifest's key pins
//                                                                  the extension id, so an update keeps its storage)
//   dist/          -> colab-oom-guard-chrome-store-<version>.zip  (the Chrome Web Store's upload: the same without
//                                                                  `key`, which the store refuses; it has its own)
//   dist-firefox/  -> colab-oom-guard-firefox-<version>.xpi       (addons.mozilla.org, or Install Add-on From File)
//   the sources    -> colab-oom-guard-source-<version>.tar.gz     (git archive of HEAD with SOURCE-BUILD.md, for
//                                                                  AMO's reviewers; see source-build.mjs)
//
// Run through `npm run package`, which builds both first (`npm run build`, then `npm run lint:firefox`, which builds
// dist-firefox/ and fails on any web-ext lint warning). Zipping uses web-ext's `build` command, already a dev
// dependency, so no zip library or system `zip` is needed. web-ext leaves out dot files, *.zip and *.xpi.
// The source archive is written only from a clean work tree (it holds HEAD, which must be what was built), and only
// after building both packages from the archive itself gave the same files.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import webExt from 'web-ext';
import { rebuildDifferences, sourceBuildNotes, systemName } from './source-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const releaseDir = path.join(root, 'release');
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));

const targets = [
  {
    browser: 'chrome',
    dir: 'dist',
    check: (m) =>
      typeof m.background?.service_worker === 'string'
        ? typeof m.key === 'string' || 'no key (the pinned extension id)'
        : 'no background.service_worker',
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

/** Zips `sourceDir` into release/`filename` with web-ext, and says where and how big. */
async function zip(sourceDir, filename, manifestData, label) {
  const { extensionPath } = await webExt.cmd.build(
    { sourceDir, artifactsDir: releaseDir, filename, overwriteDest: true },
    { manifestData, showReadyMessage: false },
  );
  const { size } = await stat(extensionPath);
  console.log(`${label.padEnd(13)} ${path.relative(root, extensionPath)}  (${(size / 1024).toFixed(1)} kB)`);
}

/** dist/ without the manifest's `key`, in a folder of its own, for the Chrome Web Store. */
async function withoutKey(dir, manifest) {
  const staged = await mkdtemp(path.join(tmpdir(), 'colab-oom-guard-store-'));
  await cp(dir, staged, { recursive: true });
  const { key: _pinnedId, ...storeManifest } = manifest;
  await writeFile(path.join(staged, 'manifest.json'), JSON.stringify(storeManifest));
  return { staged, storeManifest };
}

const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();

/** The source archive, rebuilt and compared before it is kept; skipped (with a reason) from a changed work tree. */
async function sourceArchive() {
  const changed = git('status', '--porcelain');
  if (changed) {
    console.log(
      `source        not written: the work tree has changes (commit them; the archive holds HEAD):\n${changed}`,
    );
    return;
  }
  const prefix = `${pkg.name}-${pkg.version}`;
  const archive = path.join(releaseDir, `${pkg.name}-source-${pkg.version}.tar.gz`);
  const npmVersion = /npm\/(\S+)/.exec(process.env.npm_config_user_agent ?? '')?.[1] ?? 'unknown';
  const notes = sourceBuildNotes({
    version: pkg.version,
    commit: git('rev-parse', 'HEAD'),
    system: systemName(),
    node: process.version,
    npm: npmVersion,
    dependencies: pkg.dependencies,
  });
  git(
    'archive',
    '--format=tar.gz',
    `--prefix=${prefix}/`,
    `--add-virtual-file=${prefix}/SOURCE-BUILD.md:${notes}`,
    '-o',
    archive,
    'HEAD',
  );
  const differ = rebuildDifferences({
    archive,
    prefix,
    root,
    builds: {
      dist: { builtDir: path.join(root, 'dist') },
      'dist-firefox': { mode: 'firefox', builtDir: path.join(root, 'dist-firefox') },
    },
  });
  if (differ.length > 0) {
    await rm(archive);
    throw new Error(`Building from the source archive gives other files than the packages:\n${differ.join('\n')}`);
  }
  const { size } = await stat(archive);
  console.log(`source        ${path.relative(root, archive)}  (${(size / 1024).toFixed(1)} kB; rebuilt: identical)`);
}

const [chrome, firefox] = await Promise.all(targets.map(readBuiltManifest));
const chromeDir = path.join(root, 'dist');
await zip(chromeDir, `${pkg.name}-chrome-${pkg.version}.zip`, chrome, 'chrome');
const { staged, storeManifest } = await withoutKey(chromeDir, chrome);
try {
  await zip(staged, `${pkg.name}-chrome-store-${pkg.version}.zip`, storeManifest, 'chrome store');
} finally {
  await rm(staged, { recursive: true, force: true });
}
await zip(path.join(root, 'dist-firefox'), `${pkg.name}-firefox-${pkg.version}.xpi`, firefox, 'firefox');
await sourceArchive();
