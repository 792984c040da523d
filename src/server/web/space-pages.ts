import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DocsyncError, type ContentTree } from '../../model/index.js';
import { renderDocument } from '../../render/index.js';
import { changeRequestScope, loadChangeRequest, loadReadableSpace, revisionScope, spaceScope } from '../revisions/content-scope.js';
import type { SpaceRow } from '../store/spaces.js';
import { ensureIndexed } from '../search/indexer.js';
import { parseQuery } from '../search/query.js';
import { searchSpacePages } from '../search/results.js';
import { baseUrl } from '../urls.js';
import { requireWebCaller } from './caller.js';
import { appBar, appPage, esc, type AppChrome } from './html.js';
import { renderedPage } from './render-cache.js';
import { sendHtml } from './reply.js';
import { liveBodyEnd } from './live.js';
import { spaceSite } from './space-site.js';
import { sendAsset } from './assets.js';
import type { WebSession } from './session.js';

const SpaceParams = Type.Object({ spaceId: Type.String({ maxLength: 64 }) });
const PageParams = Type.Object({ spaceId: Type.String({ maxLength: 64 }), pageId: Type.String({ maxLength: 64 }) });
const CrParams = Type.Object({ spaceId: Type.String({ maxLength: 64 }), cr: Type.String({ maxLength: 64 }) });
const CrPageParams = Type.Object({
  spaceId: Type.String({ maxLength: 64 }),
  cr: Type.String({ maxLength: 64 }),
  pageId: Type.String({ maxLength: 64 }),
});
const RevParams = Type.Object({ spaceId: Type.String({ maxLength: 64 }), revisionId: Type.String({ maxLength: 64 }) });
const RevPageParams = Type.Object({
  spaceId: Type.String({ maxLength: 64 }),
  revisionId: Type.String({ maxLength: 64 }),
  pageId: Type.String({ maxLength: 64 }),
});
const AssetParams = Type.Object({
  spaceId: Type.String({ maxLength: 64 }),
  revisionId: Type.String({ maxLength: 64 }),
  '*': Type.String({ maxLength: 1024 }),
});

/** One readable state of a space: its main content, a change request's, or a revision's. */
export interface ContentView {
  space: SpaceRow;
  revisionId: string;
  tree: ContentTree;
  /** Where its pages are: `<prefix>/pages/<id>`. */
  prefix: string;
  /** Links of the app bar after the space. */
  trail: [string, string][];
  /** What the page follows live (live.ts): main's head (`main`), a change request's (its number); a revision's never changes. */
  live?: 'main' | { changeRequest: string };
}

/** The app bar of a space's pages: the space, its change requests, its search, the user. */
export function spaceChrome(session: WebSession, space: SpaceRow, extra: [string, string][] = [], query?: string): AppChrome {
  return {
    session,
    trail: [
      [space.title || 'Untitled space', `/app/spaces/${space.id}`],
      ['Change requests', `/app/spaces/${space.id}/change-requests`],
      ...extra,
    ],
    searchAction: `/app/spaces/${space.id}/search`,
    ...(query !== undefined ? { query } : {}),
  };
}

/** A page of `view` (its first page when `pageId` is undefined) in the renderer's page shell. */
export async function sendContentPage(
  request: FastifyRequest,
  reply: FastifyReply,
  session: WebSession,
  view: ContentView,
  pageId: string | undefined,
): Promise<FastifyReply> {
  const { db } = request.server.ctx;
  const key = `app|${view.revisionId}|${view.prefix}`;
  const site = await spaceSite(db, key, view.tree, {
    title: view.space.title || 'Untitled space',
    pageUrl: (page) => `${view.prefix}/pages/${page.id}`,
    assetBase: `/app/spaces/${view.space.id}/revisions/${view.revisionId}/`,
    orgId: view.space.org_id,
  });
  const chrome = spaceChrome(session, view.space, view.trail);
  const entry = pageId === undefined ? (site.first ? site.byId.get(site.first.id) : undefined) : site.byId.get(pageId);
  if (!entry) {
    if (pageId !== undefined) throw new DocsyncError('not_found', `page ${pageId} not found`);
    return sendHtml(
      reply,
      200,
      appPage(view.space.title, `<h1>${esc(view.space.title || 'Untitled space')}</h1><p>This space has no page yet.</p>`, chrome),
    );
  }
  const rendered = await renderedPage(db, key, view.tree, site, entry.tree, { mode: 'preview' }, view.space.org_id);
  const bodyEnd = view.live === undefined ? '' : liveBodyEnd(view.space.id, view.live === 'main' ? undefined : view.live.changeRequest);
  return sendHtml(reply, 200, renderDocument(site.site, entry.site, rendered, { bodyStart: appBar(chrome), bodyEnd }));
}

/** A space's pages, a change request's and a revision's, their files, and the space's search (members, by role). */
export const spacePages: FastifyPluginAsyncTypebox = async (app) => {
  const { db, dialect } = app.ctx;

  const mainView = async (request: FastifyRequest, spaceId: string) => {
    const session = await requireWebCaller(request);
    const { space } = await loadReadableSpace(db, session.user, spaceId);
    const scope = await spaceScope(db, space, baseUrl(request));
    return {
      session,
      view: {
        space,
        revisionId: scope.revision.id,
        tree: scope.tree,
        prefix: `/app/spaces/${space.id}`,
        trail: [],
        live: 'main',
      } satisfies ContentView,
    };
  };
  const crView = async (request: FastifyRequest, spaceId: string, number: string) => {
    const session = await requireWebCaller(request);
    const { space } = await loadReadableSpace(db, session.user, spaceId, 'changeRequest.view');
    const cr = await loadChangeRequest(db, space, number);
    const scope = await changeRequestScope(db, space, cr, baseUrl(request));
    const prefix = `/app/spaces/${space.id}/change-requests/${cr.number}`;
    return {
      session,
      view: {
        space,
        revisionId: scope.revision.id,
        tree: scope.tree,
        prefix,
        trail: [[`#${cr.number} ${cr.subject || 'Untitled'}`, prefix]],
        live: { changeRequest: String(cr.number) },
      } satisfies ContentView,
    };
  };
  const revView = async (request: FastifyRequest, spaceId: string, revisionId: string) => {
    const session = await requireWebCaller(request);
    const { space } = await loadReadableSpace(db, session.user, spaceId);
    const scope = await revisionScope(db, space, revisionId, baseUrl(request));
    const prefix = `/app/spaces/${space.id}/revisions/${scope.revision.id}`;
    return {
      session,
      view: {
        space,
        revisionId: scope.revision.id,
        tree: scope.tree,
        prefix,
        trail: [[`Revision ${scope.revision.id}`, prefix]],
      } satisfies ContentView,
    };
  };

  app.get('/spaces/:spaceId', { schema: { params: SpaceParams } }, async (request, reply) => {
    const { session, view } = await mainView(request, request.params.spaceId);
    return sendContentPage(request, reply, session, view, undefined);
  });
  app.get('/spaces/:spaceId/pages/:pageId', { schema: { params: PageParams } }, async (request, reply) => {
    const { session, view } = await mainView(request, request.params.spaceId);
    return sendContentPage(request, reply, session, view, request.params.pageId);
  });
  app.get('/spaces/:spaceId/change-requests/:cr/pages/:pageId', { schema: { params: CrPageParams } }, async (request, reply) => {
    const { session, view } = await crView(request, request.params.spaceId, request.params.cr);
    return sendContentPage(request, reply, session, view, request.params.pageId);
  });
  app.get('/spaces/:spaceId/change-requests/:cr/preview', { schema: { params: CrParams } }, async (request, reply) => {
    const { session, view } = await crView(request, request.params.spaceId, request.params.cr);
    return sendContentPage(request, reply, session, view, undefined);
  });
  app.get('/spaces/:spaceId/revisions/:revisionId', { schema: { params: RevParams } }, async (request, reply) => {
    const { session, view } = await revView(request, request.params.spaceId, request.params.revisionId);
    return sendContentPage(request, reply, session, view, undefined);
  });
  app.get('/spaces/:spaceId/revisions/:revisionId/pages/:pageId', { schema: { params: RevPageParams } }, async (request, reply) => {
    const { session, view } = await revView(request, request.params.spaceId, request.params.revisionId);
    return sendContentPage(request, reply, session, view, request.params.pageId);
  });
  app.get('/spaces/:spaceId/revisions/:revisionId/.gitbook/assets/*', { schema: { params: AssetParams } }, async (request, reply) => {
    const { view } = await revView(request, request.params.spaceId, request.params.revisionId);
    return sendAsset(db, reply, view.tree, request.params['*'], 'private, max-age=31536000, immutable');
  });

  app.get(
    '/spaces/:spaceId/search',
    { schema: { params: SpaceParams, querystring: Type.Object({ q: Type.Optional(Type.String({ maxLength: 512 })) }) } },
    async (request, reply) => {
      const session = await requireWebCaller(request);
      const { space } = await loadReadableSpace(db, session.user, request.params.spaceId);
      const text = request.query.q ?? '';
      const query = parseQuery(text);
      let results = '';
      if (query.terms.length > 0) {
        await ensureIndexed(db, dialect, space);
        const hits = await searchSpacePages({ db, dialect, base: baseUrl(request) }, space, query, { offset: 0, limit: 50 });
        results =
          hits.length === 0
            ? '<p>No page matches.</p>'
            : `<ul class="app-list">${hits.map((h) => `<li><a href="/app/spaces/${esc(space.id)}/pages/${esc(h.id)}">${esc(h.title)}</a>${h.sections[0] ? `<br><small>${esc(h.sections[0].body.slice(0, 200))}</small>` : ''}</li>`).join('')}</ul>`;
      }
      const body = `<h1>Search</h1><form method="get" role="search"><input type="search" name="q" value="${esc(text)}" aria-label="Search"> <button type="submit">Search</button></form>${results}`;
      return sendHtml(reply, 200, appPage(`Search: ${text}`, body, spaceChrome(session, space, [], text)));
    },
  );
};
