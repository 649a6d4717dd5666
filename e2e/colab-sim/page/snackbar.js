// `colab-snackbar#message-area` / `#message-area-secondary` (§5.1, fixture snackbar-message-area-idle-2026-03.html):
// the first children of <body>. Idle: `labeltext=""`, shadow `div.mdc-snackbar.mdc-snackbar--leading` without
// `--open`. Shown: `labeltext` = the message, rendered in the shadow root as `.mdc-snackbar__label` (the REFERENCE
// infers this from the idle state), the surface gains `.mdc-snackbar--open`, and an action button is slotted into
// `action`. Crash toasts are sticky (`timeoutMillis: -1`): they stay until the close button is clicked.

import { record } from './log.js';
import { h, sleep } from './util.js';

const SNACKBAR_STYLE = new CSSStyleSheet();
SNACKBAR_STYLE.replaceSync(
  '.mdc-snackbar { display: none; } .mdc-snackbar--open { display: flex; background: #333; color: #fff; padding: ' +
    '8px 12px; }' +
    ' .mdc-snackbar__surface { display: flex; align-items: center; gap: 12px; }',
);

customElements.get('colab-snackbar') ||
  customElements.define(
    'colab-snackbar',
    class extends HTMLElement {
      static observedAttributes = ['labeltext'];
      constructor() {
        super();
        const root = this.attachShadow({ mode: 'open' });
        this.label = h('div', { class: 'mdc-snackbar__label', role: 'status', 'aria-live': 'polite' });
        this.actions = h(
          'div',
          { class: 'mdc-snackbar__actions' },
          h('slot', { name: 'action' }),
          h('slot', { name: 'dismiss' }),
        );
        this.surface = h('div', { class: 'mdc-snackbar__surface' }, this.actions);
        this.snackbar = h('div', { class: 'mdc-snackbar mdc-snackbar--leading' }, this.surface);
        root.adoptedStyleSheets = [SNACKBAR_STYLE]; // lit styles are adopted, not <style> elements
        root.append(this.snackbar);
      }
      attributeChangedCallback() {
        const text = this.getAttribute('labeltext') ?? '';
        this.label.textContent = text;
        if (text) this.surface.prepend(this.label);
        else this.label.remove();
      }
    },
  );

export class Snackbar {
  /** @param {'primary'|'secondary'} area */
  constructor(area) {
    this.area = area;
    this.element = h('colab-snackbar', {
      leading: '',
      labeltext: '',
      id: area === 'primary' ? 'message-area' : 'message-area-secondary',
      class: 'message-area',
    });
    this.close = h(
      'md-icon-button',
      { class: 'close', slot: 'dismiss', title: 'Close', 'data-aria-label': 'Close', value: '' },
      h('md-icon', { 'aria-hidden': 'true' }, 'close'),
    );
    this.close.addEventListener('click', () => this.hide('dismiss'));
    this.element.append(this.close);
    this.action = null;
    this.timer = null;
  }

  get open() {
    return this.element.snackbar.classList.contains('mdc-snackbar--open');
  }

  /**
   * @param {string} text
   * @param {{actionText?: string, onAction?: () => void, timeoutMs?: number}} options  timeoutMs -1 = sticky
   */
  show(text, { actionText, onAction, timeoutMs = -1 } = {}) {
    this.action?.remove();
    this.action = null;
    if (actionText) {
      this.action = h('md-text-button', { slot: 'action', value: '' }, actionText);
      this.action.addEventListener('click', () => {
        record('toast-action', { area: this.area, text: actionText });
        onAction?.();
        this.hide('action');
      });
      this.element.append(this.action);
    }
    this.element.setAttribute('labeltext', text);
    this.element.snackbar.classList.add('mdc-snackbar--open');
    record('toast-open', { area: this.area, text });
    const shownAt = ++this.shown;
    if (timeoutMs >= 0) sleep(timeoutMs).then(() => this.shown === shownAt && this.hide('timeout'));
  }

  shown = 0;

  hide(via) {
    if (!this.open) return;
    this.element.snackbar.classList.remove('mdc-snackbar--open');
    this.element.setAttribute('labeltext', '');
    this.action?.remove();
    this.action = null;
    record('toast-close', { area: this.area, via });
  }
}
