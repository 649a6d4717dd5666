// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mount, setRunState, snippet } from '../../test/support/colab-dom';
import { SETTLE_MS } from '../colab';
import { createPageWatch, type WatchReports } from './page-watch';

/**
 * What the page watch reports when Colab says the runtime is gone: why, by Colab's words and by what the cells this
 * page saw run show (a notebook ending its own runtime, REFERENCE.md §12.4).
 */

const CELL = 'T2BNeFUZ1OGZ';
const IDLE = 'Your runtime has been disconnected due to inactivity or reaching its maximum duration.';
const DISALLOWED =
  'Your runtime has been disconnected due to executing code that is disallowed in our free of charge tier.';

let lifetime: AbortController;
let events: string[];

function watch() {
  events = [];
  const reports: WatchReports = {
    failure: (verdict) => events.push(`failure ${verdict.category}`),
    declined: (reason) => events.push(`declined ${reason}`),
    marker: () => undefined,
    disconnect: (kind, text) => events.push(`disconnect ${kind}: ${text}`),
    dialog: (kind, text) => events.push(`dialog ${kind}: ${text}`),
    sight: () => undefined,
    run: { started: () => undefined, ended: () => undefined, busy: () => undefined },
  };
  return createPageWatch(document, reports, lifetime.signal);
}

const cell = () => document.getElementById(`cell-${CELL}`)!;
const settle = () => vi.advanceTimersByTimeAsync(SETTLE_MS);

function setSource(source: string) {
  const editor = cell().querySelector('.monaco-editor')!;
  for (const line of editor.querySelectorAll('.view-line')) line.remove();
  for (const text of source.split('\n')) {
    const [line] = mount('<div class="view-line"><span><span class="mtk1"></span></span></div>', editor);
    line!.querySelector('.mtk1')!.textContent = text.replaceAll(' ', '\u00a0');
  }
}

async function runs(state: 'pending' | 'running animating' | 'stale') {
  setRunState(cell(), state);
  await settle();
}

async function disconnectDialog(body: string): Promise<Element> {
  const [dialog] = mount(
    `<mwc-dialog class="yes-no-dialog" open heading="Runtime disconnected"><div>${body}</div>` +
      '<md-text-button slot="secondaryAction">Close</md-text-button>' +
      '<md-text-button slot="primaryAction">Reconnect</md-text-button></mwc-dialog>',
  );
  await settle();
  return dialog!;
}

async function unableToast() {
  const host = document.getElementById('message-area')!;
  host.setAttribute('labeltext', 'Unable to connect to the runtime.');
  host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
  await settle();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  lifetime = new AbortController();
  mount(snippet('snackbar-message-area-idle-2026-03.html'));
  mount(snippet('code-cell-with-static-output-2026-03.html'));
});

afterEach(() => {
  lifetime.abort();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('disconnect notices: the body decides', () => {
  it('reports each "Runtime disconnected" dialog with what its body says, and Colab\'s words', async () => {
    watch();
    (await disconnectDialog(IDLE)).remove();
    await disconnectDialog(DISALLOWED);
    expect(events).toEqual([
      `disconnect idle: Runtime disconnected ${IDLE}`,
      `disconnect disallowed-code: Runtime disconnected ${DISALLOWED}`,
    ]);
  });

  it('an outage\'s "Unable to connect" toast counts once a cell ran here (before: someone connecting)', async () => {
    watch();
    await unableToast();
    expect(events).toEqual([]);
    await runs('running animating');
    document.getElementById('message-area')!.setAttribute('labeltext', '');
    await settle();
    await unableToast();
    expect(events).toEqual(['disconnect unable-to-connect: Unable to connect to the runtime.']);
  });

  it('a dialog only a person may answer is reported with its text', async () => {
    watch();
    mount(
      '<mwc-dialog open heading="Permit this notebook to access your Google Drive files?">' +
        '<md-text-button slot="primaryAction">Connect to Google Drive</md-text-button></mwc-dialog>',
    );
    await settle();
    expect(events).toEqual(['dialog drive-permission: Permit this notebook to access your Google Drive files?']);
  });
});

describe('a notebook that ends its own runtime (google.colab.runtime.unassign())', () => {
  it('the disconnect after a cell that calls it ran is intended, and stays so until a cell runs again', async () => {
    setSource('from google.colab import runtime\nruntime.unassign()');
    watch();
    await runs('pending');
    await runs('running animating');
    await runs('stale');
    (await disconnectDialog(IDLE)).remove();
    await unableToast(); // someone trying to connect it again
    expect(events.map((event) => event.split(':')[0])).toEqual(['disconnect intended', 'disconnect intended']);
    setSource('train()');
    await runs('stale');
    await runs('running animating');
    (await disconnectDialog(IDLE)).remove();
    expect(events.at(-1)).toMatch(/^disconnect idle:/);
  });

  it('is seen running however short its run (its changes are read at once from its queueing)', async () => {
    setSource('from google.colab import runtime\nruntime.unassign()');
    watch();
    setRunState(cell(), 'pending');
    await vi.advanceTimersByTimeAsync(0);
    setRunState(cell(), 'running animating');
    await vi.advanceTimersByTimeAsync(50);
    // The runtime goes, the cell with it, and Colab says so: all in one task.
    setRunState(cell(), 'stale');
    mount(
      '<mwc-dialog open heading="Runtime disconnected"><div>' +
        IDLE +
        '</div>' +
        '<md-text-button slot="primaryAction">Reconnect</md-text-button></mwc-dialog>',
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(events.map((event) => event.split(':')[0])).toEqual(['disconnect intended']);
  });

  it('a cell merely queued (a Run all that had not reached it) does not end the runtime', async () => {
    setSource('runtime.unassign()');
    watch();
    await runs('pending');
    await disconnectDialog(IDLE);
    expect(events.map((event) => event.split(':')[0])).toEqual(['disconnect idle']);
  });

  it('nor does any notice following it: every notice after the end is intended until a cell runs', async () => {
    setSource('runtime.unassign()');
    watch();
    await runs('running animating');
    (await disconnectDialog('')).remove();
    (await disconnectDialog(IDLE)).remove();
    expect(events.map((event) => event.split(':')[0])).toEqual(['disconnect intended', 'disconnect intended']);
  });

  it("Colab's own reasons keep their names: disallowed code stays disallowed code", async () => {
    setSource('runtime.unassign()');
    watch();
    await runs('running animating');
    await disconnectDialog(DISALLOWED);
    expect(events.map((event) => event.split(':')[0])).toEqual(['disconnect disallowed-code']);
  });

  it('its printed output says so', async () => {
    setSource('finish()');
    watch();
    await runs('running animating');
    mount(
      '<div class="stream output_text"><pre>Unassigning the runtime.</pre></div>',
      document.querySelector('colab-static-output-renderer > div')!,
    );
    await disconnectDialog(IDLE);
    expect(events.map((event) => event.split(':')[0])).toEqual(['disconnect intended']);
  });

  it("the guard's own restart forgets what ran before it", async () => {
    setSource('runtime.unassign()');
    const fx = watch();
    await runs('running animating');
    fx.forgetExecutions();
    await disconnectDialog(IDLE);
    expect(events.map((event) => event.split(':')[0])).toEqual(['disconnect idle']);
  });
});
