import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * WCAG 2.2 AA checks of a page the extension shows: axe-core's rules (text contrast, names, roles, target size...),
 * and what axe does not check: the contrast of what identifies a control and its state (1.4.11, 3:1), text of at
 * least 12 px, and a visible focus indicator on every control reached with Tab.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core's serious and critical violations on the page, or inside the element `host` names (with its shadow
 * root). Injected through the DevTools protocol, which the extension pages' CSP does not apply to.
 */
export async function axeViolations(page: Page, host?: string): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ host, tags }) => {
      const axe = (window as unknown as { axe: AxeRunner }).axe;
      const context = host ? { include: [[host]] } : document;
      const result = await axe.run(context, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({
          rule: violation.id,
          impact: violation.impact ?? '',
          help: violation.help,
          targets: violation.nodes.map((node) => JSON.stringify(node.target)),
        }));
    },
    { host, tags: WCAG_22_AA },
  );
}

interface AxeRunner {
  run(
    context: unknown,
    options: unknown,
  ): Promise<{
    violations: { id: string; impact?: string; help: string; nodes: { target: unknown }[] }[];
  }>;
}

/** Colour arithmetic both checks use in the page, installed there as `window.__a11y` (evaluate passes no closures). */
interface Helpers {
  ratio(a: string, b: string): number;
  opaque(color: string): boolean;
  /** The first opaque background above `el` (crossing shadow roots), white at the top. */
  backgroundAround(el: Element): string;
}

function installHelpers(): void {
  const channels = (color: string): number[] => (color.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = channels(color).map((c) => c / 255);
    const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
  };
  const opaque = (color: string) => color !== 'transparent' && (channels(color)[3] ?? 1) > 0;
  const up = (el: Element) => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host as Element | undefined);
  const helpers: Helpers = {
    ratio: (a, b) => {
      const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (high + 0.05) / (low + 0.05);
    },
    opaque,
    backgroundAround: (el) => {
      for (let at = up(el); at; at = up(at)) {
        const background = getComputedStyle(at).backgroundColor;
        if (opaque(background)) return background;
      }
      return 'rgb(255, 255, 255)';
    },
  };
  (window as unknown as { __a11y: Helpers }).__a11y = helpers;
}

/**
 * What axe does not check, on every rendered element under `root` (a selector; its shadow root is searched too):
 * text smaller than 12 px, and controls whose identifying colours contrast less than 3:1 with what is around them.
 * Returns one line per problem.
 */
export async function controlFindings(page: Page, root = 'body'): Promise<string[]> {
  await page.evaluate(installHelpers);
  return page.evaluate((root) => {
    const { ratio, opaque, backgroundAround } = (window as unknown as { __a11y: Helpers }).__a11y;
    const findings: string[] = [];
    const name = (el: Element) => {
      const classes = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter(Boolean) : [];
      const selector = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${classes.map((c) => `.${c}`).join('')}`;
      return `${selector} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    };
    const rendered = (el: Element) => {
      if (el.getClientRects().length === 0) return false;
      for (let at: Element | null = el; at; at = at.parentElement) {
        if (at.classList.contains('sr-only') || getComputedStyle(at).visibility === 'hidden') return false;
      }
      return true;
    };

    const top = document.querySelector(root);
    if (!top) return [`nothing matches ${root}`];
    const scopes: (Element | ShadowRoot)[] = [top];
    if (top.shadowRoot) scopes.push(top.shadowRoot);
    for (const scope of scopes) {
      for (const el of scope.querySelectorAll('*')) {
        if (el.shadowRoot) scopes.push(el.shadowRoot);
      }
    }
    const all = scopes.flatMap((scope) => [...scope.querySelectorAll('*')]);

    // 1. Text of at least 12 px as shown (a drawing's text is scaled with its drawing).
    for (const el of all) {
      const ownText = [...el.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
      if (!ownText || !rendered(el)) continue;
      let size = Number.parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGGraphicsElement) size *= el.getScreenCTM()?.a ?? 1;
      if (size < 11.95) findings.push(`text of ${size.toFixed(1)} px: ${name(el)}`);
    }

    // 2. What identifies each control and its state, against what is around it (3:1).
    for (const el of all) {
      if (!rendered(el)) continue;
      const style = getComputedStyle(el);
      const around = backgroundAround(el);
      const own = opaque(style.backgroundColor) ? style.backgroundColor : around;
      const border = Number.parseFloat(style.borderTopWidth) > 0 && opaque(style.borderTopColor);
      const edge = Math.max(ratio(own, around), border ? ratio(style.borderTopColor, around) : 1);
      const isSwitch = el.matches('input.switch');
      const isField = el.matches('input[type="text"], input[type="number"], input:not([type]), textarea, select');
      const isButton = el.matches('button') && (border || opaque(style.backgroundColor));
      if ((isSwitch || isField || isButton) && edge < 3) {
        findings.push(`control edge ${edge.toFixed(2)}:1 against ${around}: ${name(el)}`);
      }
      if (isSwitch) {
        const knob = getComputedStyle(el, '::after').backgroundColor;
        const knobRatio = ratio(knob, own);
        if (knobRatio < 3) findings.push(`switch knob ${knobRatio.toFixed(2)}:1 against its track: ${name(el)}`);
      }
    }
    return findings;
  }, root);
}

/**
 * Presses Tab through the page (at most `limit` times, until focus comes back to a control already seen) and returns
 * the controls reached, inside `within` only when given (a selector of a shadow host or an element), whose focus is
 * not visible: not :focus-visible, no outline, one under 2 px, or one contrasting less than 3:1 with the background.
 */
export async function focusFindings(
  page: Page,
  within?: string,
  limit = 120,
): Promise<{ reached: string[]; findings: string[] }> {
  await page.evaluate(installHelpers);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const reached: string[] = [];
  const findings: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate((within) => {
      const { ratio, backgroundAround } = (window as unknown as { __a11y: Helpers }).__a11y;
      let el = document.activeElement;
      if (within && !el?.closest(within)) return null;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      if (!el || el === document.body) return null;
      const background = backgroundAround(el);
      const style = getComputedStyle(el);
      // Its accessible name, near enough: aria-label, else its label's text, else its own text.
      const labels = (el as HTMLInputElement).labels;
      const label = (el.getAttribute('aria-label') ?? labels?.[0]?.textContent ?? el.textContent ?? '')
        .trim()
        .slice(0, 40);
      return {
        name: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${label}"`,
        visible: el.matches(':focus-visible'),
        outline: `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
        shown: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
        contrast: ratio(style.outlineColor, background),
        background,
      };
    }, within);
    if (focus === null) continue;
    if (reached.includes(focus.name)) break;
    reached.push(focus.name);
    if (!focus.visible || !focus.shown || focus.contrast < 3) {
      findings.push(
        `${focus.name}: ${focus.visible ? '' : 'not :focus-visible, '}outline ${focus.outline} ` +
          `(${focus.contrast.toFixed(2)}:1 against ${focus.background})`,
      );
    }
  }
  return { reached, findings };
}
