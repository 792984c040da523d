import type { FastifyReply, FastifyRequest } from 'fastify';
import { escapeHtml as esc, renderDocument, type SitePage } from '../../render/index.js';
import { loadPageMarkdown } from '../revisions/stored-documents.js';
import { excerpt } from '../search/excerpt.js';
import { parseQuery } from '../search/query.js';
import { searchSpacePages } from '../search/results.js';
import { visitorRender } from './published-extras.js';
import { cacheOf, type Content, type Place, type Visit } from './published-visit.js';
import { sendHtml } from './reply.js';
import { APP_STYLES } from './styles.js';

/** Results shown for one query (the best ones). */
const RESULTS = 20;

/** The search form of a site space's pages. */
export const searchForm = (base: string, query = '') =>
  `<form class="pub-search" role="search" method="get" action="${esc(`${base}/~search`)}"><input type="search" name="q" value="${esc(query)}" placeholder="Search" aria-label="Search this site"></form>`;

/** Text of sanitised HTML, for matching terms: tags out, entities of the sanitiser's output decoded. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(
      /&(lt|gt|amp|quot|#39|#x27|nbsp);/g,
      (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", '#x27': "'", nbsp: ' ' })[e]!,
    )
    .replace(/\s+/g, ' ');

/**
 * `<site space URL>/~search?q=`: the space's full-text search (the API's index) limited to the
 * pages this visitor may open, hidden and `noIndex` pages left out. A page with blocks (`{% if %}`,
 * includes) is matched and quoted from its page as rendered for the visitor, so a branch the
 * visitor does not meet is neither found nor shown.
 */
export async function sendSearch(
  request: FastifyRequest<{ Querystring: Record<string, string> }>,
  reply: FastifyReply,
  visit: Visit,
  place: Place,
  content: Content,
) {
  const { db, dialect } = request.server.ctx;
  const text = typeof request.query.q === 'string' ? request.query.q.slice(0, 512) : '';
  const query = parseQuery(text);
  const found: string[] = [];
  if (query.terms.length > 0) {
    const hits = await searchSpacePages({ db, dialect, base: '' }, content.space, query, { offset: 0, limit: RESULTS * 2 });
    const entries = hits.flatMap((hit) => {
      const entry = content.built.byId.get(hit.id);
      return entry && !entry.site.hidden && entry.tree.noIndex !== true ? [{ hit, entry }] : [];
    });
    const markdown = await loadPageMarkdown(
      db,
      content.tree,
      entries.map((e) => e.entry.tree),
    );
    for (const { hit, entry } of entries) {
      if (found.length >= RESULTS) break;
      let quote = hit.sections[0]?.body ?? '';
      if (markdown.stored(entry.tree).includes('{%')) {
        const page = `${entry.site.title} ${textOf((await visitorRender(request, visit, content, hit.id)).html)}`;
        const lower = page.toLowerCase();
        if (!query.terms.every((t) => lower.includes(t))) continue;
        quote = excerpt(page, query.terms);
      }
      found.push(
        `<li><a href="${esc(entry.site.url)}">${esc(entry.site.title)}</a>${quote ? `<br><small>${esc(quote)}</small>` : ''}</li>`,
      );
    }
  }
  const results =
    query.terms.length === 0
      ? ''
      : found.length === 0
        ? '<p>No page matches.</p>'
        : `<ul class="app-list pub-results">${found.join('')}</ul>`;
  const page: SitePage = {
    id: '~search',
    kind: 'document',
    title: text ? `Search: ${text}` : 'Search',
    url: `${place.base}/~search`,
    pages: [],
  };
  const html = renderDocument(
    content.built.site,
    page,
    { html: `<h2>Search</h2>${searchForm(place.base, text)}${results}`, outline: [], problems: [], math: false },
    { bodyStart: `<style>${APP_STYLES}</style>${place.sectionNav}${place.spacesNav}` },
  );
  void reply.header('x-robots-tag', 'noindex');
  return sendHtml(reply, 200, html, cacheOf(visit));
}
