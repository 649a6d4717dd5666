/**
 * Colab's interface texts in languages other than English, as seen in Colab: one table, with its evidence
 * (REFERENCE.md §12.3: READMEs and automation code of 2025-26, High for menus). Colab's labels follow its interface
 * language (`?hl=`, else the account's); `command` attributes do not (§1), so menu items are found by command first and
 * these labels are only the fallback. The English texts are selectors.ts's, and the detector's notice rules
 * (detector/rules.ts NOTICE_RULES).
 *
 * Only texts seen in Colab are here. No capture of Colab's RAM-crash notice or of its "Runtime disconnected" dialog in
 * another language exists (§12.3), so none is guessed: `NOTICE_LANGUAGES` names the languages whose notices are
 * known, and "Check Colab UI" and the popup say when Colab's language is not one of them. Seen but not used (no step
 * needs them): ja "セッションを再起動" and ru "Перезапустить сеанс" (Restart session), ru "Подключено к" (Connected to).
 */

import { baseLanguage } from './page-language';

export interface LanguageTexts {
  /** The Runtime menu's caption (#2). */
  readonly runtimeMenu?: readonly string[];
  /** Runtime → Restart session and run all (#5). */
  readonly restartAndRunAll?: readonly string[];
  /** Runtime → Run all (#7). */
  readonly runAll?: readonly string[];
  /** The menu item and dialog "Change runtime type" (§11.2): never touched. */
  readonly changeRuntimeType?: readonly string[];
  /** The "not authored by Google" warning's confirm, "Run anyway" (§2): the dialog is the person's. */
  readonly runAnyway?: readonly string[];
  /** A dialog's cancelling button, "Cancel". */
  readonly cancel?: readonly string[];
  /** The connect button while the runtime is gone, "Reconnect" (§5.4). */
  readonly reconnect?: readonly string[];
}

export type TextPart = keyof LanguageTexts;

export const COLAB_TEXTS: Readonly<Record<string, LanguageTexts>> = {
  es: { runtimeMenu: ['Entorno de ejecución'], restartAndRunAll: ['Reiniciar sesión y ejecutar todo'] },
  pt: {
    // "Tempo de execução" in older captures.
    runtimeMenu: ['Ambiente de execução', 'Tempo de execução'],
    restartAndRunAll: ['Reiniciar sessão e executar tudo'],
    runAll: ['Executar tudo'],
  },
  fr: {
    runtimeMenu: ['Exécution'],
    restartAndRunAll: ['Redémarrer la session et tout exécuter'],
    runAll: ['Tout exécuter'],
  },
  ja: {
    runtimeMenu: ['ランタイム'],
    restartAndRunAll: ['セッションを再起動してすべて実行'],
    changeRuntimeType: ['ランタイムのタイプを変更'],
  },
  ru: {
    runAll: ['Выполнить все'],
    reconnect: ['Подключиться повторно'],
    runAnyway: ['Всё равно запустить'],
    cancel: ['Отмена'],
  },
};

/**
 * The languages whose notices are known: Colab's RAM-crash notice (NOTICE_RULES), its disconnect dialogs and toasts
 * (DISCONNECT_TEXT, DIALOG_TEXT.disconnected), and the texts of the dialogs only a person may answer (DIALOG_TEXT).
 */
export const NOTICE_LANGUAGES: readonly string[] = ['en'];

/** Whether Colab's notices are known in the language `tag` (a language tag, "pt-BR"). */
export function noticesKnown(tag: string): boolean {
  return NOTICE_LANGUAGES.includes(baseLanguage(tag));
}

/** Every language's texts for `part`. */
function textsOf(part: TextPart): string[] {
  return Object.values(COLAB_TEXTS).flatMap((texts) => texts[part] ?? []);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A label that is one of `part`'s texts, whole or followed by what is not a word (a keyboard hint, "…"); a text
 * ending in a cased letter must not run on into a longer word (Japanese runs on: する may follow).
 */
export function labelOf(part: TextPart): RegExp {
  const alternatives = textsOf(part).map(
    (text) => escapeRegex(text) + (/\p{LC}$/u.test(text) ? '(?![\\p{L}\\p{N}])' : ''),
  );
  // A part no language has matches nothing.
  return new RegExp(alternatives.length ? `^(?:${alternatives.join('|')})` : '[^\\s\\S]', 'iu');
}

/** Text that contains one of `part`'s texts. */
export function mentionOf(part: TextPart): RegExp {
  const texts = textsOf(part).map(escapeRegex);
  return new RegExp(texts.length ? texts.join('|') : '[^\\s\\S]', 'iu');
}

/** An English regex or the other languages' texts for the same thing, as one regex. */
export function orTranslated(english: RegExp, translated: RegExp): RegExp {
  return new RegExp(`${english.source}|${translated.source}`, [...new Set(`${english.flags}u`)].join(''));
}
