import { siteIndex } from '../site-index.js';
import type { RenderSite, SitePage } from '../types.js';
import { escapeHtml } from './escape.js';

/** The pages on the way from the top to `page` (itself included). */
function ancestors(pages: readonly SitePage[], page: SitePage, trail: SitePage[] = []): SitePage[] | undefined {
  for (const candidate of pages) {
    if (candidate === page) return [...trail, candidate];
    const found = ancestors(candidate.pages, page, [...trail, candidate]);
    if (found) return found;
  }
  return undefined;
}

/**
 * The sidebar, from SUMMARY.md's order: groups as headings, pages nested, link pages pointing
 * out, hidden pages left out. A page's children are listed when it is the current page or one
 * of its ancestors, as GitBook expands the current branch: a site of thousands of pages still
 * sends a short sidebar.
 */
export function navigationHtml(site: RenderSite, current: SitePage | undefined): string {
  const open = new Set(current ? (ancestors(site.pages, current) ?? []) : []);
  const item = (page: SitePage): string => {
    if (page.hidden) return '';
    const label = escapeHtml(page.linkTitle ?? page.title);
    const emoji = page.emoji ? `${escapeHtml(page.emoji)} ` : '';
    if (page.kind === 'group')
      return `<li class="ds-nav-group"><span class="ds-nav-group-title">${label}</span>${list(page.pages, true)}</li>`;
    if (page.kind === 'link')
      return `<li><a class="ds-nav-link ds-nav-external" href="${escapeHtml(page.url)}" rel="noopener noreferrer">${emoji}${label}</a></li>`;
    const isCurrent = page === current;
    const children = page.pages.some((p) => !p.hidden) ? (open.has(page) || isCurrent ? list(page.pages) : '') : '';
    const more = page.pages.some((p) => !p.hidden) && children === '' ? ' ds-nav-has-children' : '';
    return `<li><a class="ds-nav-link${isCurrent ? ' ds-nav-current' : ''}${more}" href="${escapeHtml(page.url)}"${isCurrent ? ' aria-current="page"' : ''}>${emoji}${label}</a>${children}</li>`;
  };
  const list = (pages: readonly SitePage[], top = false): string =>
    `<ul${top ? ' class="ds-nav-top"' : ''}>${pages.map(item).join('')}</ul>`;
  return `<nav class="ds-nav" aria-label="Pages">${list(site.pages, true)}</nav>`;
}

/** The visible documents before and after `page` in reading order. */
export function neighbours(site: RenderSite, page: SitePage): { previous?: SitePage; next?: SitePage } {
  const { order } = siteIndex(site);
  const at = order.indexOf(page);
  if (at < 0) return {};
  return { previous: order[at - 1], next: order[at + 1] };
}
