import * as v from 'valibot';
import { CAPTURE_LIMITS } from '../limits';

/**
 * What the guard met in Colab's page when it acted or checked (the Runtime menu, a dialog, a notice), as structure
 * only: tags, attributes and open shadow roots, the labels of buttons and menu items and the titles of dialogs. No
 * other text: no notebook text, no outputs, no dialog body, no toast's message. Taken by src/colab/capture.ts, kept
 * by the page (its last few), handed to the popup with "Check Colab UI" and copied into "Copy diagnostics"; a
 * capture saved in test/fixtures/captures/ is replayed by src/colab/captures.test.ts. Pure: no DOM.
 */

/** One element: its tag, its attributes (a value that could be text is left empty), its label, its children. */
export interface CaptureNode {
  tag: string;
  attrs?: Record<string, string>;
  /** The element's own text, kept only inside a button, a menu item or a dialog's title, cut. */
  text?: string;
  /** The children of its open shadow root. */
  shadow?: CaptureNode[];
  children?: CaptureNode[];
}

/** What a capture shows. */
export const CAPTURE_KINDS = ['runtime-menu', 'dialog', 'notice'] as const;
/**
 * When it was taken: Check Colab UI, a restart or Run all (the menu it opened, the dialog that followed its choice),
 * a dialog that blocked one, a dialog or disconnect left to the person.
 */
export const CAPTURE_OCCASIONS = ['check', 'restart', 'run-all', 'blocked', 'left-to-person', 'disconnect'] as const;

export interface PageCapture {
  v: 1;
  kind: (typeof CAPTURE_KINDS)[number];
  occasion: (typeof CAPTURE_OCCASIONS)[number];
  at: number;
  /** Colab's interface language then (`?hl=` or `<html lang>`). */
  language: string;
  /** The page's elements, outermost first (for the menu: the menu bar, then the menu). */
  nodes: CaptureNode[];
  /** Elements left out past the bound. */
  cut?: number;
}

const Text = (max: number) => v.pipe(v.string(), v.maxLength(max));

const NodeSchema: v.GenericSchema<CaptureNode> = v.object({
  tag: Text(100),
  attrs: v.optional(v.record(Text(100), Text(CAPTURE_LIMITS.attribute))),
  text: v.optional(Text(CAPTURE_LIMITS.text)),
  shadow: v.optional(v.array(v.lazy(() => NodeSchema))),
  children: v.optional(v.array(v.lazy(() => NodeSchema))),
});

export const PageCaptureSchema = v.object({
  v: v.literal(1),
  kind: v.picklist(CAPTURE_KINDS),
  occasion: v.picklist(CAPTURE_OCCASIONS),
  at: v.number(),
  language: Text(50),
  nodes: v.array(NodeSchema),
  cut: v.optional(v.number()),
});

/** The captures a page may hand over: valid ones only (a page of another version, a tampered reply). */
export function validCaptures(raw: unknown): PageCapture[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((c): c is PageCapture => v.is(PageCaptureSchema, c));
}

/** `list` with `capture` added, the oldest dropped past CAPTURE_LIMITS' count and size. */
export function keepCapture(list: readonly PageCapture[], capture: PageCapture): PageCapture[] {
  const kept = [...list, capture].slice(-CAPTURE_LIMITS.captures);
  while (kept.length > 1 && JSON.stringify(kept).length > CAPTURE_LIMITS.totalChars) kept.shift();
  return kept;
}
