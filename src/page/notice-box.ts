/**
 * The small notice shown over a Colab page when the guard acts. It lives in a shadow root on a fixed-position
 * host, so it neither inherits Colab's styles nor shifts Colab's layout, and it never takes focus by itself.
 * Its buttons act on a person's clicks only (`isTrusted`): a page script clicking Cancel must not stop a restart.
 */

import { secondsUntil } from '../lib/units';

export interface NoticeAction {
  label: string;
  onClick: () => void;
}

export interface NoticeContent {
  tone: 'info' | 'warning' | 'error';
  title: string;
  body: string;
  /** A line under the body with the seconds left until `to`, written anew every second. */
  countdown?: { to: number; line: (secondsLeft: number) => string };
  actions: NoticeAction[];
}

const STYLE = `
:host { all: initial; }
.box { position: fixed; right: 16px; bottom: 16px; z-index: 2147483647; max-width: 360px; box-sizing: border-box;
  padding: 12px 14px; border-radius: 8px; font: 13px/1.4 system-ui, sans-serif; color: #1f1f1f; background: #fff;
  border-left: 4px solid #1a73e8; box-shadow: 0 2px 10px rgba(0,0,0,.25); }
.box[data-tone=warning] { border-left-color: #e37400; }
.box[data-tone=error] { border-left-color: #d93025; }
.title { font-weight: 600; margin: 0 24px 4px 0; }
.body { margin: 0 0 8px; word-break: break-word; white-space: pre-line; }
.countdown { display: block; }
.actions { display: flex; gap: 8px; justify-content: flex-end; }
button { font: inherit; cursor: pointer; border-radius: 4px; padding: 4px 10px; border: 1px solid #8a8a8a;
  background: #f1f3f4; color: #1f1f1f; }
button:focus-visible { outline: 2px solid #1a73e8; outline-offset: 1px; }
.close { position: absolute; top: 6px; right: 6px; border: 0; background: transparent; font-size: 16px;
  padding: 0 6px; }
@media (prefers-color-scheme: dark) {
  .box { color: #e8eaed; background: #292a2d; }
  button { color: #e8eaed; background: #3c4043; border-color: #9aa0a6; }
  .close { background: transparent; }
}`;

export interface Notice {
  show(content: NoticeContent): void;
  hide(): void;
}

/**
 * Shown until hidden, replaced, or `signal` aborts (the notebook's session ended). `dismissLabel` is asked for at each
 * showing: a content script's first i18n read fetches the whole message bundle synchronously (about 15 ms of the
 * switch-on profile), which a session that never shows a notice should not pay. `language` is the words' language
 * tag, for the host's `lang`: Colab's page may be in another language, and Japanese and Chinese share code points.
 */
export function createNotice(
  doc: Document,
  dismissLabel: () => string,
  signal: AbortSignal,
  language: () => string = () => '',
): Notice {
  let host: HTMLElement | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;

  const hide = () => {
    clearInterval(timer);
    host?.remove();
    host = null;
  };

  const show = (content: NoticeContent) => {
    hide();
    if (signal.aborted) return;
    host = doc.createElement('colab-oom-guard-notice');
    host.lang = language();
    const root = host.attachShadow({ mode: 'open' });
    const box = render(doc, root, content, dismissLabel(), hide);
    doc.documentElement.append(host);
    const { countdown } = content;
    if (!countdown) return;
    // Its own element, so the body (it quotes the notebook's output) is never rewritten with the seconds.
    const line = element(doc, 'span', 'countdown');
    box.querySelector('.body')?.append(line);
    const tick = () => {
      line.textContent = countdown.line(secondsUntil(countdown.to, Date.now()));
    };
    tick();
    timer = setInterval(tick, 1000);
  };

  signal.addEventListener('abort', hide);
  return { show, hide };
}

/** Acts on trusted clicks only: a person's click, or a keyboard activation, never a script's `.click()`. */
function onPersonClick(button: HTMLElement, act: () => void): void {
  button.addEventListener('click', (event) => {
    if (event.isTrusted) act();
  });
}

function render(
  doc: Document,
  root: ShadowRoot,
  content: NoticeContent,
  dismissLabel: string,
  hide: () => void,
): HTMLElement {
  const style = doc.createElement('style');
  style.textContent = STYLE;
  const box = element(doc, 'div', 'box');
  box.dataset.tone = content.tone;
  box.setAttribute('role', content.tone === 'error' ? 'alert' : 'status');
  const close = element(doc, 'button', 'close', '×');
  close.setAttribute('aria-label', dismissLabel);
  onPersonClick(close, hide);
  const actions = element(doc, 'div', 'actions');
  for (const action of content.actions) {
    const button = element(doc, 'button', '', action.label);
    onPersonClick(button, action.onClick);
    actions.append(button);
  }
  box.append(close, element(doc, 'p', 'title', content.title), element(doc, 'p', 'body', content.body), actions);
  root.append(style, box);
  return box;
}

function element<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  className: string,
  text = '',
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  if (className) el.className = className;
  el.textContent = text;
  return el;
}
