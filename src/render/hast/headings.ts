import type { Root } from 'hast';
import { visit } from 'unist-util-visit';
import { slugify, uniqueSlug } from '../../content/index.js';
import type { OutlineEntry } from '../types.js';
import { el, text } from './el.js';
import { textOf } from './text-of.js';

const HEADING = /^h([1-6])$/;

/**
 * Gives each heading its anchor as GitBook makes it (the text slugified, `-2`, `-3` for repeats:
 * the same anchors search and links use, content/markdown/sections.ts) and a `#` link to it;
 * returns the outline (levels 2 and 3).
 */
export function headingAnchors(root: Root): OutlineEntry[] {
  const taken = new Set<string>();
  const outline: OutlineEntry[] = [];
  visit(root, 'element', (node) => {
    const level = HEADING.exec(node.tagName)?.[1];
    if (level === undefined) return;
    const title = textOf(node).trim();
    const id = uniqueSlug(slugify(title), taken);
    taken.add(id);
    node.properties.id = id;
    node.children.push(el('a', { className: ['gb-anchor'], href: `#${id}`, ariaLabel: `Link to ${title}` }, [text('#')]));
    if (level === '2' || level === '3') outline.push({ id, title, depth: Number(level) });
  });
  return outline;
}
