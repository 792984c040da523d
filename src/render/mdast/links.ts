import type { Parent, RootContent } from 'mdast';
import { report, type RenderContext } from '../context.js';
import { resolveLink, type ResolvedLink } from '../links.js';

// GitBook writes figures, cards and buttons as HTML: their `href` and `src` are links too.
const HTML_URL = /\b(href|src)(\s*=\s*)("([^"]*)"|'([^']*)')/gi;

/** Attributes of a block that name a page or a file, per block. */
const BLOCK_TARGETS: Record<string, string> = { 'content-ref': 'url', file: 'src' };

/**
 * Rewrites every link, image and HTML `href`/`src` of the page to the URL it is served at, and
 * reports each broken one at its line. Links inside an include start from the include's file.
 */
export function resolveLinks(parent: Parent, ctx: RenderContext, file: string): void {
  const resolve = (url: string, line: number | undefined): ResolvedLink => {
    const link = resolveLink(ctx.site, file, url);
    if (link.kind === 'broken') report(ctx, file, line, link.reason);
    return link;
  };
  for (const node of parent.children as RootContent[]) {
    const line = node.position?.start.line;
    switch (node.type) {
      case 'link':
      case 'image':
      case 'definition': {
        const link = resolve(node.url, line);
        node.url = link.href;
        if (link.kind === 'broken') node.data = { ...node.data, hProperties: { className: ['gb-broken-link'] } };
        break;
      }
      case 'html':
        node.value = node.value.replace(
          HTML_URL,
          (_whole, name: string, eq: string, _quoted: string, double: string | undefined, single: string | undefined, offset: number) => {
            const before = node.value.slice(0, offset);
            const link = resolve((double ?? single ?? '').replace(/&amp;/g, '&'), (line ?? 1) + (before.match(/\n/g)?.length ?? 0));
            return `${name}${eq}"${link.href.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
          },
        );
        break;
      case 'gitbookBlock': {
        const attr = BLOCK_TARGETS[node.name];
        const url = attr === undefined ? undefined : node.attrs[attr];
        if (typeof url === 'string') {
          const link = resolve(url, line);
          node.data = {
            ...node.data,
            href: link.href,
            broken: link.kind === 'broken',
            label: link.kind === 'page' ? link.page.title : (url.split('/').pop() ?? url),
          };
        }
        break;
      }
      default:
        break;
    }
    if ('children' in node)
      resolveLinks(node as Parent, ctx, node.type === 'gitbookBlock' && node.data?.file !== undefined ? node.data.file : file);
  }
}
