import type { Element, Root, RootContent } from 'hast';
import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { visit } from 'unist-util-visit';

export interface ConvertedHtml {
  /** `<title>`, else the first `<h1>`; undefined when the page has neither. */
  title?: string;
  markdown: string;
  /** `href` of every `<a>`, as written (relative ones unresolved). */
  links: string[];
}

const parser = unified().use(rehypeParse).freeze();
const toMarkdown = unified().use(rehypeRemark).use(remarkGfm).use(remarkStringify, { bullet: '-', fences: true }).freeze();

/** Page chrome left out when the page has no `<main>` or `<article>` to take the text from. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'script', 'style', 'noscript', 'template']);

/**
 * An HTML page as markdown: the text of its `<main>` (or first `<article>`, else `<body>`
 * without navigation chrome) through rehype-remark. Pure: links are returned, not followed.
 */
export function htmlToMarkdown(html: string): ConvertedHtml {
  const root = parser.parse(html);
  const title = textOf(find(root, 'title')) || textOf(find(root, 'h1')) || undefined;
  const links: string[] = [];
  visit(root, 'element', (node: Element) => {
    const href = node.tagName === 'a' ? node.properties.href : undefined;
    if (typeof href === 'string' && href !== '') links.push(href);
  });
  const main = find(root, 'main') ?? find(root, 'article');
  const content: Root = main ? { type: 'root', children: main.children as RootContent[] } : withoutChrome(find(root, 'body') ?? root);
  const mdast = toMarkdown.runSync(content);
  const markdown = toMarkdown.stringify(mdast).trim();
  return title === undefined ? { markdown, links } : { title, markdown, links };
}

function find(root: Root | Element, tagName: string): Element | undefined {
  let found: Element | undefined;
  visit(root, 'element', (node: Element) => {
    if (found) return false;
    if (node.tagName === tagName) {
      found = node;
      return false;
    }
    return undefined;
  });
  return found;
}

function textOf(node: Element | undefined): string {
  if (!node) return '';
  let text = '';
  visit(node, 'text', (t: { value: string }) => {
    text += t.value;
  });
  return text.replace(/\s+/g, ' ').trim();
}

function withoutChrome(node: Root | Element): Root {
  const strip = (children: readonly RootContent[]): RootContent[] =>
    children
      .filter((c) => c.type !== 'element' || !CHROME.has(c.tagName))
      .map((c) => (c.type === 'element' ? { ...c, children: strip(c.children as RootContent[]) as Element['children'] } : c));
  return { type: 'root', children: strip(node.children as RootContent[]) };
}
