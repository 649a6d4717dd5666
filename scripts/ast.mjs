// What the checks of `npm run lint` share to read code: Vite's parser (oxc, through Rolldown), a full TypeScript
// parser that reads all of src/ in well under a second, and a walk over the tree it gives.
export { parseSync } from 'vite';

/** Calls `visit` on every node of an ESTree (oxc's), parents before children. */
export function walk(node, visit) {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (typeof node.type === 'string') visit(node);
  for (const value of Object.values(node)) if (value !== null && typeof value === 'object') walk(value, visit);
}
