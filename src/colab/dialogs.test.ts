// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, tick } from '../../test/support/colab-dom';
import {
  classifyDialog,
  classifyOpenDialogs,
  confirmButtonOf,
  confirmRestartDialog,
  findDisconnectDialog,
  openDialogs,
  reconnect,
} from './dialogs';

afterEach(() => {
  document.body.innerHTML = '';
  document.documentElement.removeAttribute('lang');
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

function clicks(): string[] {
  const log: string[] = [];
  document.addEventListener(
    'click',
    (e) => log.push((e.target as Element).id || (e.target as Element).localName),
    true,
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
    `<mwc-dialog open heading="Restart session?">` +
    `<div>WARNING: The following packages were previously imported in this runtime. ` +
    `You must restart the runtime in order to use newly installed versions.</div>
      <md-text-button slot="primaryAction">Restart session</md-text-button></mwc-dialog>`,
};

describe('dialogs that are not the restart confirmation are refused, never clicked', () => {
  const expected: Record<string, string> = {
    'gpu-quota': 'gpu-quota',
    disconnected: 'disconnected',
    'old disconnected': 'disconnected',
    recaptcha: 'recaptcha',
    'usage-limit': 'usage-limit',
    'not authored': 'unknown',
    'delete runtime': 'unknown',
    'change runtime type': 'unknown',
    'pip restart warning': 'unknown',
  };
  for (const [name, html] of Object.entries(OTHERS)) {
    it(name, async () => {
      const log = clicks();
      mount(html);
      const outcome = await confirmRestartDialog(document, { timeoutMs: 100 });
      expect(outcome).toMatchObject({ outcome: 'refused', reason: 'other-dialog', kind: expected[name] });
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
    document.documentElement.lang = 'ja';
    mount(JA);
    expect(await confirmRestartDialog(document, { timeoutMs: 100 })).toMatchObject({ outcome: 'confirmed' });
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
      'unknown',
      'unknown',
      'unknown',
      'unknown',
    ]);
  });

  it('chooses the confirm button by attributes', () => {
    const [d] = mount(OTHERS['gpu-quota']);
    expect(confirmButtonOf(d!)?.textContent).toBe('Connect without GPU');
    expect(classifyDialog(d!)).toBe('gpu-quota');
  });
});

describe('reconnect', () => {
  it('clicks Reconnect on the Runtime-disconnected dialog only', async () => {
    const log = clicks();
    mount(OTHERS['gpu-quota']);
    expect(reconnect(document)).toMatchObject({ ok: false, reason: 'no-disconnect-dialog', saw: 'gpu-quota' });
    expect(log).toEqual([]);
    mount(OTHERS.disconnected);
    expect(findDisconnectDialog(document)?.getAttribute('heading')).toBe('Runtime disconnected');
    expect(reconnect(document)).toEqual({ ok: true });
    expect(log).toEqual(['reconnect']);
  });

  it('never clicks a primary button that is not Reconnect (Disconnect, Connect without GPU)', () => {
    const log = clicks();
    for (const label of ['Disconnect', 'Disconnect and delete runtime']) {
      document.body.innerHTML = '';
      mount(OTHERS.disconnected.replace('>Reconnect<', `>${label}<`));
      expect(reconnect(document)).toMatchObject({ ok: false, reason: 'unexpected-label', saw: label });
    }
    document.body.innerHTML = '';
    mount(OTHERS.disconnected.replace('>Reconnect<', '>Connect without GPU<'));
    expect(reconnect(document)).toMatchObject({ ok: false });
    expect(log).toEqual([]);
  });

  it('works on the pre-2023 paper dialog', async () => {
    const log = clicks();
    mount(OTHERS['old disconnected']);
    expect(reconnect(document)).toEqual({ ok: true });
    expect(log).toEqual(['ok']);
    await tick();
  });
});
