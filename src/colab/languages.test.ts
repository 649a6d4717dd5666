// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, snippet } from '../../test/support/colab-dom';
import { classifyDialog, confirmRestartDialog } from './dialogs';
import { deepQuery } from './dom';
import { connectButtonState } from './kernel-state';
import { findMenuItem, findRuntimeButton } from './runtime-menu';

// Colab's finders in the other languages site/languages.ts knows (its table's own tests are in site/).
afterEach(() => {
  document.body.innerHTML = '';
});

describe('menus in other languages: by command first, by the labels Colab was seen with otherwise', () => {
  it('finds the Runtime button by its caption in es, pt, fr and ja when its id is gone', () => {
    for (const caption of [
      'Entorno de ejecución',
      'Ambiente de execução',
      'Tempo de execução',
      'Exécution',
      'ランタイム',
    ]) {
      mount(snippet('menubar-and-runtime-menu-2026-03.html'));
      const button = document.getElementById('runtime-menu-button')!;
      button.removeAttribute('id');
      button.querySelector('.goog-menu-button-caption')!.textContent = caption;
      expect(findRuntimeButton(document), caption).toBe(button);
      document.body.innerHTML = '';
    }
  });

  it('finds Restart session and run all and Run all by their labels when the command attribute is gone', () => {
    mount(snippet('menubar-and-runtime-menu-2026-03.html'));
    const menu = document.getElementById('runtime-menu')!;
    const relabel = (command: string, label: string) => {
      const item = menu.querySelector(`[command="${command}"]`)!;
      item.removeAttribute('command');
      item.querySelector('.goog-menuitem-content')!.textContent = label;
    };
    relabel('restart-and-run-all', 'Reiniciar sessão e executar tudo');
    relabel('runall', 'Executar tudo');
    expect(findMenuItem(menu, 'restart-and-run-all')).toMatchObject({ ok: true, via: 'label' });
    expect(findMenuItem(menu, 'runall')).toMatchObject({ ok: true, via: 'label', label: 'Executar tudo' });
  });
});

describe('dialogs and connect states in the languages their texts are known in', () => {
  it('knows the not-authored warning by its ru "Run anyway", and the runtime-type dialog by its ja title', () => {
    const [ru] = mount(
      '<mwc-dialog open heading="Предупреждение"><md-text-button slot="secondaryAction">Отмена</md-text-button>' +
        '<md-text-button slot="primaryAction">Всё равно запустить</md-text-button></mwc-dialog>',
    );
    expect(classifyDialog(ru!)).toBe('not-authored');
    const [ja] = mount(
      '<mwc-dialog open heading="ランタイムのタイプを変更"><md-text-button slot="primaryAction">保存</md-text-button></mwc-dialog>',
    );
    expect(classifyDialog(ja!)).toBe('change-runtime-type');
  });

  it('never confirms a dialog whose confirm button reads "Cancel" in ru', async () => {
    mount(
      '<mwc-dialog open heading="Перезапустить сеанс?"><md-text-button slot="secondaryAction">Да</md-text-button>' +
        '<md-text-button slot="primaryAction">Отмена</md-text-button></mwc-dialog>',
    );
    expect(await confirmRestartDialog(document, { timeoutMs: 100, englishUi: false })).toMatchObject({
      outcome: 'refused',
      reason: 'confirm-looks-like-cancel',
    });
  });

  it('reads the connect button\'s ru "Reconnect" as the runtime gone', () => {
    mount(snippet('connect-button-connected-2026-03.html'));
    const host = deepQuery(document, 'colab-connect-button')!;
    const root = host.shadowRoot!;
    root.querySelector('#connect')!.textContent = 'Подключиться повторно';
    root.querySelector('#connect-icon')!.setAttribute('hidden', '');
    expect(connectButtonState(host)).toBe('disconnected');
  });
});
