// The M3 toolbar (`colab-notebook-toolbar#top-toolbar`): the "Run all" split button (§1.3, fixture
// toolbar-run-all-split-button-2026-03.html), the connect button (§5.4, fixture connect-button-connected-2026-03.html)
// and the bottom status bar (§0 row 22, fixture status-bar-2026-03.html).
import { clockTime, h } from './util.js';

const TOOLBAR_COMMANDS = ['restart', 'restart-and-run-all', 'runafter', 'sep', 'interrupt', 'clear-outputs'];

/**
 * `colab-notebook-toolbar-run-button`: shadow root with `colab-toolbar-button#toolbar-run-button` ("Run all"),
 * `md-icon-button#toolbar-run-button-more-actions` and `md-menu[anchor=…]` holding `md-menu-item[command]`.
 * @param {object} o
 * @param {Record<string, string>} o.labels  the label set's `toolbar` part
 * @param {string[]} o.remove  commands left out
 * @param {boolean} o.commandAttributes
 * @param {'inner'|'host'} o.itemClick  see UiOptions.toolbarMenuItemClick
 * @param {(command: string) => void} o.onCommand
 */
export function createRunButton({ labels, remove, commandAttributes, itemClick, onCommand }) {
  const host = document.createElement('colab-notebook-toolbar-run-button');
  const root = host.attachShadow({ mode: 'open' });

  const runAll = h(
    'colab-toolbar-button',
    {
      class: 'split-button',
      icon: 'play_arrow',
      tooltipid: 'toolbar-run-button-tooltip',
      id: 'toolbar-run-button',
      tooltiptext: labels.runAllTooltip,
    },
    labels.runAll,
  );
  runAll.addEventListener('click', () => onCommand('runall'));

  const more = h(
    'md-icon-button',
    {
      'touch-target': 'none',
      'data-aria-haspopup': 'menu',
      'data-aria-expanded': 'false',
      id: 'toolbar-run-button-more-actions',
      'data-aria-label': labels.moreActions,
      value: '',
    },
    h('md-icon', { 'aria-hidden': 'true' }, 'arrow_drop_down'),
  );
  const tooltip = h('colab-tooltip-trigger', {
    'aria-hidden': 'true',
    for: 'toolbar-run-button-more-actions',
    message: labels.moreActions,
  });

  const menu = h('md-menu', {
    positioning: 'popover',
    quick: '',
    'aria-labelledby': 'toolbar-run-button-more-actions',
    anchor: 'toolbar-run-button-more-actions',
    'aria-hidden': 'true',
  });
  for (const command of TOOLBAR_COMMANDS) {
    if (command === 'sep') {
      menu.append(h('md-divider'));
      continue;
    }
    if (remove.includes(command)) continue;
    const item = h(
      'md-menu-item',
      { command: commandAttributes ? command : null },
      h('span', { slot: 'headline' }, labels[command]),
    );
    item.dataset.simCommand = command; // the simulator's own bookkeeping, independent of the attribute
    if (itemClick === 'host') {
      item.addEventListener('click', () => {
        menu.open = false;
        onCommand(command);
      });
    }
    menu.append(item);
  }
  if (itemClick === 'inner') {
    // Material Web: the item's inner li dispatches `close-menu`; Colab reads the initiator's command.
    menu.addEventListener('close-menu', (event) => {
      if (event.detail?.reason?.kind === 'click-selection') onCommand(event.detail.initiator.dataset.simCommand);
    });
  }

  more.addEventListener('click', () => {
    menu.open = !menu.open;
  });
  menu.addEventListener('opened', () => setExpanded(more, true));
  menu.addEventListener('closed', () => setExpanded(more, false));

  root.append(runAll, more, tooltip, menu);
  return host;
}

function setExpanded(iconButton, expanded) {
  iconButton.setAttribute('data-aria-expanded', String(expanded));
  iconButton.shadowRoot.getElementById('button').setAttribute('aria-expanded', String(expanded));
}

/**
 * `colab-connect-button` (§5.4, §11.5). States: 'disconnected' ("Connect"/"Reconnect"), 'connecting' ("Connecting",
 * icon more_horiz), 'idle' (icon `done`, class icon-okay, RAM/Disk display, tooltip "Connected to…"), 'busy' (icon
 * `more_horiz`). Only the connected+idle state is captured; the others follow the automation notes in §5.4, §11.5.
 * `buttonId` is `connect` or, as one 2026 driver saw it, `reconnect` (§11.5). `dropdown` ("Additional connection
 * options") is the anchor of the connect menu (§11.3), which the notebook attaches.
 */
export class ConnectButton {
  constructor(labels, onConnectClick, buttonId = 'connect') {
    this.labels = labels;
    this.host = document.createElement('colab-connect-button');
    const root = this.host.attachShadow({ mode: 'open' });
    this.icon = h('md-icon', { 'aria-hidden': 'true' });
    this.iconButton = h(
      'md-icon-button',
      { id: 'connect-icon', 'data-aria-label': labels.focusLast, value: '' },
      this.icon,
    );
    this.iconTooltip = h('colab-tooltip-trigger', {
      for: 'connect-icon',
      id: 'connect-icon-tooltip',
      'aria-hidden': 'true',
      message: labels.focusLast,
    });
    this.connect = h('colab-toolbar-button', {
      id: buttonId,
      class: 'split-button',
      tooltipid: 'colab-connect-tooltip',
    });
    this.connect.addEventListener('click', () => onConnectClick());
    const dropdown = h(
      'md-icon-button',
      {
        id: 'connect-dropdown',
        class: 'connect-dropdown',
        'touch-target': 'none',
        'data-aria-expanded': 'false',
        'data-aria-haspopup': 'menu',
        'data-aria-label': labels.moreOptions,
        value: '',
      },
      h('md-icon', { 'aria-hidden': 'true' }, 'arrow_drop_down'),
    );
    this.dropdown = dropdown;
    root.append(
      this.iconButton,
      this.iconTooltip,
      this.connect,
      dropdown,
      h('colab-tooltip-trigger', {
        for: 'connect-dropdown',
        id: 'connect-dropdown-tooltip',
        'aria-hidden': 'true',
        message: labels.moreOptions,
      }),
    );
    this.render('disconnected', { everConnected: false });
  }

  /**
   * `state`: the kernel's, or 'reconnecting': the button stuck on "Reconnecting" (icon `more_horiz`) while the
   * runtime goes on running code (colabtools#5622).
   */
  render(state, { everConnected, ram = '1.08 GB/12.67 GB', disk = '21.20 GB/107.72 GB' }) {
    const connected = state === 'idle' || state === 'busy';
    this.iconButton.hidden = state === 'disconnected';
    this.iconButton.className = state === 'idle' ? 'icon-okay' : '';
    this.icon.textContent = state === 'idle' ? 'done' : 'more_horiz';
    if (connected) {
      const tooltip =
        `${this.labels.connectedTo}\nPython 3 Google Compute Engine backend (GPU)\nRAM: ${ram}\nDisk: ` + `${disk}`;
      this.connect.setAttribute('tooltiptext', tooltip);
      this.connect.replaceChildren(
        h(
          'div',
          { id: 'connect-button-resource-display' },
          h('colab-usage-sparkline', { class: 'ram', label: 'RAM' }),
          h('colab-usage-sparkline', { class: 'disks', label: 'Disk' }),
        ),
      );
    } else {
      const text =
        state === 'reconnecting'
          ? this.labels.reconnecting
          : state === 'connecting'
            ? this.labels.connecting
            : everConnected
              ? this.labels.reconnect
              : this.labels.connect;
      this.connect.setAttribute('tooltiptext', text);
      this.connect.replaceChildren(text);
    }
  }
}

/**
 * `colab-status-bar` with `colab-execution-status` (icon + time of the last finished execution) and
 * `colab-runtime-status`.
 */
export class StatusBar {
  constructor() {
    this.host = h('colab-status-bar', { role: 'region', 'aria-label': 'Runtime status bar' });
    const root = this.host.attachShadow({ mode: 'open' });
    const executionStatus = document.createElement('colab-execution-status');
    const inner = executionStatus.attachShadow({ mode: 'open' });
    this.icon = h('md-icon', { slot: 'icon', 'aria-hidden': 'true' });
    this.time = document.createTextNode('');
    this.button = h(
      'md-text-button',
      { id: 'execution-status', 'aria-describedby': 'execution-status-tooltip', value: '', 'has-icon': '' },
      this.icon,
      this.time,
    );
    inner.append(this.button);
    const runtimeStatus = document.createElement('colab-runtime-status');
    runtimeStatus.attachShadow({ mode: 'open' }).append(
      h(
        'md-text-button',
        {
          'data-aria-expanded': 'false',
          'data-aria-haspopup': 'menu',
          id: 'runtime-options',
          value: '',
          'has-icon': '',
        },
        h('md-icon', { slot: 'icon', 'aria-hidden': 'true' }, 'dns'),
        'Python 3',
      ),
    );
    root.append(
      h('span', { class: 'left' }, h('slot', { name: 'bottom-pane-buttons' })),
      h('span', { class: 'right' }, executionStatus, runtimeStatus),
    );
    this.button.hidden = true;
  }

  /** Shows the outcome of the last finished execution. */
  finished(ok) {
    this.button.hidden = false;
    this.icon.textContent = ok ? 'check' : 'error';
    this.time.textContent = clockTime();
  }
}
