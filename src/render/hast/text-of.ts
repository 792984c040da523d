import type { Nodes } from 'hast';

/** The text of a hast node, markup removed. */
export function textOf(node: Nodes): string {
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map((child) => textOf(child)).join('') : '';
}
