// Colab dialogs (§2, §5.2, §5.3, §11.2), in the implementation chosen by the scenario (`ui.dialog`). Each dialog is
// appended to <body>, resolves to 'ok' | 'cancel' | 'close' once closed through its own component logic, and leaves
// the DOM after a short close animation. Answering a dialog the extension must never answer is logged as `dangerous`.
// With `openingMs`, a dialog carries `colab-dialog-opening` for that long after it opens (§11.2, ColabSDK), and a
// click on it meanwhile is lost (logged as `dialog-click-lost`). The class goes on a timer, as a script's would:
// a hidden tab runs timers, not animation frames.

import { record } from './log.js';
import { h, sleep } from './util.js';

let formCounter = 0;

/** The content of each dialog kind: texts from the label set, primary/secondary buttons, what accepting it means. */
function contentFor(kind, d) {
  switch (kind) {
    case 'restart-confirm':
      return {
        title: d.restartTitle,
        body: d.restartBody,
        ok: d.yes,
        cancel: d.no,
        cls: 'yes-no-dialog',
        dangerous: null,
      };
    case 'gpu-unavailable':
      return {
        title: d.gpuTitle,
        body: d.gpuBody,
        ok: d.gpuOk,
        cancel: d.close,
        cls: 'yes-no-dialog',
        dangerous: 'connect-without-gpu',
      };
    case 'disconnected':
      return {
        title: d.disconnectedTitle,
        body: d.disconnectedBody,
        ok: d.reconnect,
        cancel: d.close,
        cls: 'yes-no-dialog',
        dangerous: 'reconnect',
      };
    // The same title, bodies that mean the end (§12.4): accepting Reconnect runs what Colab cut off.
    case 'disconnected-disallowed-code':
      return {
        title: d.disconnectedTitle,
        body: d.disconnectedDisallowedBody,
        ok: d.reconnect,
        cancel: d.close,
        cls: 'yes-no-dialog',
        dangerous: 'reconnect-disallowed',
      };
    case 'disconnected-zero-units':
      return {
        title: d.disconnectedTitle,
        body: d.disconnectedZeroUnitsBody,
        ok: d.reconnect,
        cancel: d.close,
        cls: 'yes-no-dialog',
        dangerous: 'reconnect-zero-units',
      };
    case 'usage-limit':
      return {
        title: d.usageTitle,
        body: d.usageBody,
        ok: d.upgrade,
        cancel: d.close,
        cls: 'yes-no-dialog',
        dangerous: 'upgrade',
      };
    case 'high-ram':
      return {
        title: d.highRamTitle,
        body: d.highRamBody,
        ok: d.yes,
        cancel: d.no,
        cls: 'yes-no-dialog',
        dangerous: 'switch-high-ram',
      };
    case 'not-authored':
      return {
        title: d.notAuthoredTitle,
        body: d.notAuthoredBody,
        ok: d.runAnyway,
        cancel: d.cancel,
        cls: 'external-notebook-dialog',
        dangerous: 'run-anyway',
      };
    case 'recaptcha':
      return {
        title: d.recaptchaTitle,
        body: '',
        ok: d.ok,
        cancel: d.cancel,
        cls: 'recaptcha-dialog',
        dangerous: 'recaptcha',
      };
    // The dialogs of 2025-26 (§11.2): all mwc-dialog, mostly .yes-no-dialog; only their texts tell them apart.
    case 'pip-restart':
      return {
        title: d.pipTitle,
        body: d.pipBody,
        ok: d.pipOk,
        cancel: d.cancel,
        cls: 'yes-no-dialog',
        dangerous: 'pip-restart',
      };
    case 'drive-permission':
      return {
        title: d.driveTitle,
        body: d.driveBody,
        ok: d.driveOk,
        cancel: d.driveNo,
        cls: 'yes-no-dialog',
        dangerous: 'drive-access',
      };
    case 'new-runtime-required':
      return {
        title: d.newRuntimeTitle,
        body: d.newRuntimeBody,
        ok: d.newRuntimeOk,
        cancel: d.cancel,
        cls: 'yes-no-dialog',
        dangerous: 'assign-new-runtime',
      };
    case 'disallowed-code':
      return {
        title: d.disallowedTitle,
        body: d.disallowedBody,
        ok: d.disallowedOk,
        cancel: d.disallowedNo,
        cls: 'yes-no-dialog',
        dangerous: 'cancel-execution',
        dangerousCancel: 'continue-disallowed',
      };
    case 'change-runtime-type':
      return {
        title: d.runtimeTypeTitle,
        body: d.runtimeTypeBody,
        ok: d.save,
        cancel: d.cancel,
        cls: 'change-runtime-type',
        dangerous: 'change-runtime-type',
      };
    case 'cannot-save':
      return {
        title: d.cannotSaveTitle,
        body: d.cannotSaveBody,
        ok: d.ok,
        cancel: null,
        cls: 'yes-no-dialog',
        dangerous: 'dismiss-cannot-save',
      };
    case 'delete-runtime':
      return {
        title: d.deleteRuntimeTitle,
        body: d.deleteRuntimeBody,
        ok: d.yes,
        cancel: d.no,
        cls: 'yes-no-dialog',
        dangerous: 'powerwash-current-vm',
      };
    default:
      throw new Error(`colab-sim: unknown dialog kind ${kind}`);
  }
}

/** The 2025-26 dialogs: seen only as mwc-dialog with md-text-button (§11.2), whatever the restart dialog's era. */
const MWC_ONLY = new Set([
  'pip-restart',
  'drive-permission',
  'new-runtime-required',
  'disallowed-code',
  'change-runtime-type',
  'cannot-save',
  'delete-runtime',
]);

/**
 * Shows a dialog and resolves with how it was closed.
 * @param {string} kind  DialogKind
 * @param {{variant: string, dialogs: object, dialogMs: number, openingMs?: number}} options
 */
export async function showDialog(kind, { variant, dialogs, dialogMs, openingMs = 0 }) {
  const content = contentFor(kind, dialogs);
  // "Run anyway" is an md-dialog with a form (frontend form id `external-notebook-authored-dialog`, §2); the
  // recaptcha dialog is its own host. Everything else follows the scenario's variant ('none' only drops the restart
  // confirmation, so other dialogs fall back to the current mwc-dialog).
  const effective =
    kind === 'not-authored'
      ? 'md'
      : kind === 'recaptcha'
        ? 'recaptcha'
        : variant === 'none' || MWC_ONLY.has(kind)
          ? 'mwc'
          : variant;
  const { element, result } = BUILDERS[effective](content, kind);
  if (openingMs > 0) animateOpening(element, kind, openingMs);
  document.body.append(element);
  record('dialog-open', { kind, variant: effective, title: content.title });
  const outcome = await result;
  if (outcome === 'ok') {
    record('dialog-confirm', { kind });
    if (content.dangerous) record('dangerous', { what: content.dangerous });
  } else {
    record('dialog-cancel', { kind, how: outcome });
    if (outcome === 'cancel' && content.dangerousCancel) record('dangerous', { what: content.dangerousCancel });
  }
  sleep(dialogMs).then(() => element.remove());
  return outcome;
}

/**
 * `colab-dialog-opening` on the host for `ms` after it opens; clicks inside it meanwhile are swallowed before the
 * dialog or its buttons see them (a capture listener on the host runs first for its light and shadow children).
 */
function animateOpening(element, kind, ms) {
  element.classList.add('colab-dialog-opening');
  element.addEventListener(
    'click',
    (event) => {
      if (!element.classList.contains('colab-dialog-opening')) return;
      event.stopPropagation();
      event.preventDefault();
      record('dialog-click-lost', { kind });
    },
    true,
  );
  sleep(ms).then(() => element.classList.remove('colab-dialog-opening'));
}

const BUILDERS = {
  mwc: (c) => mwcDialog(c, 'md-text-button'),
  'mwc-legacy': (c) => mwcDialog(c, 'mwc-button'),
  md: mdDialog,
  paper: paperDialog,
  recaptcha: recaptchaDialog,
};

/** `mwc-dialog[open].yes-no-dialog[heading]` + light-DOM `[slot=primaryAction][dialogaction=ok]` / secondary cancel. */
function mwcDialog(c, buttonTag) {
  const dialog = h(
    'mwc-dialog',
    { class: c.cls, heading: c.title, open: true },
    h('div', {}, c.body),
    c.cancel === null ? null : h(buttonTag, { slot: 'secondaryAction', dialogaction: 'cancel' }, c.cancel),
    h(buttonTag, { slot: 'primaryAction', dialogaction: 'ok', dialoginitialfocus: '' }, c.ok),
  );
  const result = new Promise((resolve) => {
    dialog.addEventListener(
      'closed',
      (e) => resolve(e.detail.action === 'ok' ? 'ok' : e.detail.action === 'cancel' ? 'cancel' : 'close'),
      { once: true },
    );
  });
  return { element: dialog, result };
}

/**
 * Material Web `md-dialog[open]`: `<div slot="headline">`, `<form slot="content" method="dialog">` and
 * `<div slot="actions">` with `md-text-button[form][value=cancel|ok]` (md-filled-button for "Run anyway"). A click on
 * a button submits the form; md-dialog closes with returnValue = the button's value.
 */
function mdDialog(c, kind) {
  const formId = kind === 'not-authored' ? 'external-notebook-authored-dialog' : `colab-dialog-form-${++formCounter}`;
  const primaryTag = kind === 'not-authored' ? 'md-filled-button' : 'md-text-button';
  const dialog = h(
    'md-dialog',
    { class: c.cls, open: true, type: 'alert' },
    h('div', { slot: 'headline' }, c.title),
    h('form', { slot: 'content', id: formId, method: 'dialog' }, c.body),
    h(
      'div',
      { slot: 'actions' },
      h('md-text-button', { form: formId, value: 'cancel' }, c.cancel),
      h(primaryTag, { form: formId, value: 'ok', autofocus: '' }, c.ok),
    ),
  );
  const result = new Promise((resolve) => {
    dialog.addEventListener(
      'closed',
      () => resolve(dialog.returnValue === 'ok' ? 'ok' : dialog.returnValue === 'cancel' ? 'cancel' : 'close'),
      { once: true },
    );
  });
  return { element: dialog, result };
}

/**
 * ≤ 2023-02: `colab-dialog > paper-dialog.yes-no-dialog[opened]` with `div.content-area > h2` and
 * `paper-button#ok/#cancel`.
 */
function paperDialog(c) {
  const paper = h(
    'paper-dialog',
    { class: c.cls, opened: true, modal: true },
    h('div', { class: 'content-area' }, h('h2', {}, c.title), h('div', {}, c.body)),
    h(
      'div',
      { class: 'buttons' },
      h('paper-button', { id: 'cancel', 'dialog-dismiss': '' }, c.cancel),
      h('paper-button', { id: 'ok', 'dialog-confirm': '', autofocus: '' }, c.ok),
    ),
  );
  // ColabSDK's old selector is `colab-dialog.yes-no-dialog`, so the wrapper carries the class too.
  const wrapper = h('colab-dialog', { class: c.cls }, paper);
  const result = new Promise((resolve) => {
    paper.addEventListener('iron-overlay-closed', (e) => resolve(e.detail.confirmed ? 'ok' : 'cancel'), { once: true });
  });
  return { element: wrapper, result };
}

/** `colab-recaptcha-dialog`: an mwc-dialog inside the host's shadow root, with `mwc-button`s (tdulcet). */
function recaptchaDialog(c) {
  const host = document.createElement('colab-recaptcha-dialog');
  const inner = mwcDialog(c, 'mwc-button');
  inner.element.prepend(h('div', { class: 'g-recaptcha', id: 'recaptcha-container' }));
  host.attachShadow({ mode: 'open' }).append(inner.element);
  return { element: host, result: inner.result };
}
