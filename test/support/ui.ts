/**
 * Helpers for the page component tests (happy-dom). The tests mock 'webextension-polyfill' with
 * `@webext-core/fake-browser`; this adds what the fake lacks: `i18n.getMessage` from our messages.json, and a service
 * worker answering the pages' messages with the real storage writer, so a command shows up in storage and in the
 * page's watchers as it does in the extension.
 */
import { fakeBrowser } from '@webext-core/fake-browser';
import { type ComponentChild, render } from 'preact';
import { act } from 'preact/test-utils';
import * as v from 'valibot';
import { vi } from 'vitest';
import manifest from '../../manifest.json';
import pkg from '../../package.json';
import { createRouter } from '../../src/background/router';
import { refusedPattern } from '../../src/detector/patterns';
import { type UiMessage, UiMessageSchema } from '../../src/messaging/protocol';
import { defaultNotebook, type NotebookRecord, notebookStorageKey } from '../../src/state/schema';
import { createNotebookWriter } from '../../src/state/store';
import { checkingPatterns } from '../../src/state/transfer';

import { getMessage } from './messages';

export { getMessage } from './messages';

export interface FakeWorker {
  /** Every message the page sent, in order. */
  sent: UiMessage[];
  /** Replaces the answer to the next messages (e.g. a refusal); return undefined to fall through to the real writer. */
  override: (handler: (message: UiMessage) => unknown) => void;
}

export async function installFakeBrowser(): Promise<FakeWorker> {
  fakeBrowser.reset();
  // A focused window, so that tabs.query({ currentWindow: true }) and tabs.create work as in a browser.
  await fakeBrowser.windows.create({ focused: true });
  vi.spyOn(fakeBrowser.i18n, 'getMessage').mockImplementation(getMessage as typeof fakeBrowser.i18n.getMessage);
  vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockResolvedValue(undefined);
  // The built manifest takes its version from package.json (vite.config.ts).
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ ...manifest, version: pkg.version } as never);
  // The real router, as the service worker runs it, with the popup as the sender.
  const { route } = createRouter(createNotebookWriter(checkingPatterns(refusedPattern)));
  const sender = { id: fakeBrowser.runtime.id, url: fakeBrowser.runtime.getURL('src/popup/index.html') };
  const sent: UiMessage[] = [];
  let custom: ((message: UiMessage) => unknown) | null = null;
  vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockImplementation((async (raw: unknown) => {
    const parsed = v.safeParse(UiMessageSchema, raw);
    if (!parsed.success) throw new Error(`Invalid message: ${parsed.issues[0].message}`);
    sent.push(parsed.output);
    const answer = custom?.(parsed.output);
    if (answer !== undefined) return answer;
    return route(raw, sender);
  }) as typeof fakeBrowser.runtime.sendMessage);
  return { sent, override: (handler) => (custom = handler) };
}

export async function storeNotebook(key: string, fields: Partial<NotebookRecord>): Promise<NotebookRecord> {
  const record = { ...defaultNotebook(key), ...fields };
  await fakeBrowser.storage.local.set({ [notebookStorageKey(key)]: record });
  return record;
}

export async function storedNotebook(key: string): Promise<unknown> {
  return (await fakeBrowser.storage.local.get(notebookStorageKey(key)))[notebookStorageKey(key)];
}

export interface Mounted {
  container: HTMLElement;
  unmount: () => void;
}

export async function mount(node: ComponentChild): Promise<Mounted> {
  const container = document.createElement('div');
  document.body.append(container);
  await act(() => render(node, container));
  return {
    container,
    unmount: () => {
      render(null, container);
      container.remove();
    },
  };
}

/** Retries `check` until it passes (state settles through promises and storage events), failing after `timeoutMs`. */
export async function waitFor<T>(check: () => T, timeoutMs = 2000): Promise<T> {
  // Counted in tries, not with Date.now(): tests may fake the clock.
  for (let tries = Math.ceil(timeoutMs / 10); ; tries--) {
    try {
      return check();
    } catch (error) {
      if (tries <= 0) throw error;
      await act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    }
  }
}

// Queries by role and accessible name, enough for these pages (labels via for=, aria-labelledby, or text content).

export function accessibleName(element: Element): string {
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    return labelledBy
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim();
  }
  const ariaLabel = element.getAttribute('aria-label');
  if (ariaLabel) return ariaLabel;
  if (element.id) {
    const label = element.ownerDocument.querySelector(`label[for="${element.id}"]`);
    if (label) return label.textContent?.trim() ?? '';
  }
  const wrapping = element.closest('label');
  if (wrapping) return wrapping.textContent?.trim() ?? '';
  return element.textContent?.trim() ?? '';
}

const IMPLICIT_ROLES: Record<string, (el: Element) => string | null> = {
  BUTTON: () => 'button',
  A: (el) => (el.hasAttribute('href') ? 'link' : null),
  TEXTAREA: () => 'textbox',
  H1: () => 'heading',
  H2: () => 'heading',
  H3: () => 'heading',
  INPUT: (el) => {
    const type = (el as HTMLInputElement).type;
    if (type === 'checkbox') return 'checkbox';
    if (type === 'file') return 'file';
    return 'textbox';
  },
};

function roleOf(element: Element): string | null {
  return element.getAttribute('role') ?? IMPLICIT_ROLES[element.tagName]?.(element) ?? null;
}

export function queryAllByRole(container: ParentNode, role: string, name?: string | RegExp): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('*')].filter((element) => {
    if (roleOf(element) !== role) return false;
    if (name === undefined) return true;
    const actual = accessibleName(element);
    return typeof name === 'string' ? actual === name : name.test(actual);
  });
}

export function getByRole<T extends HTMLElement = HTMLElement>(
  container: ParentNode,
  role: string,
  name?: string | RegExp,
): T {
  const found = queryAllByRole(container, role, name);
  if (found.length !== 1) {
    throw new Error(`Expected one ${role}${name === undefined ? '' : ` named ${String(name)}`}, found ${found.length}`);
  }
  return found[0] as T;
}

export function getByText(container: ParentNode, text: string | RegExp): HTMLElement {
  const matches = [...container.querySelectorAll<HTMLElement>('*')].filter((element) => {
    const own = element.textContent ?? '';
    const ok = typeof text === 'string' ? own.includes(text) : text.test(own);
    // The innermost element holding the text.
    return (
      ok &&
      ![...element.children].some((child) =>
        typeof text === 'string' ? child.textContent?.includes(text) : text.test(child.textContent ?? ''),
      )
    );
  });
  if (matches.length === 0) throw new Error(`No element with text ${String(text)}`);
  return matches[0]!;
}

export async function click(element: HTMLElement): Promise<void> {
  await act(() => {
    element.click();
  });
}

/**
 * Types into a text field: the value, then `input`, then (when `commit`) `change`, as a user leaving the field does.
 */
export async function type(
  element: HTMLInputElement | HTMLTextAreaElement,
  value: string,
  commit = true,
): Promise<void> {
  await act(() => {
    element.value = value;
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
  if (commit) await act(() => void element.dispatchEvent(new Event('change', { bubbles: true })));
}
