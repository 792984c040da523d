import type { Heading, List, PhrasingContent, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseMarkdown } from './processor.js';
import { slugify, uniqueSlug } from '../tree/slugs.js';
import { blockIds } from './block-nodes.js';

/**
 * A page rendered as a JSON document (the published `format=document`). Deliberately minimal:
 * headings, paragraphs, lists, quotes, code and dividers with bold, italic, code and strike
 * marks and URL links; any other block (tables, HTML, ...) becomes a paragraph of its text.
 * The markdown stays the source of truth; this is a read-only view of it.
 */
export interface JsonDocument {
  object: 'document';
  data: Record<string, never>;
  nodes: JsonBlock[];
}

export interface JsonLeaf {
  object: 'leaf';
  text: string;
  marks: { object: 'mark'; type: MarkType }[];
}
export interface JsonText {
  object: 'text';
  leaves: JsonLeaf[];
}
/** The published ContentRef kinds a link of a page can hold. */
export type JsonContentRef =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string }
  | { kind: 'anchor'; anchor: string; page?: string }
  | { kind: 'file'; file: string };
export interface JsonLink {
  object: 'inline';
  type: 'link';
  isVoid: false;
  data: { ref: JsonContentRef };
  nodes: JsonText[];
}
export type JsonInline = JsonText | JsonLink;
export interface JsonBlock {
  object: 'block';
  type: string;
  /** The block's node id (block-nodes.ts), for comments on it; on commentable blocks only. */
  key?: string;
  isVoid: boolean;
  data: Record<string, unknown>;
  meta?: { id: string };
  nodes?: (JsonBlock | JsonInline)[];
}

type MarkType = 'bold' | 'italic' | 'code' | 'strikethrough';

const text = (value: string, marks: MarkType[] = []): JsonText => ({
  object: 'text',
  leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }],
});

/** The reference a link URL stands for (a stored reference of the page); undefined for a plain URL. */
export type RefOf = (url: string) => JsonContentRef | undefined;

function inlines(nodes: readonly PhrasingContent[], refOf: RefOf, marks: MarkType[] = []): JsonInline[] {
  const out: JsonInline[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out.push(text(node.value, marks));
        break;
      case 'inlineCode':
        out.push(text(node.value, [...marks, 'code']));
        break;
      case 'strong':
        out.push(...inlines(node.children, refOf, [...marks, 'bold']));
        break;
      case 'emphasis':
        out.push(...inlines(node.children, refOf, [...marks, 'italic']));
        break;
      case 'delete':
        out.push(...inlines(node.children, refOf, [...marks, 'strikethrough']));
        break;
      case 'break':
        out.push(text('\n', marks));
        break;
      case 'link': {
        const children = inlines(node.children, refOf, marks).filter((n): n is JsonText => n.object === 'text');
        const ref = refOf(node.url);
        const label = children.length > 0 ? children : [text(ref === undefined ? node.url : '')];
        out.push({ object: 'inline', type: 'link', isVoid: false, data: { ref: ref ?? { kind: 'url', url: node.url } }, nodes: label });
        break;
      }
      default: {
        const value = toString(node);
        if (value !== '') out.push(text(value, marks));
      }
    }
  }
  // A block needs at least one text node to be a valid, editable block.
  return out.length > 0 ? out : [text('')];
}

const paragraph = (nodes: JsonInline[]): JsonBlock => ({ object: 'block', type: 'paragraph', isVoid: false, data: {}, nodes });

/** Per document: heading anchors taken so far, and the node ids of its blocks. */
interface Ctx {
  anchors: Set<string>;
  keys: ReadonlyMap<unknown, { id: string }>;
  refOf: RefOf;
}

/** The block with its node id as `key`, when the markdown node is a commentable block. */
const keyed = (block: JsonBlock, node: RootContent, ctx: Ctx): JsonBlock => {
  const id = ctx.keys.get(node)?.id;
  return id === undefined ? block : { ...block, key: id };
};

function list(node: List, ctx: Ctx): JsonBlock {
  const items: JsonBlock[] = node.children.map((item) => ({
    object: 'block',
    type: 'list-item',
    isVoid: false,
    data: typeof item.checked === 'boolean' ? { checked: item.checked } : {},
    nodes: blocks(item.children, ctx, true),
  }));
  if (node.ordered)
    return { object: 'block', type: 'list-ordered', isVoid: false, data: node.start != null ? { start: node.start } : {}, nodes: items };
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  return { object: 'block', type: tasks ? 'list-tasks' : 'list-unordered', isVoid: false, data: {}, nodes: items };
}

function heading(node: Heading, ctx: Ctx): JsonBlock {
  const anchor = uniqueSlug(slugify(toString(node).trim()), ctx.anchors);
  ctx.anchors.add(anchor);
  const level = Math.min(node.depth, 3);
  return {
    object: 'block',
    type: `heading-${level}`,
    isVoid: false,
    data: {},
    ...(anchor !== '' ? { meta: { id: anchor } } : {}),
    nodes: inlines(node.children, ctx.refOf),
  };
}

function blocks(nodes: readonly RootContent[], ctx: Ctx, nested = false): JsonBlock[] {
  const out: JsonBlock[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'yaml':
      case 'definition':
        break;
      case 'paragraph':
        out.push(keyed(paragraph(inlines(node.children, ctx.refOf)), node, ctx));
        break;
      // Inside list items and quotes only essential blocks are allowed: headings become paragraphs.
      case 'heading':
        out.push(keyed(nested ? paragraph(inlines(node.children, ctx.refOf)) : heading(node, ctx), node, ctx));
        break;
      case 'list':
        out.push(list(node, ctx));
        break;
      case 'blockquote':
        out.push({
          object: 'block',
          type: 'blockquote',
          isVoid: false,
          data: {},
          nodes: blocks(node.children, ctx, true).filter((b) => b.type !== 'code'),
        });
        break;
      case 'thematicBreak':
        out.push({ object: 'block', type: 'divider', isVoid: true, data: {} });
        break;
      case 'code':
        out.push(
          keyed(
            {
              object: 'block',
              type: 'code',
              isVoid: false,
              data: node.lang ? { syntax: node.lang } : {},
              nodes: node.value
                .split('\n')
                .map((line) => ({ object: 'block', type: 'code-line', isVoid: false, data: {}, nodes: [text(line)] })),
            },
            node,
            ctx,
          ),
        );
        break;
      default: {
        const value = toString(node);
        if (value.trim() !== '') out.push(keyed(paragraph([text(value)]), node, ctx));
      }
    }
  }
  return out;
}

/** `refOf` names the links that are references (a stored document's, see parseable-template.ts). */
export function markdownToJsonDocument(markdown: string | Root, refOf: RefOf = () => undefined): JsonDocument {
  const root = typeof markdown === 'string' ? parseMarkdown(markdown) : markdown;
  return { object: 'document', data: {}, nodes: blocks(root.children, { anchors: new Set(), keys: blockIds(root), refOf }) };
}
