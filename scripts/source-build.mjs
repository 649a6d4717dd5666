// The source archive that `npm run package` writes for addons.mozilla.org's reviewers (and anyone who wants to
// rebuild a release): the tagged sources from `git archive`, with SOURCE-BUILD.md saying how to rebuild the packages
// byte for byte. Mozilla asks for the operating system and tools, their versions, and the steps; its reviewers
// rebuild and diff, so package.mjs rebuilds both packages from the archive itself and refuses one that differs.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { release, tmpdir, type } from 'node:os';
import path from 'node:path';

/** SOURCE-BUILD.md for `version` at `commit`, naming the system, Node.js and npm that built the release. */
export function sourceBuildNotes({ version, commit, system, node, npm, dependencies }) {
  const libraries = Object.keys(dependencies)
    .sort()
    .map((name) => `\`${name}\``)
    .join(', ');
  return `# Building Colab OOM Guard ${version} from this source

This archive holds the sources of Colab OOM Guard ${version}, git commit \`${commit}\`. The packages are built
from them by Vite: TypeScript and Preact components are compiled, bundled with their npm dependencies, and minified.
Nothing is obfuscated, and the build downloads nothing but the npm packages.

| Package | Built into | Archive of it |
| --- | --- | --- |
| Firefox | \`dist-firefox/\` | \`colab-oom-guard-firefox-${version}.xpi\` |
| Chrome | \`dist/\` | \`colab-oom-guard-chrome-${version}.zip\` |

## What you need

- Linux, macOS or Windows with [Node.js](https://nodejs.org/) 20 or later and the npm that comes with it. The
  release was built on ${system} with Node.js ${node} and npm ${npm}.
- Access to the npm registry for \`npm ci\`, which installs the exact versions pinned in \`package-lock.json\`.
- Nothing else: no browser, no global packages, no environment variables.

## Build

In this folder:

\`\`\`sh
npm ci
npm run build:firefox   # writes dist-firefox/, the files of the Firefox package
npm run build           # writes dist/, the files of the Chrome package
\`\`\`

To compare with the published Firefox package:

\`\`\`sh
mkdir xpi && cd xpi && unzip -q ../colab-oom-guard-firefox-${version}.xpi && cd ..
diff -r xpi dist-firefox && echo identical
\`\`\`

## What the build does

- \`vite.config.ts\` is the whole configuration: Vite with \`@crxjs/vite-plugin\` (the manifest's entries) and
  \`@preact/preset-vite\` (JSX). \`manifest.json\` is the Chrome manifest; the Firefox one is generated from it in
  \`vite.config.ts\` (\`firefoxManifest\`: a background script instead of a service worker, the Gecko id and versions,
  no Chrome \`key\`). The version comes from \`package.json\`.
- Our code is in \`src/\`; \`public/\` (icons, \`_locales/\`) is copied as it is.
- Third-party code in the bundles comes from npm, at the versions in \`package-lock.json\`: ${libraries}.
- One change is made to third-party code: Preact's one \`innerHTML\` assignment, which implements its
  \`dangerouslySetInnerHTML\` prop, is replaced by a throw (\`noPreactHtmlSink\` in \`vite.config.ts\`). The extension
  never uses that prop, and its linter forbids it.

\`npm run package\` checked, before this archive was published, that building from this archive gives both packages'
files byte for byte.
`;
}

/** The system's name as /etc/os-release gives it ("Ubuntu 24.04.1 LTS"), else the kernel's. */
export function systemName() {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (pretty) return pretty;
  } catch {
    // Not Linux: no /etc/os-release.
  }
  return `${type()} ${release()}`;
}

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = path.join(prefix, entry.name);
      return entry.isDirectory() ? filesUnder(dir, relative) : [relative];
    })
    .sort();
}

/** The files that differ between two folders (missing on either side, or other bytes). */
export function differences(expectedDir, actualDir) {
  const expected = filesUnder(expectedDir);
  const actual = filesUnder(actualDir);
  const all = [...new Set([...expected, ...actual])].sort();
  return all.filter((file) => {
    if (!expected.includes(file) || !actual.includes(file)) return true;
    return !readFileSync(path.join(expectedDir, file)).equals(readFileSync(path.join(actualDir, file)));
  });
}

/**
 * Unpacks `archive` (whose files sit under `prefix`), builds both packages there with the repository's node_modules
 * (the same versions `npm ci` would install) and compares them with `builds` ({ outDir: builtDir }). Returns the
 * files that differ, by package; empty when the archive rebuilds the packages exactly.
 */
export function rebuildDifferences({ archive, prefix, root, builds }) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'colab-oom-guard-source-'));
  try {
    execFileSync('tar', ['-xzf', archive, '-C', scratch]);
    const source = path.join(scratch, prefix);
    symlinkSync(path.join(root, 'node_modules'), path.join(source, 'node_modules'), 'junction');
    const vite = path.join(root, 'node_modules/vite/bin/vite.js');
    const found = [];
    for (const [outDir, { mode, builtDir }] of Object.entries(builds)) {
      const modeArgs = mode ? ['--mode', mode] : [];
      execFileSync(process.execPath, [vite, 'build', ...modeArgs, '--logLevel', 'error'], {
        cwd: source,
        stdio: 'ignore',
      });
      found.push(...differences(builtDir, path.join(source, outDir)).map((file) => `${outDir}/${file}`));
    }
    return found;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
