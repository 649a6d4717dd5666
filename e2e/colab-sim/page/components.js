// Stand-ins for the web components Colab's page is built from: Material Web (md-*), MWC (mwc-*), Polymer (paper-*)
// and Colab's own hosts (colab-*). Each has an open shadow root shaped like the 2026 capture (snippets/*.html) and
// reacts to the events the real component reacts to, no more:
//  - md-*-button hosts act on a plain `click` (Material Web listens on the host; §1.3, §2 "Calling .click() on the
//    md-text-button host works").
//  - md-menu-item's own listener is on the shadow `li#item` (Material Web menu-item.ts), so a click on the host alone
//    does not select it (see the toolbar's `toolbarMenuItemClick` option).
//  - mwc-dialog closes on a click on any `[dialogaction]` element in its light DOM; paper-dialog on `[dialog-confirm]`
//    / `[dialog-dismiss]`; md-dialog on submission of a `method="dialog"` form (Material Web dialog.ts).
import { h } from './util.js';

const define = (name, ctor) => customElements.get(name) || customElements.define(name, ctor);

/** A host whose shadow root is filled from a template string on construction. */
class Templated extends HTMLElement {
  static template = '<slot></slot>';
  static delegatesFocus = false;
  constructor() {
    super();
    const type = /** @type {typeof Templated} */ (this.constructor);
    const root = this.attachShadow({ mode: 'open', delegatesFocus: type.delegatesFocus });
    root.innerHTML = type.template;
  }
}

// --- Leaf parts -------------------------------------------------------------------------------------------------

define('md-icon', class extends Templated {});
define(
  'md-ripple',
  class extends Templated {
    static template = '<div class="surface"></div>';
  },
);
define(
  'md-focus-ring',
  class extends Templated {
    static template = '';
  },
);
define(
  'md-elevation',
  class extends Templated {
    static template = '<span class="shadow"></span>';
  },
);
define(
  'md-divider',
  class extends Templated {
    static template = '';
  },
);
define(
  'md-item',
  class extends Templated {
    static template =
      '<slot name="container"></slot><slot class="non-text" name="start"></slot><div class="text"><slot ' +
      'name="overline"></slot>' +
      '<slot class="default-slot"></slot><slot name="headline"></slot><slot name="supporting-text"></slot></div>' +
      '<slot class="non-text" name="trailing-supporting-text"></slot><slot class="non-text" name="end"></slot>';
  },
);
define(
  'colab-tooltip-trigger',
  class extends HTMLElement {
    static observedAttributes = ['message'];
    constructor() {
      super();
      this.attachShadow({ mode: 'open' });
    }
    attributeChangedCallback() {
      const lines = (this.getAttribute('message') ?? '').split('\n');
      this.shadowRoot.replaceChildren(...lines.map((line) => (line ? h('div', {}, line) : h('br'))));
    }
  },
);

// --- Buttons ----------------------------------------------------------------------------------------------------

const BUTTON_TEMPLATE =
  '<div class="background"></div><md-focus-ring part="focus-ring" for="button" aria-hidden="true"></md-focus-ring>' +
  '<md-ripple part="ripple" for="button" aria-hidden="true"></md-ripple><button id="button" class="button">' +
  '<span class="touch"></span><slot name="icon"></slot><span class="label"><slot></slot></span></button>';

/**
 * Material Web md-text-button / md-filled-button. Form-associated: `type` defaults to "submit", so a click on the
 * host submits its form (the `form` attribute or an ancestor) with the host as `event.submitter`, as Material Web's
 * form-submitter does. A disabled button swallows the click.
 */
class MdButton extends Templated {
  static formAssociated = true;
  static template = BUTTON_TEMPLATE;
  static delegatesFocus = true;
  constructor() {
    super();
    this.internals = this.attachInternals();
    this.addEventListener('click', (event) => this.#activate(event));
  }
  get value() {
    return this.getAttribute('value') ?? '';
  }
  #activate(event) {
    if (this.hasAttribute('disabled') || this.hasAttribute('soft-disabled')) {
      event.stopImmediatePropagation();
      event.preventDefault();
      return;
    }
    const form = this.internals.form;
    if ((this.getAttribute('type') ?? 'submit') !== 'submit' || !form) return;
    form.addEventListener(
      'submit',
      (submit) => Object.defineProperty(submit, 'submitter', { configurable: true, enumerable: true, get: () => this }),
      { capture: true, once: true },
    );
    form.requestSubmit();
  }
}
define('md-text-button', class extends MdButton {});
define('md-filled-button', class extends MdButton {});

/** Material Web md-icon-button: the inner button carries the aria-label given as `data-aria-label`. */
define(
  'md-icon-button',
  class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
      root.innerHTML =
        '<button id="button" class="icon-button  standard "><md-focus-ring part="focus-ring" for="button" ' +
        'aria-hidden="true">' +
        '</md-focus-ring><md-ripple aria-hidden="true"></md-ripple><span class="icon"><slot></slot></span>' +
        '<span class="touch"></span></button>';
    }
    connectedCallback() {
      const label = this.getAttribute('data-aria-label');
      if (label) this.shadowRoot.getElementById('button').setAttribute('aria-label', label);
    }
  },
);

/** MWC v0.2x button (the 2023-02 → 2024-12 dialogs): shadow `button#button.mdc-button`. */
define(
  'mwc-button',
  class extends Templated {
    static template =
      '<button id="button" class="mdc-button"><span class="leading-icon"><slot name="icon"></slot></span>' +
      '<span class="mdc-button__label"></span><slot></slot></button>';
  },
);

/** Polymer paper-button (≤ 2023-02 dialogs). */
define(
  'paper-button',
  class extends Templated {
    static template = '<paper-ripple></paper-ripple><slot></slot>';
    connectedCallback() {
      this.setAttribute('role', 'button');
      this.setAttribute('tabindex', '0');
    }
  },
);

// --- Dialogs ----------------------------------------------------------------------------------------------------

/** Escape closes the top-most open dialog of this kind; each dialog registers while open. */
function onEscape(dialog, close) {
  const listener = (event) => {
    if (event.key === 'Escape' && dialog.isConnected) close();
  };
  document.addEventListener('keydown', listener);
  return () => document.removeEventListener('keydown', listener);
}

/**
 * MWC mwc-dialog: `heading` is rendered as `#title` in the shadow root; light-DOM buttons are slotted into
 * `primaryAction` / `secondaryAction`. A click on an element with `dialogaction` closes the dialog with that action
 * (MDC `getActionFromEvent`), the scrim and Escape close it with action "close". Fires `closing`/`closed`.
 */
define(
  'mwc-dialog',
  class extends HTMLElement {
    static observedAttributes = ['heading', 'open'];
    #stopEscape = null;
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML =
        '<div class="mdc-dialog" role="alertdialog" aria-modal="true" aria-labelledby="title" ' +
        'aria-describedby="content">' +
        '<div class="mdc-dialog__container"><div class="mdc-dialog__surface">' +
        '<h2 id="title" class="mdc-dialog__title"></h2>' +
        '<div id="content" class="mdc-dialog__content"><slot id="contentSlot"></slot></div>' +
        '<footer id="actions" class="mdc-dialog__actions"><span><slot name="secondaryAction"></slot></span>' +
        '<span><slot name="primaryAction"></slot></span></footer></div></div>' +
        '<div class="mdc-dialog__scrim"></div></div>';
      root.querySelector('.mdc-dialog').addEventListener('click', (event) => this.#onClick(event));
    }
    attributeChangedCallback(name) {
      const root = this.shadowRoot;
      if (name === 'heading') root.getElementById('title').textContent = this.getAttribute('heading') ?? '';
      if (name === 'open') {
        const open = this.hasAttribute('open');
        root.querySelector('.mdc-dialog').classList.toggle('mdc-dialog--open', open);
        this.#stopEscape?.();
        this.#stopEscape = open ? onEscape(this, () => this.close('close')) : null;
      }
    }
    #onClick(event) {
      if (!this.hasAttribute('open')) return;
      if (event.target instanceof Element && event.target.classList.contains('mdc-dialog__scrim'))
        return this.close('close');
      const actionElement = event.target instanceof Element ? event.target.closest('[dialogaction]') : null;
      const action = actionElement?.getAttribute('dialogaction');
      if (action) this.close(action);
    }
    close(action) {
      if (!this.hasAttribute('open')) return;
      this.dispatchEvent(new CustomEvent('closing', { detail: { action } }));
      this.removeAttribute('open');
      this.dispatchEvent(new CustomEvent('closed', { detail: { action } }));
    }
  },
);

/**
 * Material Web md-dialog: headline/content/actions slots. A `method="dialog"` form submitted inside closes the
 * dialog with `returnValue` = the submitter's `value`; Escape/scrim close it with returnValue "". Fires
 * `close`/`closed`.
 */
define(
  'md-dialog',
  class extends HTMLElement {
    static observedAttributes = ['open'];
    #stopEscape = null;
    returnValue = '';
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML =
        '<div class="scrim"></div><dialog aria-labelledby="headline" role="alertdialog"><div class="container">' +
        '<div class="headline"><div class="icon" aria-hidden="true"><slot name="icon"></slot></div>' +
        '<h2 id="headline" aria-hidden="true"><slot name="headline"></slot></h2><md-divider></md-divider></div>' +
        '<div class="scroller"><div class="content"><div class="top anchor"></div><slot name="content"></slot>' +
        '<div class="bottom anchor"></div></div></div>' +
        '<div class="actions"><md-divider></md-divider><slot name="actions"></slot></div></div></dialog>';
      root.querySelector('dialog').addEventListener('submit', (event) => this.#onSubmit(event));
      root.querySelector('.scrim').addEventListener('click', () => this.close(''));
    }
    attributeChangedCallback() {
      const open = this.hasAttribute('open');
      this.shadowRoot.querySelector('dialog').toggleAttribute('open', open);
      this.#stopEscape?.();
      this.#stopEscape = open ? onEscape(this, () => this.close('')) : null;
    }
    #onSubmit(event) {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || form.method !== 'dialog' || !event.submitter) return;
      event.preventDefault();
      this.close(event.submitter.getAttribute('value') ?? this.returnValue);
    }
    close(returnValue) {
      if (!this.hasAttribute('open')) return;
      this.returnValue = returnValue;
      this.dispatchEvent(new Event('close'));
      this.removeAttribute('open');
      this.dispatchEvent(new Event('closed'));
    }
  },
);

/**
 * Polymer paper-dialog (inside colab-dialog, ≤ 2023-02): a click whose path contains `[dialog-confirm]` or
 * `[dialog-dismiss]` closes it (paper-dialog-behavior `_onDialogClick`); fires `iron-overlay-closed`.
 */
define(
  'paper-dialog',
  class extends Templated {
    constructor() {
      super();
      this.addEventListener('click', (event) => this.#onClick(event));
    }
    #onClick(event) {
      if (!this.hasAttribute('opened')) return;
      for (const node of event.composedPath()) {
        if (node === this) return;
        if (!(node instanceof Element)) continue;
        if (node.hasAttribute('dialog-confirm')) return this.close(true);
        if (node.hasAttribute('dialog-dismiss')) return this.close(false);
      }
    }
    close(confirmed) {
      this.removeAttribute('opened');
      this.dispatchEvent(new CustomEvent('iron-overlay-closed', { detail: { confirmed, canceled: !confirmed } }));
    }
  },
);
define('colab-dialog', class extends Templated {});

// --- Material Web menu (toolbar split button, §1.3) ---------------------------------------------------------------

/**
 * md-menu-item: selection is handled by a click listener on the shadow `li#item`, which dispatches the bubbling,
 * composed `close-menu` event with `detail.initiator` = the item (Material Web MenuItemController.onClick).
 */
define(
  'md-menu-item',
  class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open', delegatesFocus: true });
      root.innerHTML =
        '<li id="item" role="menuitem" class="list-item" tabindex="0"><md-item><div slot="container">' +
        '<md-ripple part="ripple" for="item" aria-hidden="true"></md-ripple>' +
        '<md-focus-ring part="focus-ring" for="item" inward="" aria-hidden="true"></md-focus-ring></div>' +
        '<slot name="start" slot="start"></slot><slot name="end" slot="end"></slot><slot></slot>' +
        '<slot name="overline" slot="overline"></slot><slot name="headline" slot="headline"></slot>' +
        '<slot name="supporting-text" slot="supporting-text"></slot>' +
        '<slot name="trailing-supporting-text" slot="trailing-supporting-text"></slot></md-item></li>';
      root.getElementById('item').addEventListener('click', () => {
        if (this.hasAttribute('disabled')) return;
        this.dispatchEvent(
          new CustomEvent('close-menu', {
            bubbles: true,
            composed: true,
            detail: { initiator: this, itemPath: [this], reason: { kind: 'click-selection' } },
          }),
        );
      });
    }
    connectedCallback() {
      this.setAttribute('md-menu-item', '');
      if (!this.hasAttribute('tabindex')) this.setAttribute('tabindex', '-1');
    }
  },
);

/**
 * md-menu: `open` is reflected; the surface is `div.menu` (hidden while closed). Closes on `close-menu` from an item,
 * on Escape, and on a click anywhere outside the menu and its anchor (Material Web onDocumentClick).
 */
define(
  'md-menu',
  class extends HTMLElement {
    static observedAttributes = ['open'];
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      root.innerHTML =
        '<div class="menu   " popover="manual" style="display: none;"><md-elevation part="elevation" ' +
        'aria-hidden="true">' +
        '</md-elevation><div class="items"><div class="item-padding"> <slot></slot> </div></div></div>';
      this.addEventListener('close-menu', () => this.removeAttribute('open'));
      this.onDocumentClick = (event) => {
        const root = /** @type {Document | ShadowRoot} */ (this.getRootNode());
        const anchor = root.getElementById?.(this.getAttribute('anchor'));
        const path = event.composedPath();
        if (!path.includes(this) && !(anchor && path.includes(anchor))) this.removeAttribute('open');
      };
      this.onKeydown = (event) => {
        if (event.key === 'Escape') this.removeAttribute('open');
      };
    }
    get open() {
      return this.hasAttribute('open');
    }
    set open(value) {
      this.toggleAttribute('open', !!value);
    }
    attributeChangedCallback() {
      const open = this.open;
      const surface = /** @type {HTMLElement} */ (this.shadowRoot.querySelector('.menu'));
      surface.className = open ? 'menu open' : 'menu   ';
      surface.style.display = open ? 'block' : 'none';
      this.setAttribute('aria-hidden', String(!open));
      if (open) {
        // Deferred so that the click that opened the menu does not close it again.
        setTimeout(() => window.addEventListener('click', this.onDocumentClick, true));
        document.addEventListener('keydown', this.onKeydown);
      } else {
        window.removeEventListener('click', this.onDocumentClick, true);
        document.removeEventListener('keydown', this.onKeydown);
      }
      this.dispatchEvent(new Event(open ? 'opened' : 'closed'));
    }
  },
);

// --- Colab hosts with trivial shadow roots ------------------------------------------------------------------------

define(
  'colab-connect-warning-button',
  class extends Templated {
    static template = '';
  },
);
define(
  'colab-cell-next-steps',
  class extends Templated {
    static template = '';
  },
);
define(
  'colab-output-info',
  class extends Templated {
    static template =
      '<md-icon-button toggle="" class="toggle-visibility-button" touch-target="none" data-aria-label="Show/hide ' +
      'output" ' +
      'id="toggle-visibility-button" value=""><md-icon aria-hidden="true">visibility</md-icon></md-icon-button>' +
      '<md-icon-button touch-target="none" data-aria-expanded="false" data-aria-haspopup="menu" class="menu-button" ' +
      'data-aria-label="Code cell output actions" id="menu-button" value=""><md-icon ' +
      'aria-hidden="true">more_vert</md-icon></md-icon-button>';
  },
);
define(
  'colab-cell-toolbar',
  class extends Templated {
    static template =
      '<md-icon-button touch-target="none" data-aria-label="Move cell up\nCtrl+M K" command="move-cell-up" ' +
      'id="button-move-cell-up" ' +
      'value="" soft-disabled=""><md-icon aria-hidden="true">arrow_upward</md-icon></md-icon-button>' +
      '<md-icon-button touch-target="none" data-aria-label="Move cell down\nCtrl+M J" command="move-cell-down" ' +
      'id="button-move-cell-down" value=""><md-icon aria-hidden="true">arrow_downward</md-icon></md-icon-button>' +
      '<md-icon-button touch-target="none" data-aria-label="Delete cell\nCtrl+M D" ' +
      'command="delete-cell-or-selection" ' +
      'id="button-delete-cell-or-selection" value=""><md-icon aria-hidden="true">delete</md-icon></md-icon-button>';
  },
);
define(
  'colab-usage-sparkline',
  class extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      const root = this.attachShadow({ mode: 'open' });
      root.append(
        h('div', { class: 'label' }, this.getAttribute('label') ?? ''),
        h('canvas', { height: 14, width: 20 }),
      );
    }
  },
);

/**
 * colab-toolbar-button: a shadow md-text-button (icon + slotted label) with a tooltip; the owner listens for clicks
 * on the host.
 */
define(
  'colab-toolbar-button',
  class extends HTMLElement {
    static observedAttributes = ['tooltiptext', 'icon'];
    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      this.button = h('md-text-button', { id: 'button', value: '', 'data-aria-disabled': 'false' });
      this.icon = h('md-icon', { slot: 'icon', 'aria-hidden': 'true' });
      this.screenreader = h('span', { class: 'screenreader-only' });
      this.button.append(this.icon, h('span', { class: 'button-content' }, h('slot')), this.screenreader);
      this.tooltip = h('colab-tooltip-trigger', { for: 'button', 'aria-hidden': 'true', shortcut: '' });
      root.append(this.button, this.tooltip);
    }
    attributeChangedCallback() {
      const icon = this.getAttribute('icon');
      this.icon.textContent = icon ?? '';
      this.icon.hidden = !icon;
      this.button.toggleAttribute('has-icon', !!icon);
      const text = this.getAttribute('tooltiptext') ?? '';
      this.screenreader.textContent = `${text} `;
      this.tooltip.setAttribute('message', text);
      if (this.getAttribute('tooltipid')) this.tooltip.id = this.getAttribute('tooltipid');
    }
  },
);
