import { visit } from 'unist-util-visit';
import { toString } from 'mdast-util-to-string';
import type { Root } from 'mdast';
import { parseMarkdown } from './processor.js';

export type LinkKind = 'link' | 'image' | 'definition' | 'html';

export interface MarkdownLink {
  url: string;
  kind: LinkKind;
  /** The link's text or image alt, when it has one. */
  text: string;
  /** 1-based line of the link in the markdown. */
  line: number;
}

// GitBook writes images and some links as HTML (`<figure><img src=...>`), so raw HTML counts too.
const HTML_URL = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/** Every link, image and link definition of a markdown document, in document order. */
export function extractLinks(markdown: string | Root): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  visit(typeof markdown === 'string' ? parseMarkdown(markdown) : markdown, (node) => {
    const line = node.position?.start.line ?? 1;
    switch (node.type) {
      case 'link':
        links.push({ url: node.url, kind: 'link', text: toString(node), line });
        break;
      case 'image':
        links.push({ url: node.url, kind: 'image', text: node.alt ?? '', line });
        break;
      case 'definition':
        links.push({ url: node.url, kind: 'definition', text: node.label ?? node.identifier, line });
        break;
      case 'html':
        for (const match of node.value.matchAll(HTML_URL)) {
          const before = node.value.slice(0, match.index);
          links.push({ url: match[1] ?? match[2] ?? '', kind: 'html', text: '', line: line + (before.match(/\n/g)?.length ?? 0) });
        }
        break;
      default:
        break;
    }
  });
  return links;
}

export type LinkTarget =
  | { type: 'external'; url: string }
  | { type: 'anchor'; anchor: string }
  | { type: 'relative'; path: string; anchor?: string }
  | { type: 'absolute-path'; path: string; anchor?: string };

/** `decodeURIComponent`, keeping a malformed escape as written: the link is then simply broken. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What a link URL points at: another site, an anchor of this page, or a path in the space. */
export function classifyLink(url: string): LinkTarget {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) return { type: 'external', url };
  if (url.startsWith('#')) return { type: 'anchor', anchor: decode(url.slice(1)) };
  const hash = url.indexOf('#');
  const rawPath = hash < 0 ? url : url.slice(0, hash);
  const anchor = hash < 0 ? undefined : decode(url.slice(hash + 1));
  const path = decode(rawPath);
  const target = rawPath.startsWith('/') ? 'absolute-path' : 'relative';
  return anchor === undefined ? { type: target, path } : { type: target, path, anchor };
}
