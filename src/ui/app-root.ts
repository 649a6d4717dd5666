/** The element the extension pages render into (`<div id="app">` in their index.html). */
export function app(): HTMLElement {
  const root = document.getElementById('app');
  if (!root) throw new Error('The page has no #app element to render into');
  return root;
}
