import type { List, Root, RootContent, Table } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseMarkdown } from './processor.js';

/** A markdown document flattened to what a plain-text rendering (the PDF export) lays out. */
export type TextBlock =
  | { kind: 'heading'; depth: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'item'; depth: number; marker: string; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'rule' };

/**
 * The blocks of a page in reading order. Inline markup becomes plain text; list items carry
 * their nesting depth and their marker (`•` or `3.`); a table becomes one line per row with
 * cells joined by ` | `. Front matter, HTML and definitions are left out.
 */
export function textBlocks(markdown: string | Root): TextBlock[] {
  const blocks: TextBlock[] = [];
  const visit = (node: RootContent, depth: number) => {
    switch (node.type) {
      case 'heading':
        blocks.push({ kind: 'heading', depth: node.depth, text: toString(node) });
        return;
      case 'paragraph':
        blocks.push({ kind: 'paragraph', text: toString(node) });
        return;
      case 'list':
        listItems(node, depth);
        return;
      case 'code':
        blocks.push({ kind: 'code', text: node.value });
        return;
      case 'blockquote':
        blocks.push({ kind: 'quote', text: node.children.map((c) => toString(c)).join('\n') });
        return;
      case 'thematicBreak':
        blocks.push({ kind: 'rule' });
        return;
      case 'table':
        tableRows(node);
        return;
      default:
        return;
    }
  };
  const listItems = (list: List, depth: number) => {
    list.children.forEach((item, i) => {
      const marker = list.ordered ? `${(list.start ?? 1) + i}.` : '•';
      const [first, ...rest] = item.children;
      const text = first && first.type !== 'list' ? toString(first) : '';
      blocks.push({ kind: 'item', depth, marker, text });
      for (const child of first && first.type === 'list' ? item.children : rest) {
        if (child.type === 'list') listItems(child, depth + 1);
        else visit(child, depth + 1);
      }
    });
  };
  const tableRows = (table: Table) => {
    for (const row of table.children) blocks.push({ kind: 'paragraph', text: row.children.map((cell) => toString(cell)).join(' | ') });
  };
  for (const node of (typeof markdown === 'string' ? parseMarkdown(markdown) : markdown).children) visit(node, 0);
  return blocks;
}
