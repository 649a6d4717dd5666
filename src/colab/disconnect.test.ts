// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, snippet, tick } from '../../test/support/colab-dom';
import { classifyDialog, dialogText } from './dialogs';
import {
  awaitReconnect,
  disconnectKind,
  endsOwnRuntime,
  findDisconnectDialog,
  type NoticeKind,
  noticeWords,
  reconnect,
  toastDisconnect,
} from './disconnect';
import { deepQuery } from './dom';

let listeners = new AbortController();

afterEach(() => {
  listeners.abort();
  listeners = new AbortController();
  document.body.innerHTML = '';
});

const IDLE = 'Your runtime has been disconnected due to inactivity or reaching its maximum duration.';
const NEW_RUNTIME = 'To connect to a new runtime, click the connect button below.';
const DISALLOWED =
  'Your runtime has been disconnected due to executing code that is disallowed in our free of charge tier. Colab ' +
  'subsidizes millions of users and prioritizes interactive programming sessions while disallowing some types of ' +
  'usage as outlined in the FAQ. If you believe this message is in error, file an appeal. Please include any ' +
  'relevant context about your usage.';

/**
 * Every disconnect text the REFERENCE (§5.2, §5.3, §12.4) and the public reports it cites show, as the dialog's whole
 * text reads (title, body, buttons), with the kind it must land in. Anything else is 'unknown': left to the person.
 */
const KNOWN: Array<[string, string, NoticeKind]> = [
  ['idle (§5.2)', `Runtime disconnected ${IDLE} ${NEW_RUNTIME} Close Reconnect`, 'idle'],
  [
    'idle, with the free tier upsell (colabtools#2183)',
    `Runtime disconnected ${IDLE} For longer running notebooks, consider upgrading to Colab Pro. ${NEW_RUNTIME}`,
    'idle',
  ],
  [
    'idle, Pro subscriber (colabtools#2613)',
    `Runtime disconnected ${IDLE} As a Colab Pro subscriber you have access to longer runtime durations than ` +
      'non-subscribers do, but durations are still not guaranteed or unlimited.',
    'idle',
  ],
  [
    'idle, Pro variant as §5.2 quotes it',
    'Runtime disconnected The runtime disconnected due to inactivity. As a Colab Pro+ subscriber you have access to ' +
      'longer runtimes. Close Reconnect',
    'idle',
  ],
  [
    'disallowed code, with the zero balance line (fast-stable-diffusion#2622, facefusion-colab#13)',
    `Runtime disconnected ${DISALLOWED} Your compute unit balance is 0. Purchase more ${NEW_RUNTIME} Close Reconnect`,
    'disallowed-code',
  ],
  [
    'disallowed code (fast-stable-diffusion#2704)',
    `Runtime disconnected ${DISALLOWED} ${NEW_RUNTIME}`,
    'disallowed-code',
  ],
  [
    'zero compute units (colabtools#5290)',
    `Runtime disconnected You currently have zero compute units available. ${NEW_RUNTIME} Close Reconnect`,
    'zero-units',
  ],
  ['zero balance', 'Runtime disconnected Your compute unit balance is 0. Purchase more', 'zero-units'],
  [
    'usage limits',
    'Runtime disconnected Your runtime was disconnected because of usage limits in Colab. Close',
    'usage-limit',
  ],
  ['usage limit reached', 'Runtime disconnected You have reached your GPU usage limit. Close', 'usage-limit'],
  ['too many sessions', 'Runtime disconnected Too many sessions are active. Close', 'usage-limit'],
  ['outage, as a toast (§5.1, colabtools#5650)', 'Unable to connect to the runtime.', 'unable-to-connect'],
  [
    'outage, as a dialog',
    'Unable to connect to the runtime Please try again later. Close Reconnect',
    'unable-to-connect',
  ],
  ['title alone', 'Runtime disconnected Close Reconnect', 'unknown'],
  ['a reason nobody listed', 'Runtime disconnected Your runtime was stopped by an administrator. Close', 'unknown'],
  ['the idle dialog in German', 'Laufzeit getrennt Die Laufzeit wurde wegen Inaktivität getrennt.', 'unknown'],
];

describe('disconnectKind: the body decides, most specific first', () => {
  for (const [name, text, kind] of KNOWN) {
    it(`${name} → ${kind}`, () => {
      expect(disconnectKind(text)).toBe(kind);
    });
  }

  it('covers every kind that Colab can name', () => {
    const kinds = new Set(KNOWN.map(([, , kind]) => kind));
    expect([...kinds].sort()).toEqual([
      'disallowed-code',
      'idle',
      'unable-to-connect',
      'unknown',
      'usage-limit',
      'zero-units',
    ]);
  });

  it("reads the outage and Colab's own reasons from a toast: a crash notice is not a disconnect", () => {
    expect(toastDisconnect('Unable to connect to the runtime. Dismiss')).toBe('unable-to-connect');
    expect(toastDisconnect('You currently have zero compute units available.')).toBe('zero-units');
    expect(toastDisconnect('Your session crashed for an unknown reason. View runtime logs')).toBeNull();
    expect(toastDisconnect('Your session crashed after using all available RAM. Get more RAM')).toBeNull();
    expect(toastDisconnect('Runtime disconnected')).toBeNull();
  });
});

const dialog = (body: string, primary = 'Reconnect', title = 'Runtime disconnected') =>
  `<mwc-dialog class="yes-no-dialog" open heading="${title}"><div>${body}</div>` +
  `<md-text-button slot="secondaryAction" dialogaction="cancel">Close</md-text-button>` +
  `<md-text-button slot="primaryAction" dialogaction="ok">${primary}</md-text-button></mwc-dialog>`;

const paperDialog = (body: string) =>
  `<colab-dialog class="yes-no-dialog"><paper-dialog opened><div class="content-area"><h2>Runtime disconnected</h2>` +
  `<div>${body}</div></div><paper-button id="cancel">Close</paper-button><paper-button id="ok">Reconnect` +
  `</paper-button></paper-dialog></colab-dialog>`;

/** Clicks in the page, by the clicked element's text; a click on a dialog's button closes the dialog, as Colab's. */
function clicks(): string[] {
  const log: string[] = [];
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element;
      log.push(target.textContent?.trim() || target.id);
      target.closest('mwc-dialog, colab-dialog')?.remove();
    },
    { capture: true, signal: listeners.signal },
  );
  return log;
}

describe('the "Runtime disconnected" dialogs: one title, their own bodies', () => {
  it('are all disconnect dialogs, but only the idle one is the one to answer', () => {
    for (const [body, kind] of [
      [IDLE, 'idle'],
      [DISALLOWED, 'disallowed-code'],
      ['You currently have zero compute units available.', 'zero-units'],
      ['You cannot currently connect to a GPU due to usage limits in Colab.', 'usage-limit'],
      ['', 'unknown'],
    ] as const) {
      document.body.innerHTML = '';
      const [host] = mount(dialog(body));
      expect(classifyDialog(host!)).toBe('disconnected');
      expect(disconnectKind(dialogText(host!))).toBe(kind);
      expect(findDisconnectDialog(document)).toBe(kind === 'idle' ? host : null);
    }
  });

  it('the disconnect for disallowed code is no longer taken for the "Warning" dialog, nor the other way round', () => {
    const [disconnect] = mount(dialog(DISALLOWED));
    const [warning] = mount(
      dialog('You may be executing code that is disallowed.', 'Cancel execution', 'Warning').replace(
        '>Close<',
        '>Continue anyway<',
      ),
    );
    expect(classifyDialog(disconnect!)).toBe('disconnected');
    expect(classifyDialog(warning!)).toBe('disallowed-code');
  });
});

const connectRoot = () => deepQuery(document, 'colab-connect-button')!.shadowRoot!;
const connectLabel = () => connectRoot().querySelector('#connect, #reconnect')!;
const connectIcon = () => connectRoot().querySelector('#connect-icon md-icon')!;

/** The captured connect button (connected, idle), shown in another state. */
function connectButton(state: 'idle' | 'reconnect' | 'connecting' | 'reconnecting' | 'busy'): void {
  if (!document.querySelector('colab-connect-button')) mount(snippet('connect-button-connected-2026-03.html'));
  const label = { idle: '', reconnect: 'Reconnect', connecting: 'Connecting', reconnecting: 'Reconnecting', busy: '' };
  connectLabel().textContent = label[state];
  connectIcon().textContent = state === 'idle' ? 'done' : 'more_horiz';
  connectRoot()
    .querySelector('#connect-icon')!
    .toggleAttribute('hidden', state === 'reconnect');
}

function toast(text: string): Element {
  mount(snippet('snackbar-message-area-idle-2026-03.html'));
  const host = document.getElementById('message-area')!;
  host.setAttribute('labeltext', text);
  host.shadowRoot!.querySelector('.mdc-snackbar')!.classList.add('mdc-snackbar--open');
  return host;
}

describe('reconnect: what a person clicks after an idle time-out or an outage, nothing else', () => {
  it('clicks Reconnect on the idle dialog, old and new', async () => {
    const log = clicks();
    mount(dialog(IDLE));
    expect(await reconnect(document, 50)).toMatchObject({ ok: true, via: 'dialog' });
    mount(paperDialog(IDLE));
    expect(await reconnect(document, 50)).toMatchObject({ ok: true, via: 'dialog' });
    expect(log).toEqual(['Reconnect', 'Reconnect']);
  });

  it('never touches a disconnect Colab meant, nor one it cannot read, even with a Reconnect button', async () => {
    const log = clicks();
    connectButton('reconnect');
    for (const [body, kind] of [
      [DISALLOWED, 'disallowed-code'],
      ['You currently have zero compute units available.', 'zero-units'],
      ['You have reached your usage limit.', 'usage-limit'],
      ['', 'unknown'],
    ]) {
      const [host] = mount(dialog(body!));
      expect(await reconnect(document, 50)).toMatchObject({
        ok: false,
        failed: {
          step: 'reconnect',
          reason: 'dialog-open',
          saw: `disconnected (${kind})`,
        },
      });
      host!.remove();
    }
    expect(log).toEqual([]);
  });

  it("clicks an outage dialog's Retry", async () => {
    const log = clicks();
    mount(dialog('Please try again later.', 'Retry', 'Unable to connect to the runtime'));
    expect(await reconnect(document, 50)).toMatchObject({ ok: true, via: 'dialog' });
    expect(log).toEqual(['Retry']);
  });

  it('never clicks a primary button that is not Reconnect', async () => {
    const log = clicks();
    for (const label of ['Disconnect', 'Disconnect and delete runtime', 'Connect without GPU']) {
      document.body.innerHTML = '';
      mount(dialog(IDLE, label));
      expect(await reconnect(document, 50)).toMatchObject({ ok: false });
    }
    expect(log).toEqual([]);
  });

  it('with no dialog open, clicks the connect button only while it shows "Reconnect"', async () => {
    const log = clicks();
    connectButton('reconnect');
    expect(await reconnect(document)).toMatchObject({ ok: true, via: 'connect-button' });
    expect(log).toEqual(['Reconnect']);
  });

  it('finds nothing to do while the runtime is connected, busy or (re)connecting', async () => {
    const log = clicks();
    for (const state of ['idle', 'busy', 'connecting', 'reconnecting'] as const) {
      connectButton(state);
      expect(await reconnect(document)).toMatchObject({
        ok: false,
        failed: { step: 'reconnect', reason: 'not-needed' },
      });
    }
    expect(log).toEqual([]);
  });

  it('leaves any other open dialog alone', async () => {
    const log = clicks();
    connectButton('reconnect');
    mount(
      dialog(
        'This notebook is requesting access to your Google Drive files.',
        'Connect to Google Drive',
        'Permit this notebook to access your Google Drive files?',
      ),
    );
    expect(await reconnect(document)).toMatchObject({
      ok: false,
      failed: { step: 'reconnect', reason: 'dialog-open', saw: 'drive-permission' },
    });
    expect(log).toEqual([]);
  });
});

describe('awaitReconnect', () => {
  const started = async () => {
    const start = await reconnect(document);
    if (!start.ok) throw new Error(start.failed.reason);
    return start.before;
  };

  it('resolves once the connect button shows the runtime connected', async () => {
    connectButton('reconnect');
    const before = await started();
    const outcome = awaitReconnect(document, before, 2000);
    connectButton('connecting');
    await tick();
    connectButton('idle');
    expect(await outcome).toEqual({ ok: true });
  });

  it('ends as unable to connect when the button goes back to "Reconnect" after "Connecting"', async () => {
    connectButton('reconnect');
    const outcome = awaitReconnect(document, await started(), 2000);
    connectButton('connecting');
    await tick();
    connectButton('reconnect');
    expect(await outcome).toMatchObject({ ok: false, failed: { step: 'reconnect', reason: 'unable-to-connect' } });
  });

  it('ends as unable to connect on a new "Unable to connect" toast, not on one shown before', async () => {
    connectButton('reconnect');
    const host = toast('Unable to connect to the runtime.');
    const outcome = awaitReconnect(document, await started(), 200);
    host.setAttribute('labeltext', 'Unable to connect to the runtime. Retrying failed.');
    expect(await outcome).toMatchObject({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'unable-to-connect',
        saw: expect.stringContaining('Retrying'),
      },
    });
    document.body.innerHTML = '';
    connectButton('reconnect');
    toast('Unable to connect to the runtime.');
    expect(await awaitReconnect(document, await started(), 100)).toMatchObject({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'runtime-not-ready',
      },
    });
  });

  it('ends as unable to connect when Colab shows the disconnect dialog again, stops at any other', async () => {
    connectButton('reconnect');
    let outcome = awaitReconnect(document, await started(), 2000);
    mount(dialog(IDLE));
    expect(await outcome).toMatchObject({ ok: false, failed: { step: 'reconnect', reason: 'unable-to-connect' } });
    document.body.innerHTML = '';
    connectButton('reconnect');
    outcome = awaitReconnect(document, await started(), 2000);
    mount(dialog(DISALLOWED));
    expect(await outcome).toMatchObject({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'dialog-open',
        saw: expect.stringContaining('disallowed-code'),
      },
    });
  });
});

describe('endsOwnRuntime: google.colab.runtime.unassign() (§12.4)', () => {
  const cell = (source: string, output = '') =>
    mount(
      `<div class="cell code" id="cell-x"><div class="editor">${source
        .split('\n')
        .map((line) => `<div class="view-line"><span>${line.replaceAll(' ', '\u00a0')}</span></div>`)
        .join('')}</div><div class="output"><colab-static-output-renderer><div class="stream output_text"><pre>` +
        `${output}</pre></div></colab-static-output-renderer></div></div>`,
    )[0]!;

  it('in the source, however it was imported', () => {
    expect(endsOwnRuntime(cell('from google.colab import runtime\nruntime.unassign()'))).toBe(true);
    expect(endsOwnRuntime(cell('import google.colab\ngoogle.colab.runtime.unassign()'))).toBe(true);
    expect(endsOwnRuntime(cell('from google.colab.runtime import unassign\nunassign ()'))).toBe(true);
    expect(endsOwnRuntime(cell('def finish():\n    runtime.unassign()'))).toBe(true);
  });

  it('in the output the page shows', () => {
    expect(endsOwnRuntime(cell('finish_training()', 'Saved. Unassigning the runtime to save compute units.'))).toBe(
      true,
    );
    expect(endsOwnRuntime(cell('finish_training()', 'called google.colab.runtime.unassign'))).toBe(true);
  });

  it('not for cells that merely talk about runtimes', () => {
    expect(endsOwnRuntime(cell('print("runtime assigned")', 'runtime assigned'))).toBe(false);
    expect(endsOwnRuntime(cell('train(unassigned_labels)'))).toBe(false);
  });
});

describe("what a disconnect notice says, for the person: the dialog's words without its buttons", () => {
  it('reads the title and the body of the new dialog, past the comments Lit leaves in it', () => {
    const [host] = mount(dialog(`<!--?lit$1$-->${IDLE}<!----> <span><!--?lit$1$-->${NEW_RUNTIME}</span>`));
    expect(noticeWords(host!)).toBe(`Runtime disconnected ${IDLE} ${NEW_RUNTIME}`);
  });

  it("reads the old dialog's title from its heading element", () => {
    const [host] = mount(paperDialog(IDLE));
    expect(noticeWords(host!)).toBe(`Runtime disconnected ${IDLE}`);
  });

  it('falls back to the whole text when the buttons are all a dialog says', () => {
    const [host] = mount(
      '<mwc-dialog open><md-text-button slot="primaryAction">Reconnect</md-text-button></mwc-dialog>',
    );
    expect(noticeWords(host!)).toBe(dialogText(host!));
    expect(noticeWords(host!)).toContain('Reconnect');
  });

  it("is read by toastDisconnect too when a toast gives Colab's disallowed-code reason", () => {
    expect(toastDisconnect(DISALLOWED)).toBe('disallowed-code');
  });
});

describe('reconnect: every refusal says why', () => {
  /** Clicks, counted, that do not close anything: a dialog that stays open. */
  function stuckClicks(): string[] {
    const log: string[] = [];
    document.addEventListener('click', (event) => log.push((event.target as Element).textContent?.trim() ?? ''), {
      capture: true,
      signal: listeners.signal,
    });
    return log;
  }

  it('names every other dialog open, one after the other', async () => {
    mount(dialog(DISALLOWED));
    mount(dialog('This notebook is requesting access to your Google Drive files.', 'Connect to Google Drive', 'Drive'));
    expect(await reconnect(document, 50)).toMatchObject({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'dialog-open',
        saw: 'disconnected (disallowed-code), drive-permission',
      },
    });
  });

  it('never answers a dialog that is no disconnect, even one that speaks of inactivity', async () => {
    const log = clicks();
    connectButton('reconnect');
    mount(dialog('Your runtime will be disconnected due to inactivity.', 'Reconnect', 'Are you still there?'));
    expect(findDisconnectDialog(document)).toBeNull();
    expect(await reconnect(document, 50)).toMatchObject({
      ok: false,
      failed: { step: 'reconnect', reason: 'dialog-open' },
    });
    expect(log).toEqual([]);
  });

  it('leaves the idle dialog alone when its Reconnect is disabled or missing', async () => {
    const log = stuckClicks();
    mount(dialog(IDLE).replace('dialogaction="ok"', 'dialogaction="ok" disabled'));
    expect(await reconnect(document, 50)).toMatchObject({
      ok: false,
      failed: { step: 'reconnect', reason: 'no-reconnect-button' },
    });
    document.body.innerHTML = '';
    mount(
      `<mwc-dialog open heading="Runtime disconnected"><div>${IDLE}</div>` +
        '<md-text-button slot="secondaryAction" dialogaction="cancel">Close</md-text-button></mwc-dialog>',
    );
    expect(await reconnect(document, 50)).toMatchObject({
      ok: false,
      failed: { step: 'reconnect', reason: 'no-reconnect-button' },
    });
    expect(log).toEqual([]);
  });

  it('says which label it refused, and when a dialog stayed open after its Reconnect', async () => {
    mount(dialog(IDLE, 'Disconnect'));
    expect(await reconnect(document, 50)).toEqual({
      ok: false,
      failed: { step: 'reconnect', reason: 'unexpected-label', saw: 'Disconnect' },
    });
    document.body.innerHTML = '';
    const log = stuckClicks();
    mount(dialog(IDLE));
    expect(await reconnect(document, 50)).toEqual({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'no-reconnect-button',
        saw: 'the dialog stayed open after "Reconnect" was clicked',
      },
    });
    expect(log).toEqual(['Reconnect']);
  });

  it('says the connect button is missing, or in which state it needs nothing', async () => {
    expect(await reconnect(document)).toEqual({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'no-connect-button',
        saw: 'no colab-connect-button',
      },
    });
    connectButton('idle');
    expect(await reconnect(document)).toEqual({
      ok: false,
      failed: { step: 'reconnect', reason: 'not-needed', saw: 'runtime idle' },
    });
  });

  it('never clicks a connect button it cannot read: not rendered yet, or showing an unknown state', async () => {
    const log = stuckClicks();
    mount('<colab-connect-button></colab-connect-button>');
    deepQuery(document, 'colab-connect-button')!.attachShadow({ mode: 'open' });
    expect(await reconnect(document)).toEqual({
      ok: false,
      failed: { step: 'reconnect', reason: 'runtime-unreadable', saw: 'connect button: ""' },
    });
    document.body.innerHTML = '';
    connectButton('idle');
    connectIcon().textContent = 'error';
    expect(await reconnect(document)).toMatchObject({
      ok: false,
      failed: { step: 'reconnect', reason: 'runtime-unreadable' },
    });
    expect(log).toEqual([]);
  });

  it('never clicks a connect button whose shown label is dangerous or no reconnect, whatever its text', async () => {
    const log = stuckClicks();
    connectButton('reconnect');
    for (const label of ['Disconnect and delete runtime', 'Runtime options']) {
      connectLabel().setAttribute('label', label);
      expect(await reconnect(document)).toEqual({
        ok: false,
        failed: { step: 'reconnect', reason: 'unexpected-label', saw: label },
      });
    }
    expect(log).toEqual([]);
  });

  it('reads toasts that are not rendered yet as none', async () => {
    connectButton('reconnect');
    mount('<colab-snackbar></colab-snackbar>');
    const empty = mount('<colab-snackbar></colab-snackbar>')[0]!;
    empty.attachShadow({ mode: 'open' });
    expect(await reconnect(document)).toMatchObject({ ok: true, via: 'connect-button' });
  });
});

describe('awaitReconnect: every outcome', () => {
  const nothingBefore = () => ({ dialogs: new Set<Element>(), toasts: new Set<string>() });

  it('resolves once the runtime connects busy, running cells at once', async () => {
    connectButton('reconnect');
    const outcome = awaitReconnect(document, nothingBefore(), 2000);
    connectButton('connecting');
    await tick();
    connectButton('busy');
    expect(await outcome).toEqual({ ok: true });
  });

  it('says the button showed "Reconnect" again', async () => {
    connectButton('reconnect');
    const outcome = awaitReconnect(document, nothingBefore(), 2000);
    connectButton('connecting');
    await tick();
    connectButton('reconnect');
    expect(await outcome).toEqual({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'unable-to-connect',
        saw: 'the connect button showed "Reconnect" again',
      },
    });
  });

  it('takes the outage toast shown again, after it closed, for a new one', async () => {
    connectButton('reconnect');
    const host = toast('Unable to connect to the runtime.');
    const surface = host.shadowRoot!.querySelector('.mdc-snackbar')!;
    surface.classList.remove('mdc-snackbar--open');
    const start = await reconnect(document);
    if (!start.ok) throw new Error(start.failed.reason);
    const outcome = awaitReconnect(document, start.before, 2000);
    surface.classList.add('mdc-snackbar--open');
    expect(await outcome).toMatchObject({ ok: false, failed: { step: 'reconnect', reason: 'unable-to-connect' } });
  });

  it('says in which state the runtime was when time ran out', async () => {
    connectButton('reconnect');
    expect(await awaitReconnect(document, nothingBefore(), 50)).toEqual({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'runtime-not-ready',
        saw: 'runtime disconnected after 50 ms',
      },
    });
    document.body.innerHTML = '';
    expect(await awaitReconnect(document, nothingBefore(), 50)).toEqual({
      ok: false,
      failed: {
        step: 'reconnect',
        reason: 'runtime-not-ready',
        saw: 'runtime unknown after 50 ms',
      },
    });
  });
});
