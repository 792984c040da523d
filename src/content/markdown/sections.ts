import type { Heading, Root, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { parseMarkdown } from './processor.js';
import { slugify, uniqueSlug } from '../tree/slugs.js';

export interface Section {
  /** Anchor of the heading that opens the section; empty for text before the first heading. */
  anchor: string;
  title: string;
  depth: number;
  /** Plain text of the section, without markup. */
  body: string;
}

export interface PageText {
  /** Text of the first level-1 heading, when the page has one. */
  title?: string;
  sections: Section[];
}

/**
 * Splits a page into sections at its headings: what search indexes and what anchors point at.
 * Anchors are the heading text slugified, made unique within the page by `-2`, `-3`, ...
 */
export function pageSections(markdown: string | Root): PageText {
  const root = typeof markdown === 'string' ? parseMarkdown(markdown) : markdown;
  const sections: Section[] = [];
  const anchors = new Set<string>();
  let title: string | undefined;
  let current: Section = { anchor: '', title: '', depth: 0, body: '' };
  const body: string[] = [];
  const flush = () => {
    current.body = body.join('\n').trim();
    if (current.depth > 0 || current.body !== '') sections.push(current);
    body.length = 0;
  };
  for (const node of root.children as RootContent[]) {
    if (node.type === 'yaml') continue;
    if (node.type === 'heading') {
      const heading = node as Heading;
      const text = toString(heading).trim();
      if (heading.depth === 1 && title === undefined) title = text;
      flush();
      const anchor = uniqueSlug(slugify(text), anchors);
      anchors.add(anchor);
      current = { anchor, title: text, depth: heading.depth, body: '' };
      continue;
    }
    body.push(toString(node));
  }
  flush();
  return title === undefined ? { sections } : { title, sections };
}
