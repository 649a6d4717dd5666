import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkWorkflows } from './check-workflows.mjs';

const WORKFLOWS = path.resolve(import.meta.dirname, '../.github/workflows');

let dir;
/** A copy of the repository's workflows, in a .github/workflows of its own, with `edit` applied to one file. */
function workflowsWith(file, edit) {
  const root = mkdtempSync(path.join(tmpdir(), 'workflows-'));
  dir = path.join(root, '.github/workflows');
  cpSync(WORKFLOWS, dir, { recursive: true });
  writeFileSync(path.join(dir, file), edit(readFileSync(path.join(dir, file), 'utf8')));
  return dir;
}
afterEach(() => {
  if (dir) rmSync(path.dirname(path.dirname(dir)), { recursive: true, force: true });
  dir = undefined;
});

describe("the repository's workflows", () => {
  it('pass actionlint and the project rules', async () => {
    expect(await checkWorkflows()).toEqual([]);
  }, 30_000);

  it('fail on what actionlint finds: an unknown input of actions/checkout', async () => {
    const problems = await checkWorkflows(
      workflowsWith('ci.yml', (text) =>
        text.replace(
          '- uses: actions/checkout@v4',
          '- uses: actions/checkout@v4\n        with:\n          fetch-deep: 0',
        ),
      ),
    );
    expect(problems.join('\n')).toMatch(/input "fetch-deep" is not defined in action "actions\/checkout@v4"/);
  }, 30_000);

  it('fail on a secret read where GitHub does not allow it', async () => {
    const problems = await checkWorkflows(
      workflowsWith('release.yml', (text) =>
        text.replace("if: env.AMO_JWT_ISSUER != ''", "if: secrets.AMO_JWT_ISSUER != ''"),
      ),
    );
    expect(problems.join('\n')).toMatch(/context "secrets" is not allowed here/);
  }, 30_000);

  it('fail when the release no longer waits for the tests or runs on tags', async () => {
    const problems = await checkWorkflows(
      workflowsWith('release.yml', (text) => text.replace("tags: ['v*']", "branches: ['main']")),
    );
    expect(problems).toContain('release.yml: not run on version tags (v*)');
  }, 30_000);

  it('fail when CI stops running the test command', async () => {
    const problems = await checkWorkflows(workflowsWith('ci.yml', (text) => text.replace('bash .ci/run', 'npm ci')));
    expect(problems).toContain('ci.yml: no step runs `bash .ci/run`');
  }, 30_000);
});
