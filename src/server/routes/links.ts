import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  LinkListQuery,
  LinkListing,
  ListOf,
  ListQuery,
  ContentLocation,
  type ChangeRequest,
  type TreeFile,
  type TreePage,
} from '../../model/index.js';
import { findPage, pagePaths, type LinkEntry } from '../../content/index.js';
import { collectPage, pageRequest, type SortKey } from '../util/cursor.js';
import { appUrl, baseUrl } from '../urls.js';
import { findFile, renderFiles, type ContentScope } from '../revisions/read-content.js';
import { readLinks } from '../revisions/read-links.js';
import { changeRequestScope, loadChangeRequest, loadReadableSpace, revisionScope, spaceScope } from '../revisions/content-scope.js';
import { changeRequestBase } from '../revisions/change-request-base.js';
import { renderChangeRequest } from '../views/change-request-render.js';
import { pageView } from '../views/page.js';
import { linkItemView, pageLocation, type LocationContext } from '../views/links.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

interface LinkParams {
  spaceId: string;
  changeRequestId?: string;
  pageId?: string;
  fileId?: string;
}
interface Scoped {
  scope: ContentScope;
  changeRequest?: ChangeRequest | undefined;
  /** For a change request: its base, what `stats.broken.changeRequest` compares with. */
  base?: ContentScope;
}

const SpaceParams = Type.Object({ spaceId: Id });
const CrParams = Type.Object({ spaceId: Id, changeRequestId: Id });
const withId = (name: 'pageId' | 'fileId', base: typeof SpaceParams | typeof CrParams) => Type.Object({ ...base.properties, [name]: Id });

async function resolveScope(request: FastifyRequest, params: LinkParams): Promise<Scoped> {
  const db = request.server.ctx.db;
  const base = baseUrl(request);
  const { space } = await loadReadableSpace(db, request.caller, params.spaceId);
  if (params.changeRequestId === undefined) return { scope: await spaceScope(db, space, base) };
  const cr = await loadChangeRequest(db, space, params.changeRequestId);
  return {
    scope: await changeRequestScope(db, space, cr, base),
    changeRequest: await renderChangeRequest(db, cr, base),
    base: await revisionScope(db, space, changeRequestBase(cr), base),
  };
}

/** Locations render pages without body or children and without git metadata (docs/api.md, "Links"). */
async function locationContext(db: Kysely<Database>, { scope, changeRequest }: Scoped): Promise<LocationContext> {
  const paths = pagePaths(scope.tree.pages);
  const ctx = { paths, appURL: (id: string) => `${scope.appURL}/pages/${id}`, metadata: false, gitOid: () => '', shallow: true };
  const files = new Map((await renderFiles(db, scope, scope.tree.files, { metadata: false })).map((f) => [f.id, f]));
  const pages = new Map<string, TreePage | undefined>();
  const page = (id: string) => {
    if (!pages.has(id)) pages.set(id, findPage(scope.tree.pages, id));
    const found = pages.get(id);
    return found ? pageView(found, ctx) : undefined;
  };
  return { organization: scope.space.org_id, space: scope.spaceId, changeRequest, page, file: (id) => files.get(id) };
}

const hash = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/**
 * Pages through items held in memory in a fixed order. A cursor is the last item's position and
 * a hash of its identity: when the content changed between pages, the item is found again by
 * its identity, so the next page starts after it.
 */
function pageThrough<T, R>(
  items: readonly T[],
  identity: (item: T) => string,
  query: { page?: string; limit?: number },
  accept: (item: T) => R | undefined,
) {
  const keyed = items.map((item, i) => ({ item, key: [i, hash(identity(item))] as SortKey }));
  return collectPage({
    request: pageRequest(query, DEFAULT_LIST_LIMIT, 'number'),
    fetch: (after, n) => {
      if (after === undefined) return Promise.resolve(keyed.slice(0, n));
      const found = keyed.findIndex((k) => k.key[1] === after[1]);
      const start = found >= 0 ? found + 1 : Number(after[0]) + 1;
      return Promise.resolve(keyed.slice(start, start + n));
    },
    key: (k) => k.key,
    accept: (k) => accept(k.item),
  });
}

/**
 * Broken links a change request introduces: its broken entries with a linking page that the
 * base's entry for the same target (if it was broken there at all) did not have. A link that
 * was already broken before the change request is not its doing.
 */
function introduced(entries: readonly LinkEntry[], before: readonly LinkEntry[] | undefined): number {
  if (before === undefined) return 0;
  const was = new Map(before.filter((e) => e.status === 'broken').map((e) => [e.key, new Set(e.sources)]));
  return entries.filter((e) => e.status === 'broken' && e.sources.some((id) => !was.get(e.key)?.has(id))).length;
}

function listing(
  entries: LinkEntry[],
  before: LinkEntry[] | undefined,
  query: { page?: string; limit?: number; status?: string },
  ctx: LocationContext,
) {
  const broken = entries.filter((e) => e.status === 'broken').length;
  return pageThrough(
    entries,
    (e) => e.key,
    query,
    (e) => (query.status === undefined || e.status === query.status ? linkItemView(e, ctx) : undefined),
  ).then((page) => ({
    ...page,
    stats: { total: entries.length, broken: { total: broken, changeRequest: introduced(entries, before) } },
  }));
}

export const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  const params = (request: FastifyRequest) => request.params as LinkParams;
  const links = async (scope: ContentScope, request: FastifyRequest) => readLinks(db, scope, `${appUrl(baseUrl(request), '')}/`);
  const baseLinks = async (scoped: Scoped, request: FastifyRequest) => (scoped.base ? links(scoped.base, request) : undefined);

  const spaceLinks = async (request: FastifyRequest, query: { page?: string; limit?: number; status?: string }) => {
    const scoped = await resolveScope(request, params(request));
    return listing(await links(scoped.scope, request), await baseLinks(scoped, request), query, await locationContext(db, scoped));
  };
  app.get(
    '/spaces/:spaceId/links',
    { schema: { params: SpaceParams, querystring: LinkListQuery, response: { 200: LinkListing } } },
    (request) => spaceLinks(request, request.query),
  );
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/links',
    { schema: { params: CrParams, querystring: LinkListQuery, response: { 200: LinkListing } } },
    (request) => spaceLinks(request, request.query),
  );

  for (const [prefix, base] of [
    ['/spaces/:spaceId/content', SpaceParams],
    ['/spaces/:spaceId/change-requests/:changeRequestId/content', CrParams],
  ] as const) {
    app.get(
      `${prefix}/page/:pageId/links`,
      { schema: { params: withId('pageId', base), querystring: LinkListQuery, response: { 200: LinkListing } } },
      async (request) => {
        const scoped = await resolveScope(request, params(request));
        const pageId = params(request).pageId ?? '';
        if (!findPage(scoped.scope.tree.pages, pageId))
          throw new DocsyncError('not_found', `page ${pageId} not found in revision ${scoped.scope.revision.id}`);
        const ofPage = (all: LinkEntry[]) => all.filter((e) => e.sources.includes(pageId)).map((e) => ({ ...e, sources: [pageId] }));
        const before = await baseLinks(scoped, request);
        return listing(
          ofPage(await links(scoped.scope, request)),
          before && ofPage(before),
          request.query,
          await locationContext(db, scoped),
        );
      },
    );

    app.get(
      `${prefix}/files/:fileId/backlinks`,
      { schema: { params: withId('fileId', base), querystring: ListQuery, response: { 200: ListOf(ContentLocation) } } },
      async (request) => {
        const scoped = await resolveScope(request, params(request));
        const file: TreeFile = findFile(scoped.scope, params(request).fileId ?? '');
        const sources = (await links(scoped.scope, request))
          .filter((e) => e.target.kind === 'file' && e.target.file === file.id)
          .flatMap((e) => e.sources);
        const ctx = await locationContext(db, scoped);
        return pageThrough(
          [...new Set(sources)],
          (id) => id,
          request.query,
          (id) => pageLocation(ctx, id),
        );
      },
    );
  }
};
