import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DEFAULT_LIST_LIMIT, DocsyncError, Id, ListOf } from '../../model/index.js';
import { contentRole, memberRole, requireRole, roleResolver } from '../auth/access.js';
import { findSpace, type SpaceRow } from '../store/spaces.js';
import { searchBackend } from '../search/index.js';
import { ensureIndexed } from '../search/indexer.js';
import { parseQuery } from '../search/query.js';
import { searchSpacePages, type SearchContext } from '../search/results.js';
import { nextPage, searchWindow } from '../search/paging.js';
import { searchDb } from '../search/tables.js';
import { SearchPageResult, SearchQueryString, SearchSpaceResult } from '../search/schemas.js';
import { baseUrl } from '../urls.js';

/** Pages listed under each space of an organization search. */
const PAGES_PER_SPACE = 5;

export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, dialect } = app.ctx;

  app.get(
    '/spaces/:spaceId/search',
    { schema: { params: Type.Object({ spaceId: Id }), querystring: SearchQueryString, response: { 200: ListOf(SearchPageResult) } } },
    async (request) => {
      const { spaceId } = request.params;
      const space = await findSpace(db, spaceId);
      if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
      requireRole(await contentRole(db, request.caller.id, space), 'space.view', `space ${spaceId}`);
      const window = searchWindow(request.query.query, request.query.page, request.query.limit ?? DEFAULT_LIST_LIMIT);
      const query = parseQuery(request.query.query);
      if (query.terms.length === 0) return { items: [], count: 0 };
      const ctx: SearchContext = { db, dialect, base: baseUrl(request) };
      const found = await searchSpacePages(ctx, space, query, { offset: window.offset, limit: window.limit + 1 });
      const items = found.slice(0, window.limit);
      return found.length > window.limit
        ? { items, count: items.length, next: nextPage(request.query.query, window) }
        : { items, count: items.length };
    },
  );

  app.get(
    '/orgs/:organizationId/search',
    {
      schema: { params: Type.Object({ organizationId: Id }), querystring: SearchQueryString, response: { 200: ListOf(SearchSpaceResult) } },
    },
    async (request) => {
      const { organizationId } = request.params;
      if (!(await memberRole(db, organizationId, request.caller.id))) {
        throw new DocsyncError('not_found', `organization ${organizationId} not found`);
      }
      const window = searchWindow(request.query.query, request.query.page, request.query.limit ?? DEFAULT_LIST_LIMIT);
      const query = parseQuery(request.query.query);
      if (query.terms.length === 0) return { items: [], count: 0 };
      const spaces = await readableSpaces(organizationId, request.caller.id);
      if (spaces.size === 0) return { items: [], count: 0 };
      for (const space of spaces.values()) await ensureIndexed(db, dialect, space);
      const hits = await searchBackend(dialect).spaces(searchDb(db), [...spaces.keys()], query, {
        offset: window.offset,
        limit: window.limit + 1,
      });
      const ctx: SearchContext = { db, dialect, base: baseUrl(request) };
      const items = [];
      for (const hit of hits.slice(0, window.limit)) {
        const space = spaces.get(hit.spaceId);
        if (!space) continue;
        const pages = await searchSpacePages(ctx, space, query, { offset: 0, limit: PAGES_PER_SPACE });
        items.push({ type: 'space' as const, id: space.id, title: space.title, score: hit.score, pages });
      }
      return hits.length > window.limit
        ? { items, count: items.length, next: nextPage(request.query.query, window) }
        : { items, count: items.length };
    },
  );

  /** The organization's live spaces the caller can read, by id. */
  async function readableSpaces(orgId: string, userId: string): Promise<Map<string, SpaceRow>> {
    const rows = await db.selectFrom('spaces').selectAll().where('org_id', '=', orgId).where('deleted_at', 'is', null).execute();
    const resolveRole = roleResolver(db, userId);
    const readable = new Map<string, SpaceRow>();
    for (const row of rows) if ((await resolveRole(row)) !== null) readable.set(row.id, row);
    return readable;
  }
};
