import type { CaptureNode, PageCapture } from '../../src/state/page-capture';

/**
 * Builds the elements a capture describes (state/page-capture.ts) under `parent`: tags, attributes, labels, open
 * shadow roots. Returns the top-level elements, in the capture's order. Unit tests only.
 */
export function buildCapture(nodes: readonly CaptureNode[], parent: ParentNode): Element[] {
  const doc = (parent as Node).ownerDocument ?? (parent as Document);
  const built = nodes.map((node) => build(node, doc));
  parent.append(...built);
  return built;
}

function build(node: CaptureNode, doc: Document): Element {
  const el = doc.createElement(node.tag);
  for (const [name, value] of Object.entries(node.attrs ?? {})) el.setAttribute(name, value);
  if (node.text) el.append(node.text);
  if (node.shadow) el.attachShadow({ mode: 'open' }).append(...node.shadow.map((child) => build(child, doc)));
  el.append(...(node.children ?? []).map((child) => build(child, doc)));
  return el;
}

/** A file of test/fixtures/captures/: where its captures come from, and them ("Copy diagnostics" writes one). */
export interface CaptureFile {
  source: string;
  captures: PageCapture[];
}
