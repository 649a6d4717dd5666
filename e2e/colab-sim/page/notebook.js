// The notebook page: builds the layout (§0: snackbars first in <body>, header with menubar and toolbar, the cell list,
// the status bar; menus appended to <body> on first open), and turns commands from the menus, the toolbar, keyboard
// shortcuts and the main-world API into kernel and runner actions. With `sharedKernel`, a tab that is not the first
// on the notebook shows the first one's runtime (mirror.js) and hands it its commands.

import { CodeCellView, TextCellView } from './cells.js';
import { attachClosureMenu, createMenubar } from './closure-menu.js';
import { showDialog } from './dialogs.js';
import { Kernel } from './kernel.js';
import { LABEL_SETS, LEGACY_ACCELS } from './labels.js';
import { record } from './log.js';
import { electLeader, Mirror } from './mirror.js';
import { Persist } from './persist.js';
import { Runner } from './runner.js';
import { Snackbar } from './snackbar.js';
import { ConnectButton, createRunButton, StatusBar } from './toolbar.js';
import { h, sleep } from './util.js';

const MENUS = {
  file: ['new-notebook', 'open', 'sep', 'save', 'sep', 'print'],
  edit: ['undo', 'sep', 'clear-outputs', 'sep', 'notebook-settings'],
  view: ['table-of-contents', 'notebook-info'],
  insert: ['insert-cell-below', 'insert-text-cell-below'],
  runtime: [
    'runall',
    'runbefore',
    'runfocused',
    'runselected',
    'runafter',
    'sep',
    'interrupt',
    'restart',
    'restart-and-run-all',
    'powerwash-current-vm',
    'sep',
    'change-runtime-type',
    'sep',
    'manage-sessions',
    'open-resource-viewer',
    'view-runtime-logs',
    'sep',
    'deploy-cloud-run',
  ],
  tools: ['show-command-palette', 'sep', 'preferences', 'shortcuts', 'sep', 'open-differ'],
  help: ['faq', 'release-notes'],
};
/** The connect button's dropdown (§11.3): a second Closure menu, with the runtime's most destructive item. */
const CONNECT_MENU = ['change-runtime-type', 'manage-sessions', 'open-resource-viewer', 'sep', 'powerwash-current-vm'];
/** Commands that start a run: ignored while Colab brings a crashed kernel back (§11.5). */
const RUN_COMMANDS = new Set(['runall', 'runbefore', 'runfocused', 'runselected', 'runafter']);
/** The dialog each kind of disconnect shows. */
const DISCONNECT_DIALOGS = {
  idle: 'disconnected',
  unassigned: 'disconnected',
  'disallowed-code': 'disconnected-disallowed-code',
  'zero-units': 'disconnected-zero-units',
};
/** Accelerators outside the Runtime menu (the File menu's `Ctrl+O` is captured). */
const ACCELS = {
  open: 'Ctrl+O',
  save: 'Ctrl+S',
  print: 'Ctrl+P',
  undo: 'Ctrl+Z',
  'insert-cell-below': 'Ctrl+M B',
  'show-command-palette': 'Ctrl+Shift+P',
};

export class Notebook {
  constructor(scenario) {
    this.scenario = scenario;
    this.ui = scenario.ui;
    this.labels = LABEL_SETS[this.ui.labels];
    this.persist = new Persist(scenario);
    this.notAuthoredAccepted = false;
    this.focused = null;

    /** @type {Mirror | null} */
    this.mirror = null;
    this.renderedProcess = 0;
    this.kernel = new Kernel({
      timing: scenario.timing,
      onState: () => this.#kernelChanged(),
      onGpuUnavailable: scenario.kernel.gpuUnavailable
        ? () => this.dialog('gpu-unavailable').then((r) => r === 'ok')
        : null,
      onUnreachable: () => this.#unableToConnect(),
    });
    /** The connect button stuck on "Reconnecting" while the runtime runs on (colabtools#5622). */
    this.stuckReconnecting = false;
    this.runner = new Runner({
      kernel: this.kernel,
      scenario,
      persist: this.persist,
      beforeRun: () => this.#notAuthoredCheck(),
      onCrash: (kind) => this.crash(kind),
      onUnassign: () => this.disconnect('unassigned'),
      dialog: (kind) => this.dialog(kind),
      onCellEnd: (view, ok) => this.#cellEnded(view, ok),
    });
    this.views = scenario.cells.map((cell, index) =>
      cell.type === 'text'
        ? new TextCellView(cell, index)
        : new CodeCellView(cell, index, {
            ui: this.ui,
            runCellLabel: this.labels.runCell,
            kernelProcess: () => this.kernel.process,
            onRunButton: (view) => this.#runButtonClicked(view),
            onFocus: (view) => this.#focus(view),
            onRender: (view) => this.#leads() && this.mirror?.send({ op: 'cell', ...cellOf(view) }),
          }),
    );
    this.codeViews = this.views.filter((v) => v instanceof CodeCellView);
    for (const view of this.codeViews) {
      view.outputs.onChange = (change) =>
        this.#leads() && this.mirror?.send({ op: 'outputs', index: view.index, change });
    }
  }

  get follower() {
    return this.mirror?.role === 'follower';
  }

  #leads() {
    return this.mirror?.role === 'leader';
  }

  // --- Layout ---------------------------------------------------------------------------------------------------

  mount() {
    document.title = `${this.scenario.title} - Colab`;
    this.snackbars = { primary: new Snackbar('primary'), secondary: new Snackbar('secondary') };
    this.connectButton = new ConnectButton(this.labels.connect, () => this.#connectClick(), this.ui.connectButtonId);
    this.#connectMenu();
    this.statusBar = new StatusBar();
    this.cellList = h('div', { class: 'notebook-cell-list' });
    const toolbar = h(
      'colab-notebook-toolbar',
      { id: 'top-toolbar' },
      this.ui.toolbarRunButton ? this.#toolbarRunButton() : null,
      h('colab-connect-warning-button'),
      this.connectButton.host,
    );
    document.body.prepend(this.snackbars.primary.element, this.snackbars.secondary.element);
    document.body.append(
      h(
        'div',
        { class: 'notebook-vertical' },
        this.#header(toolbar),
        h(
          'div',
          { class: 'notebook-horizontal' },
          h(
            'colab-scroller',
            { id: 'notebook-main', class: 'notebook-container' },
            h('div', { class: 'notebook-content-background' }, h('div', { class: 'notebook-content' }, this.cellList)),
          ),
        ),
        this.statusBar.host,
      ),
    );
    const renderCells = () => {
      this.cellList.append(...this.views.map((v) => v.element));
      this.#showSaved();
    };
    if (this.ui.renderDelayMs > 0) sleep(this.ui.renderDelayMs).then(renderCells);
    else renderCells();
    this.#installShortcuts();
  }

  /**
   * The header: menubar and toolbar (§1.1, §1.3). `ui.header` 'collapsed' hides the menubar behind its caret, as the
   * "toggle header visibility" caret does (§11.3, ColabFold#542); 'missing' leaves it out of the DOM (colabtools#5376).
   * The toolbar stays either way.
   */
  #header(toolbar) {
    const header = h('div', { id: 'header', class: 'header' });
    if (this.ui.header === 'missing') {
      header.append(toolbar);
      return header;
    }
    const menubar = this.#menubar();
    const caret = h(
      'md-icon-button',
      { id: 'header-toggle', 'data-aria-label': this.labels.headerToggle, value: '' },
      h('md-icon', { 'aria-hidden': 'true' }, 'expand_less'),
    );
    const setCollapsed = (collapsed) => {
      menubar.style.display = collapsed ? 'none' : '';
      caret.querySelector('md-icon').textContent = collapsed ? 'expand_more' : 'expand_less';
    };
    caret.addEventListener('click', () => {
      const collapsed = menubar.style.display !== 'none';
      record('header-toggle', { collapsed });
      setCollapsed(collapsed);
    });
    setCollapsed(this.ui.header === 'collapsed');
    header.append(menubar, toolbar, caret);
    return header;
  }

  #connectMenu() {
    const label = (command) => this.labels.items[command];
    attachClosureMenu(this.connectButton.dropdown, 'connect', {
      itemsFor: () =>
        CONNECT_MENU.map((command) =>
          command === 'sep'
            ? 'sep'
            : { menu: 'connect', command, label: label(command), hasCommandAttribute: !this.ui.noCommandAttributes },
        ),
      isDisabled: () => false,
      onAction: (command, item) => this.#connectMenuCommand(command, item.spec.label),
    });
  }

  /** The connect menu's items; "Disconnect and delete runtime" asks first here (§11.2 table). */
  async #connectMenuCommand(command, label) {
    record('menu-item', { command, via: 'connect-menu', label });
    if (command === 'change-runtime-type') await this.dialog('change-runtime-type');
    if (command === 'powerwash-current-vm' && (await this.dialog('delete-runtime')) === 'ok') {
      this.kernel.disconnect('powerwash');
    }
  }

  #menubar() {
    const removed = new Set(this.ui.removeItems);
    if (this.ui.labels === 'en-legacy') removed.add('deploy-cloud-run'); // a 2025+ item
    return createMenubar({
      captions: this.labels.menus,
      itemsFor: (menuId) =>
        MENUS[menuId]
          .filter((c) => menuId !== 'runtime' || !removed.has(c))
          .map((command) =>
            command === 'sep'
              ? 'sep'
              : {
                  menu: menuId,
                  command,
                  label: this.labels.items[command],
                  accel: menuId === 'runtime' ? (this.ui.accels ? LEGACY_ACCELS[command] : undefined) : ACCELS[command],
                  hasCommandAttribute: !this.ui.noCommandAttributes,
                },
          ),
      isDisabled: (item) =>
        item.menu === 'runtime' &&
        (this.ui.disableItems.includes(item.command) || (item.command === 'restart' && !this.kernel.connected)),
      onAction: (command, item, menuId) => this.command(command, `${menuId}-menu`, item.spec.label),
      runtimeMenuId: this.ui.runtimeMenuId,
    });
  }

  #toolbarRunButton() {
    return createRunButton({
      labels: this.labels.toolbar,
      remove: this.ui.toolbarRemoveItems,
      commandAttributes: !this.ui.noCommandAttributes,
      itemClick: this.ui.toolbarMenuItemClick,
      onCommand: (command) =>
        this.command(
          command,
          'toolbar',
          command === 'runall' ? this.labels.toolbar.runAll : this.labels.toolbar[command],
        ),
    });
  }

  #renderKernelState() {
    const state = this.stuckReconnecting && this.kernel.connected ? 'reconnecting' : this.kernel.state;
    this.connectButton.render(state, { everConnected: this.kernel.everConnected });
  }

  /** The connect button shows "Reconnecting" (or stops showing it) while the runtime goes on as it is. */
  setStuckReconnecting(on) {
    this.stuckReconnecting = on;
    record('stuck-reconnecting', { on });
    this.#renderKernelState();
  }

  /** The kernel's state changed; a new kernel process makes every settled state stale. */
  #kernelChanged() {
    this.#renderKernelState();
    if (this.kernel.process !== this.renderedProcess) {
      this.renderedProcess = this.kernel.process;
      for (const view of this.codeViews) view.render();
    }
    if (this.#leads()) this.mirror?.send({ op: 'kernel', ...kernelOf(this.kernel) });
  }

  // --- Saved outputs (§4.1 virtualisation) ----------------------------------------------------------------------

  #savedFor(view) {
    return this.persist.saved(view.cell.id) ?? view.cell.saved;
  }

  #showSaved() {
    if (this.scenario.savedOutputs === 'none') return;
    for (const view of this.codeViews) {
      const saved = this.#savedFor(view);
      if (!saved) continue;
      view.setState('idle', saved.count ?? null, -1);
      if (this.scenario.savedOutputs === 'at-load') this.#renderSaved(view, saved);
    }
  }

  /** Saved outputs, with the saved state: a saved error shows `stale error` (§11.4), with its outputs, at once. */
  #renderSaved(view, saved) {
    view.outputs.reset();
    for (const output of saved.outputs) view.outputs.add(output);
    const failed = saved.outputs.some((output) => output.output_type === 'error');
    view.setState(failed ? 'error' : 'idle', saved.count ?? null, -1);
  }

  /** Renders lazily withheld saved outputs and states (as when the cells scroll into view, §11.4). */
  showLazyOutputs() {
    if (this.scenario.savedOutputs !== 'lazy') return [];
    const shown = [];
    for (const view of this.codeViews) {
      const saved = this.#savedFor(view);
      // A cell that ran in this page already shows its own outputs.
      if (!saved || view.executedAt || view.outputs.hasOutput || view.state !== 'idle') continue;
      this.#renderSaved(view, saved);
      shown.push(view.index);
    }
    record('outputs-shown', { cells: shown });
    return shown;
  }

  #cellEnded(view, ok) {
    this.statusBar.finished(ok);
    this.persist.save(view.cell.id, { count: view.count, outputs: view.outputs.snapshot() });
  }

  // --- Commands -------------------------------------------------------------------------------------------------

  /** One entry point for every UI command (menus, toolbar, shortcuts). A follower hands it to the leader. */
  command(command, via, label) {
    record('menu-item', { command, via, label });
    if (RUN_COMMANDS.has(command) && this.kernel.recoveringFromCrash) {
      record('run-ignored', { command, reason: 'kernel-restarting' });
      return undefined;
    }
    const focusedIndex = this.focused ? this.codeViews.indexOf(this.focused) : 0;
    if (this.follower) return this.#forward(command, focusedIndex);
    return this.#execute(command, focusedIndex);
  }

  /** Restarts confirm in the tab that asked, then run on the leader. */
  async #forward(command, focusedIndex) {
    const restart = command === 'restart' || command === 'restart-and-run-all';
    if (restart && !(await this.#confirmRestart(command === 'restart-and-run-all'))) return;
    this.mirror?.send({ op: 'command', command, focusedIndex, confirmed: restart });
  }

  #execute(command, focusedIndex, confirmed = false) {
    switch (command) {
      case 'runall':
        return this.runner.run(this.codeViews, 'all');
      case 'runbefore':
        return this.runner.run(this.codeViews.slice(0, focusedIndex), 'before');
      case 'runfocused':
      case 'runselected':
        return this.runner.run(this.codeViews.slice(focusedIndex, focusedIndex + 1), 'focused');
      case 'runafter':
        return this.runner.run(this.codeViews.slice(focusedIndex), 'after');
      case 'interrupt':
        record('interrupt');
        return this.runner.interrupt();
      case 'restart':
        return this.restart(false, confirmed);
      case 'restart-and-run-all':
        return this.restart(true, confirmed);
      case 'powerwash-current-vm':
        record('dangerous', { what: 'powerwash-current-vm' });
        return this.kernel.disconnect('powerwash');
      case 'change-runtime-type':
        record('dangerous', { what: 'change-runtime-type' });
        return undefined;
      case 'clear-outputs':
        return this.#clearOutputs();
      default:
        return undefined; // the other items only open panels or pages
    }
  }

  /** Restart session [and run all] (§2): confirm if a kernel is connected (or always, per scenario), restart, run. */
  async restart(runAll, confirmed = false) {
    if (!confirmed && !(await this.#confirmRestart(runAll))) return;
    if (this.kernel.connected) await this.kernel.restart();
    if (runAll) await this.runner.run(this.codeViews, 'all');
  }

  async #confirmRestart(runAll) {
    const connected = this.kernel.connected;
    if (!connected && !runAll) return false;
    const ask = this.ui.dialog !== 'none' && (this.ui.confirm === 'always' || connected);
    // A test of look-alikes: the restart shows another dialog (the pip warning, "New runtime required"…) instead.
    if (ask && this.ui.restartDialog !== 'restart-confirm') {
      await this.dialog(this.ui.restartDialog);
      return false;
    }
    return !ask || (await this.dialog('restart-confirm')) === 'ok';
  }

  #clearOutputs() {
    record('clear-outputs');
    for (const view of this.codeViews) {
      view.outputs.reset();
      view.render();
      this.persist.save(view.cell.id, { count: view.count, outputs: [] });
    }
  }

  #runButtonClicked(view) {
    record('run-cell-click', { cell: view.index });
    if (this.follower) return this.mirror?.send({ op: 'run-cell', index: view.index });
    return this.#runCell(view);
  }

  #runCell(view) {
    if (view.state === 'running') return this.runner.interrupt();
    if (view.state === 'pending') return undefined;
    return this.runner.run([view], 'cell');
  }

  #focus(view) {
    this.focused?.setFocused(false);
    this.focused = view;
    view.setFocused(true);
  }

  #connectClick() {
    record('connect-click');
    if (this.kernel.state === 'disconnected') this.kernel.connect();
  }

  /**
   * Closure's shortcut handler reads `keyCode`, which untrusted synthetic KeyboardEvents leave at 0 (§3): only real
   * key presses work. Ctrl+F9 runs all, Ctrl+M . restarts, Ctrl+M I interrupts.
   */
  #installShortcuts() {
    let ctrlM = false;
    document.addEventListener('keydown', (event) => {
      if (event.ctrlKey && event.keyCode === 120) return this.command('runall', 'shortcut', 'Ctrl+F9');
      if (event.ctrlKey && event.keyCode === 77) {
        ctrlM = true;
        return undefined;
      }
      if (ctrlM && event.keyCode === 190) this.command('restart', 'shortcut', 'Ctrl+M .');
      if (ctrlM && event.keyCode === 73) this.command('interrupt', 'shortcut', 'Ctrl+M I');
      ctrlM = false;
      return undefined;
    });
  }

  async #notAuthoredCheck() {
    if (!this.ui.notAuthoredWarning || this.notAuthoredAccepted) return true;
    this.notAuthoredAccepted = (await this.dialog('not-authored')) === 'ok';
    return this.notAuthoredAccepted;
  }

  // --- Events a test can trigger ----------------------------------------------------------------------------------

  dialog(kind) {
    return showDialog(kind, {
      variant: this.ui.dialog,
      dialogs: this.labels.dialogs,
      dialogMs: this.scenario.timing.dialogMs,
      openingMs: this.ui.dialogOpeningMs,
    });
  }

  /** The kernel dies (§5.1): running work stops without a traceback, a sticky toast, an automatic restart. */
  crash(kind = 'ram') {
    const crash = this.labels.crash;
    const legacy = this.ui.crashWording === 'legacy';
    const text = kind === 'ram' ? (legacy ? crash.ramLegacy : crash.ram) : crash[kind];
    const moreRam = kind === 'ram' && !legacy && this.ui.crashAction === 'get-more-ram';
    this.kernel.crash(kind);
    const actionText = moreRam ? crash.getMoreRam : crash.viewLogs;
    this.#showToast(text, actionText, moreRam);
    if (this.#leads()) this.mirror?.send({ op: 'toast', text, actionText, moreRam });
    if (kind === 'ram' && this.ui.highRamOffer) this.dialog('high-ram');
  }

  #showToast(text, actionText, moreRam) {
    this.snackbars[this.ui.toastArea].show(text, {
      actionText,
      onAction: () => moreRam && record('dangerous', { what: 'get-more-ram' }),
      timeoutMs: -1,
    });
  }

  /**
   * "Runtime disconnected" (§5.2): the kernel is gone; "Reconnect" connects again. `reason`: an idle time-out (the
   * body of §5.2), disallowed code or zero compute units (the same title, their own bodies, §12.4), or the notebook's
   * own `google.colab.runtime.unassign()` (what Colab shows then was never captured: the idle dialog, the hardest
   * case, since only the notebook's code tells it apart).
   */
  async disconnect(reason = 'idle') {
    record('disconnect', { reason });
    this.kernel.disconnect('disconnect');
    const kind = DISCONNECT_DIALOGS[reason];
    if (!kind) throw new Error(`colab-sim: unknown disconnect reason ${reason}`);
    if ((await this.dialog(kind)) === 'ok') await this.kernel.connect();
  }

  /**
   * An outage (colabtools#5650): the runtime is lost and every connection fails with "Unable to connect to the
   * runtime." (a toast, §5.1 "Other toasts"), until it ends.
   */
  setOutage(on) {
    record('outage', { on });
    this.kernel.unreachable = on;
    if (!on || this.kernel.state === 'disconnected') return;
    this.kernel.disconnect('disconnect');
    this.#unableToConnect();
  }

  #unableToConnect() {
    const text = this.labels.crash.unableToConnect;
    this.#showToast(text, undefined, false);
    if (this.#leads()) this.mirror?.send({ op: 'toast', text, moreRam: false });
  }

  /** Called once the page is mounted. */
  async start() {
    this.#renderKernelState();
    if (this.scenario.sharedKernel) {
      const role = await electLeader(this.scenario.id);
      this.mirror = new Mirror(this.scenario.id, role, (message) => this.#mirrored(message));
      record('kernel-role', { role });
      if (role === 'follower') return this.mirror.send({ op: 'sync' });
    }
    if (!this.scenario.kernel.autoConnect) return;
    const connected = await this.kernel.connect();
    if (connected && this.scenario.autoRunAll) this.runner.run(this.codeViews, 'all');
  }

  /** A message from the other side of the shared kernel. */
  #mirrored(message) {
    switch (message.op) {
      // To the leader:
      case 'sync':
        this.mirror?.send({ op: 'kernel', ...kernelOf(this.kernel) });
        for (const view of this.codeViews) {
          this.mirror?.send({ op: 'outputs', index: view.index, change: { kind: 'reset' } });
          for (const model of view.outputs.snapshot())
            this.mirror?.send({ op: 'outputs', index: view.index, change: { kind: 'add', model } });
          this.mirror?.send({ op: 'cell', ...cellOf(view) });
        }
        return;
      case 'command':
        return this.#execute(message.command, message.focusedIndex, message.confirmed);
      case 'run-cell':
        return this.#runCell(this.codeViews[message.index]);
      // To a follower:
      case 'kernel':
        this.kernel.process = message.process;
        this.kernel.everConnected = message.everConnected;
        this.kernel.counter = message.counter;
        this.kernel.setState(message.state);
        return this.#kernelChanged();
      case 'cell':
        return this.codeViews[message.index]?.setState(message.state, message.count, message.process);
      case 'outputs': {
        const view = this.codeViews[message.index];
        if (message.change.kind === 'reset') view?.outputs.reset();
        else view?.outputs.add(message.change.model);
        return view?.render();
      }
      case 'toast':
        return this.#showToast(message.text, message.actionText, message.moreRam);
      default:
        return undefined;
    }
  }
}

function cellOf(view) {
  return { index: view.index, state: view.state, count: view.count, process: view.process };
}

function kernelOf(kernel) {
  return { state: kernel.state, process: kernel.process, everConnected: kernel.everConnected, counter: kernel.counter };
}
