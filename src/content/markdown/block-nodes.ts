import { createHash } from 'node:crypto';
import type { Root, RootContent, Nodes } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseMarkdown } from './processor.js';

/** A block of a page a comment can target: a heading, paragraph, code block, table or HTML block. */
export interface BlockNode {
  /** Stable id: derived from the block's text, so it survives edits anywhere else in the page. */
  id: string;
  /** The block's plain text (inline markup removed; a table's cells joined by ` | `). */
  text: string;
  /** 1-based line of the block's first line in the markdown it was read from. */
  line: number;
}

/** Longest `preview` a comment keeps of the block it targets. */
export const NODE_PREVIEW_LENGTH = 200;

/**
 * The commentable blocks of a markdown document, in reading order. List items and quotes are
 * containers: their paragraphs are blocks of their own.
 *
 * Ids are `b` + 16 hex digits of the sha256 of the block's text, then `-2`, `-3`, ... for the
 * second and later blocks with the same text. So an id stays the same while its block's text
 * is unchanged, whatever is inserted, changed or removed elsewhere, and whatever the markup
 * around the text (a paragraph made a heading, a link retargeted). The one exception is a
 * duplicate: a new block with the same text inserted before it shifts its suffix.
 *
 * Pure: the same markdown gives the same ids on the server and in a working tree.
 */
export function blockNodes(markdown: string | Root): BlockNode[] {
  return [...blockIds(typeof markdown === 'string' ? parseMarkdown(markdown) : markdown).entries()].map(([node, { id, text }]) => ({
    id,
    text,
    line: node.position?.start.line ?? 1,
  }));
}

/** The ids of a parsed document's blocks, keyed by mdast node (the JSON document view uses it). */
export function blockIds(root: Root): Map<Nodes, { id: string; text: string }> {
  const out = new Map<Nodes, { id: string; text: string }>();
  const seen = new Map<string, number>();
  const add = (node: Nodes, text: string) => {
    const normalized = text.replace(/\s+/g, ' ').trim();
    if (normalized === '') return;
    const hash = createHash('sha256').update(normalized).digest('hex').slice(0, 16);
    const n = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, n);
    out.set(node, { id: n === 1 ? `b${hash}` : `b${hash}-${n}`, text: normalized });
  };
  const visit = (node: RootContent) => {
    switch (node.type) {
      case 'heading':
      case 'paragraph':
        add(node, toString(node));
        return;
      case 'code':
      case 'html':
        add(node, node.value);
        return;
      case 'table':
        add(node, node.children.map((row) => row.children.map((cell) => toString(cell)).join(' | ')).join('\n'));
        return;
      case 'list':
      case 'listItem':
      case 'blockquote':
        for (const child of node.children) visit(child);
        return;
      default:
        return;
    }
  };
  for (const child of root.children) visit(child);
  return out;
}

/** The preview a comment shows of its block: the text, cut at NODE_PREVIEW_LENGTH characters. */
export function nodePreview(text: string): string {
  const chars = [...text];
  return chars.length <= NODE_PREVIEW_LENGTH ? text : `${chars.slice(0, NODE_PREVIEW_LENGTH - 1).join('')}…`;
}
