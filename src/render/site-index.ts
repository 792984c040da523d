import type { RenderSite, SitePage } from './types.js';

/** A site's pages by file and in reading order, built once per site object. */
export interface SiteIndex {
  byPath: ReadonlyMap<string, SitePage>;
  /** Visible documents in navigation order: what previous/next walk. */
  order: readonly SitePage[];
}

const cache = new WeakMap<RenderSite, SiteIndex>();

export function siteIndex(site: RenderSite): SiteIndex {
  const known = cache.get(site);
  if (known !== undefined) return known;
  const byPath = new Map<string, SitePage>();
  const order: SitePage[] = [];
  const walk = (pages: readonly SitePage[], hidden: boolean) => {
    for (const page of pages) {
      if (page.path !== undefined) byPath.set(page.path, page);
      const isHidden = hidden || page.hidden === true;
      if (page.kind === 'document' && !isHidden) order.push(page);
      walk(page.pages, isHidden);
    }
  };
  walk(site.pages, false);
  const index = { byPath, order };
  cache.set(site, index);
  return index;
}
