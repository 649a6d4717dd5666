/**
 * The first line of every end-to-end run (Playwright's globalSetup, in Chromium's and Firefox's configs): what the
 * results below are about. docs/testing.md, "What the tests prove", says the rest.
 */
export const SIMULATOR_NOTICE =
  'These tests drive a simulated Colab (e2e/colab-sim/), built from public evidence ' +
  '(test/fixtures/colab-dom/REFERENCE.md, each fact with its confidence), not Colab itself.';

export default function simulatorNotice(): void {
  console.log(SIMULATOR_NOTICE);
}
