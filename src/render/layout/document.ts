import { DEFAULT_PAGE_LAYOUT } from '../../model/index.js';
import { assetUrl } from '../links.js';
import type { RenderSite, RenderedPage, SitePage } from '../types.js';
import { escapeHtml } from './escape.js';
import { navigationHtml, neighbours } from './navigation.js';
import { PAGE_SCRIPT } from './page-script.js';
import { STYLES } from './styles.js';

export interface DocumentOptions {
  /** URL of KaTeX's style sheet, linked when the page has math. */
  katexStylesheet?: string;
  /** Show the search box (its behaviour is the caller's script's). @default false */
  search?: boolean;
  /** Extra markup at the end of the body (the preview's problems overlay). Trusted: the caller's own. */
  bodyEnd?: string;
  /** Extra markup at the start of the body (the platform's app bar). Trusted: the caller's own. */
  bodyStart?: string;
  /** Scripts to load after the page's own, by URL. */
  scripts?: readonly string[];
}

/** A cover image's URL: an asset of the site by path, or a URL as written. */
function coverUrl(site: RenderSite, page: SitePage): string | undefined {
  const ref = page.cover?.ref;
  if (ref === undefined) return undefined;
  return ref.kind === 'url' ? ref.url : assetUrl(site, ref.file);
}

/**
 * The whole HTML document of a page: sidebar from SUMMARY.md, the page as its layout asks
 * (width, cover, title, description, outline, previous/next), light and dark themes, readable on
 * a phone. No client framework: one small script for tabs and the menu.
 */
export function renderDocument(site: RenderSite, page: SitePage, rendered: RenderedPage, options: DocumentOptions = {}): string {
  const layout = { ...DEFAULT_PAGE_LAYOUT, ...page.layout };
  const cover = layout.cover ? coverUrl(site, page) : undefined;
  const { previous, next } = neighbours(site, page);
  const outline =
    layout.outline && rendered.outline.length > 0
      ? `<aside class="ds-outline" aria-label="On this page"><ul>${rendered.outline.map((e) => `<li><a class="ds-depth-${e.depth}" href="#${escapeHtml(e.id)}">${escapeHtml(e.title)}</a></li>`).join('')}</ul></aside>`
      : '<aside class="ds-outline"></aside>';
  const pager = (p: SitePage | undefined, rel: 'prev' | 'next') =>
    p === undefined
      ? '<span></span>'
      : `<a class="ds-${rel === 'prev' ? 'previous' : 'next'}" rel="${rel}" href="${escapeHtml(p.url)}"><small>${rel === 'prev' ? 'Previous' : 'Next'}</small>${escapeHtml(p.title)}</a>`;
  const pagination =
    layout.pagination && (previous || next)
      ? `<nav class="ds-pagination" aria-label="Pagination">${pager(previous, 'prev')}${pager(next, 'next')}</nav>`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(page.title)} | ${escapeHtml(site.title)}</title>${page.description ? `<meta name="description" content="${escapeHtml(page.description)}">` : ''}
<style>${STYLES}</style>${rendered.math && options.katexStylesheet ? `<link rel="stylesheet" href="${escapeHtml(options.katexStylesheet)}">` : ''}
</head><body>${options.bodyStart ?? ''}
<header class="ds-header"><button class="ds-menu" type="button" aria-label="Menu">☰</button><a class="ds-site-title" href="${escapeHtml(siteRoot(site))}">${escapeHtml(site.title)}</a>${options.search ? '<div class="ds-search" role="search"><input type="search" id="ds-search-input" placeholder="Search" aria-label="Search" autocomplete="off"><ul class="ds-search-results" id="ds-search-results"></ul></div>' : ''}</header>
<div class="ds-layout"><aside class="ds-sidebar">${navigationHtml(site, page)}</aside>
<main class="ds-main${layout.width === 'wide' ? ' ds-wide' : ''}" id="ds-main"><article class="ds-content" data-page="${escapeHtml(page.id)}">
${cover ? `<img class="ds-cover" src="${escapeHtml(cover)}" alt="">` : ''}${layout.title ? `<h1 class="ds-title">${page.emoji ? `${escapeHtml(page.emoji)} ` : ''}${escapeHtml(page.title)}</h1>` : ''}${layout.description && page.description ? `<p class="ds-description">${escapeHtml(page.description)}</p>` : ''}
<div class="ds-body">${rendered.html}</div>
${pagination}</article></main>${outline}</div>
${options.bodyEnd ?? ''}<script>${PAGE_SCRIPT}</script>${(options.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}"></script>`).join('')}
</body></html>
`;
}

const siteRoot = (site: RenderSite) => site.pages.find((p) => p.kind === 'document')?.url ?? '/';
