// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mount } from '../../test/support/colab-dom';
import { personOnlyDialog } from '../ui/dialog-words';
import {
  classifyDialog,
  classifyOpenDialogs,
  clickDialogButton,
  confirmButtonOf,
  confirmRestartDialog,
  type DialogKind,
  declineHighRamOffer,
  dialogHost,
  isDialogOpening,
  isEnglishUi,
  isOpenDialog,
  openDialogs,
} from './dialogs';

let listeners = new AbortController();

afterEach(() => {
  vi.useRealTimers();
  listeners.abort();
  listeners = new AbortController();
  document.body.innerHTML = '';
  document.documentElement.removeAttribute('lang');
  history.replaceState(null, '', '/');
});

/** Replicas of each era of §2's table, with the restart texts §2 expects (title "Restart session?", yes/no). */
const ERAS = {
  'mwc-dialog + md-text-button (2024-12 →)':
    `
    <mwc-dialog class="yes-no-dialog" open heading="Restart session?"><template shadowmode="open">` +
    `<div class="mdc-dialog mdc-dialog--open" role="alertdialog"><h2 id="title">Restart session?</h2><slot></slot>` +
    `<slot name="secondaryAction"></slot><slot name="primaryAction"></slot></div></template>
      <div>Are you sure you want to restart the runtime? Runtime state including all local variables will be lost.</div>
      <md-text-button slot="secondaryAction" dialogaction="cancel">No</md-text-button>
      <md-text-button id="confirm" slot="primaryAction" dialogaction="ok">Yes</md-text-button>
    </mwc-dialog>`,
  'mwc-dialog + mwc-button (2023-02 → 2024-12)': `
    <mwc-dialog class="yes-no-dialog" open heading="Restart runtime?">
      <div>Are you sure you want to restart the runtime?</div>
      <mwc-button slot="secondaryAction" dialogaction="cancel" label="No"></mwc-button>
      <mwc-button id="confirm" slot="primaryAction" dialogaction="ok" label="Yes"></mwc-button>
    </mwc-dialog>`,
  'md-dialog with [slot=actions]':
    `
    <md-dialog open>
      <div slot="headline">Restart session?</div>
      <form slot="content" id="f" method="dialog">Runtime state including all local variables will be lost.</form>
      <div slot="actions"><md-text-button form="f" value="cancel">Cancel</md-text-button>` +
    `<md-text-button id="confirm" form="f" value="ok">Yes</md-text-button></div>
    </md-dialog>`,
  'md-dialog, filled confirm without value':
    `
    <md-dialog open>
      <div slot="headline">Restart session?</div>
      <div slot="actions"><md-text-button value="cancel">Cancel</md-text-button>` +
    `<md-filled-button id="confirm">Restart</md-filled-button></div>
    </md-dialog>`,
  'colab-dialog + paper-dialog (≤ 2023-02)': `
    <colab-dialog><paper-dialog class="yes-no-dialog" opened>
      <div class="content-area"><h2>Restart runtime?</h2><div>Are you sure you want to restart the runtime?</div></div>
      <div class="buttons"><paper-button id="cancel">NO</paper-button><paper-button id="ok">YES</paper-button></div>
    </paper-dialog></colab-dialog>`,
  'bare MDC dialog':
    `
    <div class="mdc-dialog mdc-dialog--open" role="alertdialog"><h2 class="mdc-dialog__title">Restart session?</h2>
      <button data-mdc-dialog-action="close">Cancel</button>` +
    `<button id="confirm" data-mdc-dialog-action="accept">OK</button></div>`,
};

const DIALOG_ELEMENTS = 'mwc-dialog, md-dialog, colab-dialog, paper-dialog, .mdc-dialog';

/**
 * Records the clicks in the page. Like Colab's dialog components, a click on a dialog's button closes that dialog
 * (unless `closes` is false, for a dialog that swallows the click).
 */
function clicks({ closes = true } = {}): string[] {
  const log: string[] = [];
  document.addEventListener(
    'click',
    (e) => {
      const target = e.target as Element;
      log.push(target.id || target.localName);
      const dialog = target.closest(DIALOG_ELEMENTS);
      if (closes && dialog && dialog !== target) dialogHost(dialog).remove();
    },
    { capture: true, signal: listeners.signal },
  );
  return log;
}

describe('confirmRestartDialog in every dialog era', () => {
  for (const [era, html] of Object.entries(ERAS)) {
    it(`confirms ${era} by the attribute-chosen button`, async () => {
      const log = clicks();
      mount(html);
      const outcome = await confirmRestartDialog(document, { timeoutMs: 200 });
      expect(outcome).toMatchObject({ outcome: 'confirmed', rule: 'english-text' });
      expect(log).toEqual([era.includes('paper') ? 'ok' : 'confirm']);
    });
  }

  it('waits for a dialog that appears after the call', async () => {
    const log = clicks();
    const pending = confirmRestartDialog(document, { timeoutMs: 1000 });
    setTimeout(() => mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']), 10);
    expect(await pending).toMatchObject({ outcome: 'confirmed' });
    expect(log).toEqual(['confirm']);
  });

  it('reads the title that Lit renders into the shadow root after opening', async () => {
    clicks();
    const [dialog] = mount(
      '<mwc-dialog open><md-text-button id="confirm" slot="primaryAction">Yes</md-text-button></mwc-dialog>',
    );
    dialog!.querySelector('md-text-button')!.textContent = '';
    dialog!.attachShadow({ mode: 'open' });
    setTimeout(() => {
      dialog!.shadowRoot!.innerHTML = '<h2 id="title">Restart session?</h2>';
    }, 20);
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'confirmed',
      rule: 'english-text',
    });
  });

  it('reports no dialog within the timeout', async () => {
    expect(await confirmRestartDialog(document, { timeoutMs: 30 })).toEqual({ outcome: 'no-dialog' });
  });

  it('ignores a dialog that was already open before the action', async () => {
    const [dialog] = mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    const log = clicks();
    expect(await confirmRestartDialog(document, { timeoutMs: 30, before: [dialog!] })).toEqual({
      outcome: 'no-dialog',
    });
    expect(log).toEqual([]);
  });
});

const OTHERS = {
  'gpu-quota':
    `<mwc-dialog open heading="Cannot connect to GPU backend">` +
    `<div>You cannot currently connect to a GPU due to usage limits in Colab.</div>
      <md-text-button slot="secondaryAction">Close</md-text-button>` +
    `<md-text-button slot="primaryAction" dialogaction="ok">Connect without GPU</md-text-button></mwc-dialog>`,
  disconnected:
    `<mwc-dialog open heading="Runtime disconnected">` +
    `<div>Your runtime has been disconnected due to inactivity or reaching its maximum duration.</div>
      <md-text-button slot="secondaryAction">Close</md-text-button>` +
    `<md-text-button id="reconnect" slot="primaryAction">Reconnect</md-text-button></mwc-dialog>`,
  'old disconnected':
    `<colab-dialog class="yes-no-dialog"><paper-dialog opened><div class="content-area">` +
    `<h2>Runtime disconnected</h2></div>
      <paper-button id="cancel">Close</paper-button><paper-button id="ok">Reconnect</paper-button></paper-dialog>` +
    `</colab-dialog>`,
  recaptcha:
    `<colab-recaptcha-dialog><template shadowmode="open"><mwc-dialog open><mwc-button slot="primaryAction" ` +
    `dialogaction="ok" label="OK"></mwc-button></mwc-dialog></template></colab-recaptcha-dialog>`,
  'usage-limit':
    `<mwc-dialog open heading="Too many sessions"><md-text-button slot="primaryAction">Restart ` +
    `anyway</md-text-button></mwc-dialog>`,
  'not authored':
    `<mwc-dialog open heading="Warning: This notebook was not authored by Google">` +
    `<form id="external-notebook-authored-dialog"></form>
      <md-text-button slot="secondaryAction">Cancel</md-text-button>` +
    `<md-filled-button slot="primaryAction">Run anyway</md-filled-button></mwc-dialog>`,
  'delete runtime':
    `<mwc-dialog open heading="Disconnect and delete runtime"><md-text-button ` +
    `slot="primaryAction">Yes</md-text-button></mwc-dialog>`,
  'change runtime type':
    `<mwc-dialog class="change-runtime-type" open heading="Change runtime ` +
    `type"><md-text-button slot="primaryAction">Save</md-text-button></mwc-dialog>`,
  'pip restart warning':
    `<mwc-dialog class="yes-no-dialog" open heading="Restart session">` +
    `<div>WARNING: The following packages were previously imported in this runtime: [numpy] ` +
    `You must restart the runtime in order to use newly installed versions.</div>
      <md-text-button slot="secondaryAction" dialogaction="cancel">Cancel</md-text-button>` +
    `<md-text-button slot="primaryAction" dialogaction="ok">Restart session</md-text-button></mwc-dialog>`,
  'drive permission':
    `<mwc-dialog class="yes-no-dialog" open heading="Permit this notebook to access your Google Drive files?">` +
    `<div>This notebook is requesting access to your Google Drive files.</div>
      <md-text-button slot="secondaryAction" dialogaction="cancel">No, thanks</md-text-button>` +
    `<md-text-button slot="primaryAction" dialogaction="ok">Connect to Google Drive</md-text-button></mwc-dialog>`,
  'new runtime required':
    `<mwc-dialog class="yes-no-dialog" open heading="New runtime required">` +
    `<md-text-button slot="primaryAction" dialogaction="ok">Assign new runtime</md-text-button></mwc-dialog>`,
  'disallowed code':
    `<mwc-dialog class="yes-no-dialog" open heading="Warning"><div>You may be executing code that is disallowed, ` +
    `and this may restrict your ability to use Colab in the future.</div>
      <md-text-button slot="secondaryAction" dialogaction="cancel">Continue anyway</md-text-button>` +
    `<md-text-button slot="primaryAction" dialogaction="ok">Cancel execution</md-text-button></mwc-dialog>`,
  'runtime attributes':
    `<mwc-dialog class="change-runtime-type" open heading="Change runtime type"><div>Changing runtime attributes ` +
    `may terminate your current session.</div><md-text-button slot="primaryAction">Save</md-text-button></mwc-dialog>`,
  'cannot save':
    `<mwc-dialog class="yes-no-dialog" open heading="Cannot save changes">` +
    `<md-text-button slot="primaryAction" dialogaction="ok">OK</md-text-button></mwc-dialog>`,
  'high-RAM offer':
    `<mwc-dialog class="yes-no-dialog" open heading="Switch to a high-RAM runtime?"><div>Your session crashed ` +
    `after using all available RAM.</div><md-text-button slot="primaryAction">Yes</md-text-button></mwc-dialog>`,
};

type Other = keyof typeof OTHERS;

describe('dialogs that are not the restart confirmation are refused, never clicked', () => {
  const expected: Record<keyof typeof OTHERS, DialogKind> = {
    'gpu-quota': 'gpu-quota',
    disconnected: 'disconnected',
    'old disconnected': 'disconnected',
    recaptcha: 'recaptcha',
    'usage-limit': 'usage-limit',
    'not authored': 'not-authored',
    'delete runtime': 'delete-runtime',
    'change runtime type': 'change-runtime-type',
    'pip restart warning': 'pip-restart',
    'drive permission': 'drive-permission',
    'new runtime required': 'new-runtime-required',
    'disallowed code': 'disallowed-code',
    'runtime attributes': 'change-runtime-type',
    'cannot save': 'cannot-save',
    'high-RAM offer': 'high-ram-offer',
  };
  for (const [name, html] of Object.entries(OTHERS)) {
    it(name, async () => {
      const log = clicks();
      mount(html);
      const outcome = await confirmRestartDialog(document, { timeoutMs: 100 });
      expect(outcome).toMatchObject({ outcome: 'refused', reason: 'other-dialog', kind: expected[name as Other] });
      expect(log).toEqual([]);
    });
  }

  it('refuses an English dialog that does not read like a restart confirmation', async () => {
    mount(
      '<mwc-dialog open heading="Save changes?"><md-text-button slot="primaryAction">Yes</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'refused',
      reason: 'unrecognised-dialog',
      kind: 'unknown',
    });
  });

  it('refuses a confirm button that is disabled or labelled as a cancel', async () => {
    mount(
      '<mwc-dialog open heading="Restart session?"><md-text-button slot="primaryAction" ' +
        'disabled>Yes</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'refused',
      reason: 'confirm-disabled',
    });
    document.body.innerHTML = '';
    mount(
      '<mwc-dialog open heading="Restart session?"><md-text-button ' +
        'slot="primaryAction">Cancel</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'refused',
      reason: 'confirm-looks-like-cancel',
    });
    document.body.innerHTML = '';
    mount(
      '<mwc-dialog open heading="Restart session?"><md-text-button ' +
        'slot="primaryAction">Terminate</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'refused',
      reason: 'confirm-looks-dangerous',
    });
  });

  it('refuses when no button is marked as the confirming one', async () => {
    mount(
      '<md-dialog open><div slot="headline">Restart session?</div><div ' +
        'slot="actions"><md-text-button>No</md-text-button><md-text-button>Yes</md-text-button></div></md-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'refused',
      reason: 'no-confirm-button',
    });
  });
});

describe('non-English UI', () => {
  const JA =
    '<mwc-dialog open heading="セッションを再起動しますか？"><md-text-button ' +
    'slot="secondaryAction">いいえ</md-text-button><md-text-button id="confirm" ' +
    'slot="primaryAction">はい</md-text-button></mwc-dialog>';

  it('confirms an unreadable dialog that appeared right after our action', async () => {
    const log = clicks();
    mount(JA);
    expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false })).toMatchObject({
      outcome: 'confirmed',
      rule: 'right-after-action',
    });
    expect(log).toEqual(['confirm']);
  });

  it('takes the UI language from <html lang> by default', async () => {
    clicks();
    document.documentElement.lang = 'ja';
    mount(JA);
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({ outcome: 'confirmed' });
  });

  it('takes the UI language from ?hl= before <html lang>', () => {
    document.documentElement.lang = 'en';
    history.replaceState(null, '', '/drive/abc?hl=pt-BR');
    expect(isEnglishUi(document)).toBe(false);
    history.replaceState(null, '', '/drive/abc?hl=en_GB');
    document.documentElement.lang = 'ja';
    expect(isEnglishUi(document)).toBe(true);
    history.replaceState(null, '', '/drive/abc');
    expect(isEnglishUi(document)).toBe(false);
    document.documentElement.lang = 'not a language tag';
    expect(isEnglishUi(document)).toBe(true);
  });

  it('refuses one that offers no choice: the confirmation is a yes/no dialog, a one-button notice is not', async () => {
    const log = clicks();
    mount(
      '<mwc-dialog open heading="変更を保存できません"><md-text-button slot="primaryAction" dialogaction="ok">OK' +
        '</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false })).toMatchObject({
      outcome: 'refused',
      reason: 'no-choice',
    });
    expect(log).toEqual([]);
  });

  it('refuses one that appeared long after the action', async () => {
    mount(JA);
    expect(
      await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false, since: Date.now() - 4000 }),
    ).toMatchObject({ outcome: 'refused', reason: 'late-dialog' });
  });

  it('still refuses known dialogs by their markers', async () => {
    mount(
      '<mwc-dialog class="change-runtime-type" open heading="ランタイムのタイプを変更"><md-text-button ' +
        'slot="primaryAction">保存</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false })).toMatchObject({
      outcome: 'refused',
      reason: 'other-dialog',
    });
  });

  it('refuses dialogs naming GPU, RAM, Google or Colab Pro, which a restart confirmation never does', async () => {
    const others = [
      ['Keine Verbindung zum GPU-Backend möglich', 'Ohne GPU verbinden'],
      ['Zu einer Laufzeit mit viel RAM wechseln?', 'Ja'],
      ['Warnung: Dieses Notebook wurde nicht von Google erstellt', 'Trotzdem ausführen'],
      ['使用量の上限に達しました。Colab Pro にアップグレード', 'アップグレード'],
    ];
    const log = clicks();
    for (const [title, ok] of others) {
      mount(
        `<mwc-dialog open heading="${title}"><md-text-button slot="primaryAction" ` +
          `dialogaction="ok">${ok}</md-text-button></mwc-dialog>`,
      );
      expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false }), title).toMatchObject({
        outcome: 'refused',
        reason: 'other-dialog',
      });
      document.body.innerHTML = '';
    }
    expect(log).toEqual([]);
  });

  it('the same dialog in an English UI is unrecognised', async () => {
    mount(JA);
    expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: true })).toMatchObject({
      outcome: 'refused',
      reason: 'unrecognised-dialog',
    });
  });
});

describe('finding and classifying open dialogs', () => {
  it('lists each open dialog once, inner MDC surfaces and wrapped paper-dialogs mapped to their host', () => {
    mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    mount(ERAS['colab-dialog + paper-dialog (≤ 2023-02)']);
    mount('<mwc-dialog heading="closed"></mwc-dialog><colab-dialog><paper-dialog></paper-dialog></colab-dialog>');
    expect(openDialogs(document).map((d) => d.localName)).toEqual(['mwc-dialog', 'colab-dialog']);
  });

  it('classifies each kind', () => {
    mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    for (const html of Object.values(OTHERS)) mount(html);
    expect(classifyOpenDialogs(document).map((d) => d.kind)).toEqual([
      'restart-confirm',
      'gpu-quota',
      'disconnected',
      'disconnected',
      'recaptcha',
      'usage-limit',
      'not-authored',
      'delete-runtime',
      'change-runtime-type',
      'pip-restart',
      'drive-permission',
      'new-runtime-required',
      'disallowed-code',
      'change-runtime-type',
      'cannot-save',
      'high-ram-offer',
    ]);
  });

  it('chooses the confirm button by attributes', () => {
    const [d] = mount(OTHERS['gpu-quota']);
    expect(confirmButtonOf(d!)?.textContent).toBe('Connect without GPU');
    expect(classifyDialog(d!)).toBe('gpu-quota');
  });
});

describe('the pip warning, whose title and button say "Restart session" (§11.2)', () => {
  it('is refused right after our action, in every form its text takes', async () => {
    const log = clicks();
    const variants = [
      OTHERS['pip restart warning'],
      OTHERS['pip restart warning'].replace('heading="Restart session"', 'heading="Restart session?"'),
      // The body in the shadow root only, as Lit may render it.
      '<mwc-dialog open heading="Restart session"><template shadowmode="open"><div>The following packages were ' +
        'previously imported in this runtime</div></template><md-text-button slot="primaryAction" ' +
        'dialogaction="ok">Restart session</md-text-button></mwc-dialog>',
    ];
    for (const html of variants) {
      mount(html);
      expect(await confirmRestartDialog(document, { timeoutMs: 100, since: Date.now() })).toMatchObject({
        outcome: 'refused',
        reason: 'other-dialog',
        kind: 'pip-restart',
      });
      document.body.innerHTML = '';
    }
    expect(log).toEqual([]);
  });
});

describe('dialogs only a person may answer', () => {
  it('names the words for each, and none for the restart confirmation or the dialogs a person opens', () => {
    const words = (html: string) => {
      document.body.innerHTML = '';
      const [dialog] = mount(html);
      return personOnlyDialog(classifyDialog(dialog!));
    };
    expect(words(OTHERS['drive permission'])).toBe('noticeDrivePermission');
    expect(words(OTHERS['new runtime required'])).toBe('noticeNewRuntime');
    expect(words(OTHERS['disallowed code'])).toBe('noticeDisallowedCode');
    expect(words(OTHERS['cannot save'])).toBe('noticeCannotSave');
    expect(words(OTHERS.recaptcha)).toBe('noticeRecaptcha');
    expect(words(OTHERS['usage-limit'])).toBe('noticeUsageLimit');
    expect(words(OTHERS['gpu-quota'])).toBe('noticeGpuQuota');
    expect(words(OTHERS['not authored'])).toBe('noticeNotAuthored');
    expect(words(OTHERS['pip restart warning'])).toBe('noticePipRestart');
    for (const mine of ['restart-confirm', 'disconnected', 'change-runtime-type', 'delete-runtime'] as const) {
      expect(personOnlyDialog(mine), mine).toBeNull();
    }
    expect(personOnlyDialog('high-ram-offer')).toBeNull();
    expect(personOnlyDialog('unknown')).toBeNull();
  });
});

describe('a dialog still in its opening animation (colab-dialog-opening, §11.2)', () => {
  /** A dialog that loses clicks while it carries the opening class, and closes on a click otherwise. */
  function openingDialog(openingMs: number | null) {
    const [dialog] = mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    dialog!.classList.add('colab-dialog-opening');
    if (openingMs !== null) setTimeout(() => dialog!.classList.remove('colab-dialog-opening'), openingMs);
    const seen = { lost: 0, taken: 0 };
    dialog!.addEventListener('click', () => {
      if (dialog!.classList.contains('colab-dialog-opening')) seen.lost++;
      else {
        seen.taken++;
        dialog!.removeAttribute('open');
      }
    });
    return { dialog: dialog!, seen };
  }

  it('waits for the class to go (observed), clicks once, and sees the dialog close', async () => {
    const { seen } = openingDialog(60);
    const outcome = await confirmRestartDialog(document, { timeoutMs: 100, settleMs: 1000 });
    expect(outcome).toMatchObject({ outcome: 'confirmed', rule: 'english-text' });
    expect(seen).toEqual({ lost: 0, taken: 1 });
  });

  it('clicks once at the bound when the animation never ends, and reports a dialog that stayed open', async () => {
    const { dialog, seen } = openingDialog(null);
    expect(isDialogOpening(dialog)).toBe(true);
    const outcome = await confirmRestartDialog(document, { timeoutMs: 100, settleMs: 80 });
    expect(outcome).toMatchObject({ outcome: 'stayed-open', kind: 'restart-confirm' });
    expect(seen).toEqual({ lost: 1, taken: 0 });
    expect(dialog.hasAttribute('open')).toBe(true);
  });

  it('sees the class inside the dialog too, and a dialog that closes by leaving the page', async () => {
    const [dialog] = mount(
      '<mwc-dialog open heading="Restart session?"><template shadowmode="open"><div class="mdc-dialog ' +
        'colab-dialog-opening"></div></template><md-text-button slot="primaryAction">Yes</md-text-button></mwc-dialog>',
    );
    expect(isDialogOpening(dialog!)).toBe(true);
    const button = dialog!.querySelector('md-text-button')!;
    button.addEventListener('click', () => dialog!.remove());
    setTimeout(() => dialog!.shadowRoot!.firstElementChild!.classList.remove('colab-dialog-opening'), 30);
    expect(await clickDialogButton(dialog!, button, 1000)).toBe(true);
  });

  it('clicks as soon as the class inside the dialog goes, not at the bound', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const [dialog] = mount(
      '<mwc-dialog open heading="Restart session?"><template shadowmode="open"><div class="mdc-dialog ' +
        'colab-dialog-opening"></div></template><md-text-button slot="primaryAction">Yes</md-text-button></mwc-dialog>',
    );
    let clickedAt: number | null = null;
    const start = Date.now();
    dialog!.querySelector('md-text-button')!.addEventListener('click', () => {
      clickedAt = Date.now() - start;
      dialog!.removeAttribute('open');
    });
    setTimeout(() => dialog!.shadowRoot!.firstElementChild!.classList.remove('colab-dialog-opening'), 30);
    const closed = clickDialogButton(dialog!, dialog!.querySelector('md-text-button')!, 3000);
    await vi.advanceTimersByTimeAsync(100);
    expect(clickedAt).toBe(30);
    expect(await closed).toBe(true);
  });

  it('declines the high-RAM offer only once it has opened', async () => {
    const [offer] = mount(
      OTHERS['high-RAM offer'].replace(
        '<md-text-button slot="primaryAction">',
        '<md-text-button slot="secondaryAction" dialogaction="cancel">No</md-text-button><md-text-button ' +
          'slot="primaryAction">',
      ),
    );
    offer!.classList.add('colab-dialog-opening');
    setTimeout(() => offer!.classList.remove('colab-dialog-opening'), 40);
    const pressed: string[] = [];
    offer!.addEventListener('click', (e) => {
      if (offer!.classList.contains('colab-dialog-opening')) return;
      pressed.push((e.target as Element).textContent ?? '');
      offer!.removeAttribute('open');
    });
    expect(await declineHighRamOffer(document, 1000)).toBe(true);
    expect(pressed).toEqual(['No']);
  });
});

describe('what a refusal says, and the waits when nobody names them', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names the dialog (element and id), when it came after the action, and what it read, cut', async () => {
    mount(
      '<mwc-dialog id="save" open heading="Save changes?"><md-text-button slot="primaryAction">Yes</md-text-button>',
    );
    const since = Date.now() - 1234;
    const outcome = await confirmRestartDialog(document, { timeoutMs: 100, since });
    expect(outcome).toMatchObject({ outcome: 'refused', reason: 'unrecognised-dialog' });
    expect(outcome.outcome === 'refused' && outcome.saw).toMatch(
      /^mwc-dialog#save after 12\d\d ms: "Save changes\? Yes"$/,
    );
    document.body.innerHTML = '';
    mount(`<md-dialog open><div slot="headline">Keep ${'going '.repeat(100)}</div></md-dialog>`);
    const long = await confirmRestartDialog(document, { timeoutMs: 100, since: Date.now() });
    expect(long.outcome === 'refused' && long.saw).toMatch(/^md-dialog after \d+ ms: "Keep going going/);
    expect(long.outcome === 'refused' && long.saw.length).toBeLessThan(360);
  });

  it('waits 5 s for the dialog to appear, no longer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    clicks();
    const inTime = confirmRestartDialog(document);
    await vi.advanceTimersByTimeAsync(4900);
    mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    await vi.advanceTimersByTimeAsync(400);
    expect(await inTime).toMatchObject({ outcome: 'confirmed' });
    document.body.innerHTML = '';
    const late = confirmRestartDialog(document);
    await vi.advanceTimersByTimeAsync(5100);
    mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    await vi.advanceTimersByTimeAsync(400);
    expect(await late).toEqual({ outcome: 'no-dialog' });
  });

  it('takes an unreadable dialog as ours within 2 s of the action, not after', async () => {
    const JA =
      '<mwc-dialog open heading="セッションを再起動しますか？"><md-text-button slot="secondaryAction">いいえ' +
      '</md-text-button><md-text-button id="confirm" slot="primaryAction">はい</md-text-button></mwc-dialog>';
    clicks();
    mount(JA);
    const soon = await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false, since: Date.now() - 1800 });
    expect(soon).toMatchObject({ outcome: 'confirmed', rule: 'right-after-action' });
    mount(JA);
    const late = await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false, since: Date.now() - 2200 });
    expect(late).toMatchObject({ outcome: 'refused', reason: 'late-dialog' });
  });

  it('gives a click 3 s to close the dialog before saying it stayed open', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    clicks({ closes: false });
    mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    let outcome: unknown;
    void confirmRestartDialog(document, { timeoutMs: 100 }).then((o) => {
      outcome = o;
    });
    await vi.advanceTimersByTimeAsync(2900);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(outcome).toMatchObject({ outcome: 'stayed-open', kind: 'restart-confirm' });
  });

  it('gives the high-RAM offer 3 s to close after its No, then says it did not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    clicks({ closes: false });
    mount(
      OTHERS['high-RAM offer'].replace(
        '<md-text-button slot="primaryAction">',
        '<md-text-button slot="secondaryAction" dialogaction="cancel">No</md-text-button><md-text-button ' +
          'slot="primaryAction">',
      ),
    );
    let declined: boolean | undefined;
    void declineHighRamOffer(document).then((done) => {
      declined = done;
    });
    await vi.advanceTimersByTimeAsync(2900);
    expect(declined).toBeUndefined();
    await vi.advanceTimersByTimeAsync(200);
    expect(declined).toBe(false);
  });
});

describe('the forms a dialog and its buttons take', () => {
  const restart = (actions: string) =>
    `<md-dialog open><div slot="headline">Restart session?</div>${actions}</md-dialog>`;

  it('a colab-dialog wrapper holding no inner dialog is open while it is shown (§2 wrappers)', () => {
    const [shown, hidden] = mount(
      '<colab-dialog><h2>Runtime disconnected</h2></colab-dialog>' +
        '<colab-dialog hidden><h2>Runtime disconnected</h2></colab-dialog>',
    );
    expect(openDialogs(document)).toEqual([shown]);
    expect(openDialogs(document)).not.toContain(hidden);
  });

  it("a dialog rendered in another component's shadow root is that dialog, not the component", () => {
    const [app] = mount('<colab-shell></colab-shell>');
    app!.attachShadow({ mode: 'open' }).innerHTML =
      '<mwc-dialog open heading="Runtime disconnected"><md-text-button slot="primaryAction">Reconnect' +
      '</md-text-button></mwc-dialog>';
    const [found] = openDialogs(document);
    expect(found?.localName).toBe('mwc-dialog');
    expect(classifyDialog(found!)).toBe('disconnected');
  });

  it("says what it read with mwc-button's labels, kept in an attribute", () => {
    mount(ERAS['mwc-dialog + mwc-button (2023-02 → 2024-12)']);
    expect(classifyOpenDialogs(document).map(({ kind, text }) => ({ kind, text }))).toEqual([
      { kind: 'restart-confirm', text: 'Restart runtime? Are you sure you want to restart the runtime? No Yes' },
    ]);
  });

  it('reads a button label rendered only in its shadow root', async () => {
    const [dialog] = mount(
      '<mwc-dialog open heading="Restart session?"><md-text-button slot="primaryAction"></md-text-button></mwc-dialog>',
    );
    dialog!.querySelector('md-text-button')!.attachShadow({ mode: 'open' }).innerHTML = '<span>Cancel</span>';
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'refused',
      reason: 'confirm-looks-like-cancel',
    });
  });

  it('refuses a confirm button disabled the Material Web way (soft-disabled) or by aria-disabled', async () => {
    for (const disabled of ['soft-disabled', 'aria-disabled="true"']) {
      const log = clicks();
      document.body.innerHTML = '';
      mount(
        `<mwc-dialog open heading="Restart session?"><md-text-button slot="secondaryAction">No</md-text-button>` +
          `<md-text-button slot="primaryAction" ${disabled}>Yes</md-text-button></mwc-dialog>`,
      );
      expect(await confirmRestartDialog(document, { timeoutMs: 100 }), disabled).toMatchObject({
        outcome: 'refused',
        reason: 'confirm-disabled',
      });
      expect(log).toEqual([]);
    }
  });

  it('knows a dialog by a marker inside it, whatever its words (a reCAPTCHA widget in a Japanese dialog)', () => {
    const [dialog] = mount(
      '<mwc-dialog open heading="ロボットではないことを確認してください"><div class="g-recaptcha"></div>' +
        '<md-text-button slot="primaryAction">OK</md-text-button></mwc-dialog>',
    );
    expect(classifyDialog(dialog!)).toBe('recaptcha');
  });

  it('finds the one confirming button of an md-dialog whose actions sit in a form inside the actions slot', () => {
    const [dialog] = mount(
      restart(
        '<div slot="actions"><form method="dialog"><md-text-button value="cancel">Cancel</md-text-button>' +
          '<md-text-button id="go">Restart</md-text-button></form></div>',
      ),
    );
    expect(confirmButtonOf(dialog!)?.id).toBe('go');
  });

  it('among several buttons takes the one submit button, else the one filled button, never a guess', () => {
    const pick = (actions: string) => {
      document.body.innerHTML = '';
      const [dialog] = mount(restart(`<div slot="actions">${actions}</div>`));
      return confirmButtonOf(dialog!)?.id ?? null;
    };
    expect(
      pick('<md-text-button id="a">Later</md-text-button><md-text-button id="b" type="submit">Yes</md-text-button>'),
    ).toBe('b');
    expect(pick('<md-text-button id="a">Later</md-text-button><md-filled-button id="b">Yes</md-filled-button>')).toBe(
      'b',
    );
    expect(
      pick('<md-filled-button id="a">Later</md-filled-button><md-filled-button id="b">Yes</md-filled-button>'),
    ).toBeNull();
    expect(pick('<button id="a" type="submit">Later</button><button id="b" type="submit">Yes</button>')).toBeNull();
  });

  it('stops waiting as soon as a run starts, seen in a run button shadow root (no dialog needed then)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const [button] = mount('<colab-run-button></colab-run-button>');
      const root = button!.attachShadow({ mode: 'open' });
      root.innerHTML = '<div class="cell-execution"></div>';
      const state = root.firstElementChild!;
      let outcome: unknown;
      void confirmRestartDialog(document, {
        timeoutMs: 5000,
        runStarted: () => state.classList.contains('running'),
      }).then((o) => {
        outcome = o;
      });
      await vi.advanceTimersByTimeAsync(100);
      state.classList.add('running');
      await vi.advanceTimersByTimeAsync(10);
      expect(outcome).toEqual({ outcome: 'no-dialog' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the high-RAM offer is declined only by its own No, and the edges of the judgement', () => {
  const offer = (no: string) =>
    OTHERS['high-RAM offer'].replace(
      '<md-text-button slot="primaryAction">',
      `${no}<md-text-button slot="primaryAction">`,
    );

  it('clicks nothing when the offer has no enabled button both marked and labelled as the cancel', async () => {
    for (const no of [
      '<md-text-button slot="secondaryAction" dialogaction="cancel" disabled>No</md-text-button>',
      '<md-text-button slot="secondaryAction" dialogaction="cancel">Switch</md-text-button>',
      '<md-text-button>No</md-text-button>',
    ]) {
      document.body.innerHTML = '';
      const log = clicks();
      mount(offer(no));
      expect(await declineHighRamOffer(document, 50), no).toBe(false);
      expect(log, no).toEqual([]);
    }
  });

  it("clicks nothing when no offer is open, even a yes/no dialog's No", async () => {
    const log = clicks();
    mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    expect(await declineHighRamOffer(document, 50)).toBe(false);
    expect(log).toEqual([]);
  });

  it('declines the offer beside another open dialog', async () => {
    const log = clicks();
    mount(ERAS['mwc-dialog + md-text-button (2024-12 →)']);
    mount(offer('<md-text-button id="no" slot="secondaryAction" dialogaction="cancel">No</md-text-button>'));
    expect(await declineHighRamOffer(document, 200)).toBe(true);
    expect(log).toEqual(['no']);
  });

  it('names a known dialog with no kind of its own (the sessions list) unknown, and refuses it', async () => {
    const [sessions] = mount(
      '<mwc-dialog id="sessions-dialog" open heading="Active sessions"><md-text-button slot="primaryAction">' +
        'Close</md-text-button></mwc-dialog>',
    );
    expect(classifyDialog(sessions!)).toBe('unknown');
    expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false })).toMatchObject({
      outcome: 'refused',
      reason: 'other-dialog',
      kind: 'unknown',
    });
  });

  it('a dialog on an English page showing no words is judged as an unreadable one: by time and choice', async () => {
    const log = clicks();
    mount(
      '<mwc-dialog open><md-text-button slot="secondaryAction"></md-text-button>' +
        '<md-text-button id="confirm" slot="primaryAction"></md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: true })).toMatchObject({
      outcome: 'confirmed',
      rule: 'right-after-action',
    });
    expect(log).toEqual(['confirm']);
  });

  it('an unreadable dialog exactly 2 s after the action is still ours', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      clicks();
      mount(
        '<mwc-dialog open heading="セッションを再起動しますか？"><md-text-button slot="secondaryAction">いいえ' +
          '</md-text-button><md-text-button slot="primaryAction">はい</md-text-button></mwc-dialog>',
      );
      const since = Date.now() - 2000;
      expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false, since })).toMatchObject({
        outcome: 'confirmed',
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('says at most 300 characters of what an open dialog reads', () => {
    mount(`<mwc-dialog open heading="Runtime disconnected">${'Reconnect to continue. '.repeat(30)}</mwc-dialog>`);
    const [found] = classifyOpenDialogs(document);
    expect(found?.kind).toBe('disconnected');
    expect(found?.text).toHaveLength(300);
    expect(found?.text.startsWith('Runtime disconnected Reconnect to continue.')).toBe(true);
  });

  it('declines an offer whose No is an mwc-button (2023-24), its label kept in an attribute', async () => {
    const log = clicks();
    mount(offer('<mwc-button id="no" slot="secondaryAction" dialogaction="cancel" label="No"></mwc-button>'));
    expect(await declineHighRamOffer(document, 200)).toBe(true);
    expect(log).toEqual(['no']);
  });

  it('a wrapper whose inner dialog is open while its MDC surface is still opening is open', () => {
    const [wrapper] = mount(
      '<colab-dialog><mwc-dialog open heading="Runtime disconnected"><template shadowmode="open">' +
        '<div class="mdc-dialog mdc-dialog--opening" role="alertdialog"></div></template></mwc-dialog></colab-dialog>',
    );
    expect(openDialogs(document)).toEqual([wrapper]);
    expect(isOpenDialog(wrapper!)).toBe(true);
  });

  it('an English restart confirmation is judged by its words, even naming the GPU', async () => {
    const log = clicks();
    mount(
      '<mwc-dialog open heading="Restart session?"><div>Runtime state including all local variables will be lost. ' +
        'GPU memory is freed.</div><md-text-button slot="secondaryAction">No</md-text-button>' +
        '<md-text-button id="confirm" slot="primaryAction">Yes</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({
      outcome: 'confirmed',
      rule: 'english-text',
    });
    expect(log).toEqual(['confirm']);
  });

  it("sees the title Lit renders into the dialog's shadow root as it comes, not at the end of the wait", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      clicks();
      const [dialog] = mount(
        '<mwc-dialog open><md-text-button slot="secondaryAction"></md-text-button>' +
          '<md-text-button id="confirm" slot="primaryAction"></md-text-button></mwc-dialog>',
      );
      const root = dialog!.attachShadow({ mode: 'open' });
      let outcome: unknown;
      void confirmRestartDialog(document, { timeoutMs: 100 }).then((o) => {
        outcome = o;
      });
      await vi.advanceTimersByTimeAsync(20);
      root.innerHTML = '<h2 id="title">Save changes?</h2>';
      await vi.advanceTimersByTimeAsync(20);
      expect(outcome).toMatchObject({ outcome: 'refused', reason: 'unrecognised-dialog' });
    } finally {
      vi.useRealTimers();
    }
  });
});
