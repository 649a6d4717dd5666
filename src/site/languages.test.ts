// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { COLAB_TEXTS, labelOf, mentionOf, NOTICE_LANGUAGES, noticesKnown, orTranslated } from './languages';
import { baseLanguage, colabLanguage } from './page-language';

afterEach(() => {
  document.body.innerHTML = '';
  document.documentElement.removeAttribute('lang');
  history.replaceState(null, '', '/');
});

describe("the table of Colab's texts in other languages (REFERENCE §12.3)", () => {
  it('holds what §12.3 records, and no notice of any language but English', () => {
    expect(COLAB_TEXTS.pt?.restartAndRunAll).toEqual(['Reiniciar sessão e executar tudo']);
    expect(COLAB_TEXTS.es?.runtimeMenu).toEqual(['Entorno de ejecución']);
    expect(COLAB_TEXTS.ru?.runAnyway).toEqual(['Всё равно запустить']);
    expect(NOTICE_LANGUAGES).toEqual(['en']);
    expect(noticesKnown('en-GB')).toBe(true);
    expect(noticesKnown('pt-BR')).toBe(false);
  });

  it('matches a label whole or followed by a hint, never running on into a longer word', () => {
    const restart = labelOf('restartAndRunAll');
    expect(restart.test('Reiniciar sessão e executar tudo')).toBe(true);
    expect(restart.test('reiniciar sesión y ejecutar todo…')).toBe(true);
    expect(restart.test('Redémarrer la session et tout exécuter Ctrl+M R')).toBe(true);
    expect(restart.test('Reiniciar sessão e executar tudoX')).toBe(false);
    // Japanese runs on: する may follow.
    expect(restart.test('セッションを再起動してすべて実行する')).toBe(true);
    expect(labelOf('runAll').test('Executar tudo abaixo')).toBe(true);
    expect(labelOf('runAll').test('Executar tudos')).toBe(false);
    // Run all in every language §12.3 records it in: the crash's Run all finds it there.
    expect(labelOf('runAll').test('Tout exécuter Ctrl+F9')).toBe(true);
    expect(labelOf('runAll').test('Выполнить все')).toBe(true);
    expect(labelOf('runAll').test('Выполнить всех')).toBe(false);
    expect(mentionOf('runAnyway').test('Нажмите «Всё равно запустить», чтобы продолжить')).toBe(true);
    // A part several languages name is any of them; one only Japanese names takes nothing from the others.
    expect(mentionOf('runtimeMenu').test('Menu «Ambiente de execução»')).toBe(true);
    expect(mentionOf('changeRuntimeType').source).toBe('ランタイムのタイプを変更');
    expect(orTranslated(/^Runtime$/i, labelOf('runtimeMenu')).test('Ambiente de execução')).toBe(true);
    expect(orTranslated(/^Runtime$/i, labelOf('runtimeMenu')).test('runtime')).toBe(true);
  });
});

describe("Colab's language, as its page says it", () => {
  it('is ?hl= first, then <html lang>, else English', () => {
    expect(colabLanguage(document)).toBe('en');
    document.documentElement.lang = 'ja';
    expect(colabLanguage(document)).toBe('ja');
    history.replaceState(null, '', '/drive/abc?authuser=1&hl=pt_BR#scrollTo=x');
    expect(colabLanguage(document)).toBe('pt-BR');
    expect(baseLanguage(colabLanguage(document))).toBe('pt');
    history.replaceState(null, '', '/drive/abc?hl=%3Cscript%3E');
    expect(colabLanguage(document)).toBe('ja');
  });
});

describe('language tags as pages and people write them', () => {
  it('reads <html lang> with stray spaces, and tells the notices known in a tag of any case', () => {
    document.documentElement.lang = ' ja ';
    expect(colabLanguage(document)).toBe('ja');
    expect(noticesKnown('EN-GB')).toBe(true);
    expect(noticesKnown('en')).toBe(true);
    expect(noticesKnown('PT-br')).toBe(false);
  });
});

describe('label and mention regexes at their edges', () => {
  it('match whatever the case, as labels do', () => {
    expect(mentionOf('runAnyway').test('ВСЁ РАВНО ЗАПУСТИТЬ')).toBe(true);
    expect(labelOf('runAll').test('EXECUTAR TUDO')).toBe(true);
  });

  it('a part no language has matches nothing, not everything', () => {
    const ru = COLAB_TEXTS.ru as { cancel?: readonly string[] };
    const saved = ru.cancel;
    delete ru.cancel;
    try {
      expect(labelOf('cancel').test('')).toBe(false);
      expect(labelOf('cancel').test('Cancel')).toBe(false);
      expect(mentionOf('cancel').test('Отмена')).toBe(false);
    } finally {
      ru.cancel = saved;
    }
  });
});
