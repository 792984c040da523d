import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DocsyncError } from '../../model/index.js';
import { siteRole } from '../sites/access.js';
import { findSite } from '../store/sites.js';
import { siteUrls } from '../views/site.js';
import { requireWebCaller } from './caller.js';
import { appPage, esc } from './html.js';
import { sendHtml } from './reply.js';

const Params = Type.Object({ siteId: Type.String({ maxLength: 64 }), '*': Type.Optional(Type.String({ maxLength: 256 })) });

/** A site's app page (`urls.app` of sites, sections, site spaces, `urls.preview`): for members of its organization, as the API's site routes. */
export const sitePages: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  const handler = async (
    request: { params: { siteId: string } },
    reply: Parameters<typeof sendHtml>[0],
    session: Awaited<ReturnType<typeof requireWebCaller>>,
  ) => {
    const site = await findSite(db, request.params.siteId);
    if (!site) throw new DocsyncError('not_found', `site ${request.params.siteId} not found`);
    await siteRole(db, site.org_id, session.user.id, 'site.view');
    const published = siteUrls('', site).published;
    const body = `<h1>${esc(site.title)}</h1><p><span class="app-status">${esc(site.visibility)}</span> ${site.published === 1 ? `published at <a href="${esc(published)}">${esc(published)}</a>` : 'not published'}</p>`;
    return sendHtml(reply, 200, appPage(site.title, body, { session, trail: [['Organization', `/app/orgs/${site.org_id}`]] }));
  };
  app.get('/sites/:siteId', { schema: { params: Params } }, async (request, reply) =>
    handler(request, reply, await requireWebCaller(request)),
  );
  app.get('/sites/:siteId/*', { schema: { params: Params } }, async (request, reply) =>
    handler(request, reply, await requireWebCaller(request)),
  );
};
