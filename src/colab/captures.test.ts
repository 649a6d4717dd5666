// @vitest-environment happy-dom
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCapture, type CaptureFile } from '../../test/support/capture-dom';
import { fakeClosureMenu, mount, recordEvents, setRunState, snippet } from '../../test/support/colab-dom';
import { type PageCapture, PageCaptureSchema } from '../state/page-capture';
import { type ActionOptions, checkUi, restartAndRunAll } from './actions';
import { confirmButtonOf } from './dialogs';
import { findRuntimeButton, findRuntimeMenu } from './runtime-menu';
import { TOAST } from './selectors';

/**
 * Every capture in test/fixtures/captures/ replayed: the page rebuilt from it, and the guard doing there what it did
 * when the capture was taken. A Runtime menu opens and gives its restart item; a dialog that followed the guard's
 * "Restart session and run all" is confirmed; a dialog the guard met otherwise is never clicked; a notice is where
 * the guard watches for one. A capture from "Copy diagnostics" saved there is replayed with no code change: the first
 * real capture of Colab's restart confirmation becomes a test by adding its file.
 */

const DIR = resolve(import.meta.dirname, '../../test/fixtures/captures');
const FAST: ActionOptions = { menuTimeoutMs: 100, dialogTimeoutMs: 150, verifyTimeoutMs: 150 };
const CELL = 'T2BNeFUZ1OGZ';

afterEach(() => {
  document.body.innerHTML = '';
});

/** The rest of the page the actions need: the connect button (connected, idle), one cell whose run can start. */
function pageAround(): () => void {
  mount(snippet('connect-button-connected-2026-03.html'));
  mount(snippet('code-cell-with-static-output-2026-03.html'));
  return () => setTimeout(() => setRunState(document.getElementById(`cell-${CELL}`)!, 'pending'), 5);
}

/**
 * The Runtime menu of `capture` (a runtime-menu capture), else the one of the shared snippet, closed as before the
 * guard opens it, behaving as Closure's does.
 */
function runtimeMenu(capture: PageCapture | undefined, onCommand: (command: string) => void) {
  if (capture) buildCapture(capture.nodes, document.body);
  else mount(snippet('menubar-and-runtime-menu-2026-03.html'));
  const button = findRuntimeButton(document)!;
  const menu = findRuntimeMenu(document, button)!;
  button.setAttribute('aria-expanded', 'false');
  menu.setAttribute('style', 'display: none;');
  return fakeClosureMenu(document, { button, menuId: menu.id, onCommand });
}

async function replayMenu(capture: PageCapture): Promise<void> {
  const startRun = pageAround();
  const fake = runtimeMenu(capture, () => startRun());
  const check = await checkUi(document, FAST);
  expect(check, 'Check Colab UI finds the restart item').toMatchObject({ ok: true, path: 'menu' });
  expect(fake.isOpen(), 'the check closes the menu').toBe(false);
  const result = await restartAndRunAll(document, FAST);
  if (check.ok && check.disabled) {
    // Captured while no runtime was connected: Colab disables the item, and the guard does not choose it.
    expect(result).toMatchObject({ ok: false, failed: { step: 'find-item', reason: 'item-disabled' } });
    expect(fake.commands).toEqual([]);
    return;
  }
  expect(result).toMatchObject({ ok: true, path: 'menu' });
  expect(fake.commands).toEqual(['restart-and-run-all']);
}

/** A dialog that opened right after the guard chose "Restart session and run all": confirmed, once. */
async function replayRestartDialog(capture: PageCapture, menu: PageCapture | undefined): Promise<void> {
  const startRun = pageAround();
  let clicks = 0;
  runtimeMenu(menu, () => {
    const [dialog] = buildCapture(capture.nodes, document.body);
    confirmButtonOf(dialog!)?.addEventListener('click', () => {
      clicks++;
      dialog!.remove();
      startRun();
    });
  });
  const result = await restartAndRunAll(document, FAST);
  expect(result, 'the restart confirmation is confirmed').toMatchObject({ ok: true, dialog: 'confirmed' });
  expect(clicks).toBe(1);
}

/** A dialog the guard met otherwise (one that blocked an action, a person's, a disconnect): never clicked. */
async function replayOtherDialog(capture: PageCapture): Promise<void> {
  pageAround();
  const fake = runtimeMenu(undefined, () => undefined);
  const [dialog] = buildCapture(capture.nodes, document.body);
  const log = recordEvents(dialog!);
  const result = await restartAndRunAll(document, FAST);
  expect(result, 'nothing is done while it is open').toMatchObject({ ok: false, failed: { step: 'precheck' } });
  expect(fake.commands).toEqual([]);
  expect(log, 'none of its buttons pressed').toEqual([]);
}

/** A notice (a toast): the host the toast watcher knows, with the surface whose class says it shows. */
function replayNotice(capture: PageCapture): void {
  for (const host of buildCapture(capture.nodes, document.body)) {
    expect(host.matches(TOAST.host)).toBe(true);
    expect(host.shadowRoot?.querySelector(TOAST.surface)).not.toBeNull();
  }
}

const files = readdirSync(DIR).filter((name) => name.endsWith('.json'));

describe('captures of Colab pages, replayed', () => {
  it('has captures to replay: the ones made from the simulator and the shared snippets at least', () => {
    expect(files.filter((name) => /^(sim|snippet)-/.test(name)).length).toBeGreaterThanOrEqual(8);
  });

  for (const name of files) {
    const { source, captures } = JSON.parse(readFileSync(resolve(DIR, name), 'utf8')) as CaptureFile;
    const menu = captures.find((c) => c.kind === 'runtime-menu');
    describe(`${name} (${source})`, () => {
      it('holds valid captures only', () => {
        expect(captures.length).toBeGreaterThan(0);
        for (const capture of captures) expect(v.is(PageCaptureSchema, capture)).toBe(true);
      });
      for (const [i, capture] of captures.entries()) {
        it(`${i + 1}. the ${capture.kind} met at ${capture.occasion}`, async () => {
          if (capture.kind === 'runtime-menu') await replayMenu(capture);
          else if (capture.kind === 'notice') replayNotice(capture);
          else if (capture.occasion === 'restart') await replayRestartDialog(capture, menu);
          else await replayOtherDialog(capture);
        });
      }
    });
  }
});
