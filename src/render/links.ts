import { classifyLink, dirOf, joinPath } from '../content/index.js';
import { siteIndex } from './site-index.js';
import type { RenderSite, SitePage } from './types.js';

export type ResolvedLink =
  | { kind: 'external'; href: string }
  | { kind: 'anchor'; href: string }
  | { kind: 'page'; href: string; page: SitePage }
  | { kind: 'asset'; href: string; path: string }
  | { kind: 'broken'; href: string; reason: string };

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** The URL of a site file (`.gitbook/assets/a b.png` → `/.gitbook/assets/a%20b.png`). */
export function assetUrl(site: RenderSite, path: string): string {
  return (site.assetBase ?? '/') + encodePath(path);
}

/**
 * Where a link written in the file `from` goes: another page (by its file, or its folder's
 * README.md), a file of the site, an anchor, or the web. A path that names nothing is broken.
 */
export function resolveLink(site: RenderSite, from: string, url: string): ResolvedLink {
  const target = classifyLink(url.trim());
  switch (target.type) {
    case 'external':
      return { kind: 'external', href: target.url };
    case 'anchor':
      return { kind: 'anchor', href: `#${encodeURIComponent(target.anchor)}` };
    case 'relative':
    case 'absolute-path': {
      const path =
        target.type === 'relative' ? joinPath(dirOf(from), target.path.split('?')[0]!) : joinPath('', target.path.split('?')[0]!);
      const hash = target.anchor === undefined || target.anchor === '' ? '' : `#${encodeURIComponent(target.anchor)}`;
      if (path === undefined) return { kind: 'broken', href: url, reason: `\`${url}\` leaves the site's folder` };
      const { byPath } = siteIndex(site);
      const page = byPath.get(path) ?? byPath.get(path === '' ? 'README.md' : `${path}/README.md`);
      if (page !== undefined) return { kind: 'page', href: page.url + hash, page };
      if (site.assets.has(path)) return { kind: 'asset', href: assetUrl(site, path), path };
      const what = /\.md$/i.test(path) ? 'no page of SUMMARY.md has the file' : 'the folder has no such file';
      return { kind: 'broken', href: url, reason: `broken link \`${url}\`: ${what} ${path}` };
    }
  }
}
