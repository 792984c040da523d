import type { Root } from 'mdast';
import { visit } from 'unist-util-visit';
import { parseMarkdown } from './processor.js';
import { includeTarget, parseTag } from '../blocks/tag.js';
import { extractLinks } from './links.js';
import { pageSections, type PageText } from './sections.js';
import { textBlocks, type TextBlock } from './text-blocks.js';
import { blockNodes, type BlockNode } from './block-nodes.js';
import type { JsonDocument } from './json-document.js';
import { contentRefOf, parseableTemplate } from '../links/parseable-template.js';
import { splitTemplate } from '../links/stored-ref.js';
import { markdownToJsonDocument } from './json-document.js';
import type { DocumentLink } from '../links/link-listing.js';

/**
 * Everything reads need from a stored document, derived from one parse when it is written, so
 * that no read parses markdown (a parse can cost seconds on hostile input). References stay
 * references: none of it depends on where a link's target is now.
 */
export interface DocumentFacts {
  /** Link destinations in document order: a URL as written, or a stored reference. */
  links: DocumentLink[];
  /** Sections at the headings (search rows; anchors are their `anchor`). */
  text: PageText;
  /** What the PDF export lays out. */
  textBlocks: TextBlock[];
  /** The blocks a comment can target. */
  blockNodes: BlockNode[];
  /** The published JSON document. */
  document: JsonDocument;
  /**
   * The reusable contents it embeds, as written (`{% include "<path>" %}`, relative to the
   * document's file), in document order; absent in facts derived before they were kept.
   */
  includes?: string[];
}

const INCLUDE_TAG = /\{%-?\s*include\s[\s\S]*?%\}/g;

/** The targets of the `{% include %}` tags in a document's text (not in code). */
function includesOf(root: Root): string[] {
  const found: string[] = [];
  visit(root, 'text', (node) => {
    for (const match of node.value.matchAll(INCLUDE_TAG)) {
      const tag = parseTag(match[0]);
      if (tag?.name === 'include' && !tag.closing) found.push(includeTarget(tag));
    }
  });
  return found;
}

/** The facts of a stored document (a template, see stored-ref.ts). Pure. */
export function documentFacts(stored: string): DocumentFacts {
  const { text, refOf } = parseableTemplate(splitTemplate(stored));
  const root = parseMarkdown(text);
  // Block texts and sections hold no URL, so the parseable form gives what any rendering gives.
  return {
    links: extractLinks(root).map((l) => refOf(l.url) ?? l.url),
    text: pageSections(root),
    textBlocks: textBlocks(root),
    blockNodes: blockNodes(root),
    document: markdownToJsonDocument(root, (url) => {
      const ref = refOf(url);
      return ref === undefined ? undefined : contentRefOf(ref);
    }),
    includes: includesOf(root),
  };
}
