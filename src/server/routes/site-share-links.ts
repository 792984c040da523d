import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { randomBytes } from 'node:crypto';
import { DEFAULT_LIST_LIMIT, DocsyncError, ListOf, ListQuery, ShareLink } from '../../model/index.js';
import { findShareLink, listShareLinks, type ShareLinkRow } from '../store/sites.js';
import { loadSite } from '../sites/access.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { newId } from '../util/ids.js';
import { shareLinkView } from '../views/site.js';
import { apiUrl, baseUrl } from '../urls.js';
import { SiteId, SiteParams } from './sites.js';

/** Published spec `ShareLinkName`: 0 to 50 characters. */
const ShareLinkName = Type.String({ maxLength: 50 });
const ShareLinkParams = Type.Composite([SiteParams, Type.Object({ shareLinkId: SiteId })]);

/** Share links of `share-link` sites (published spec): each holds a secret key visitors pass in the URL. */
export const siteShareLinkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const base = '/orgs/:organizationId/sites/:siteId/share-links';

  app.get(
    base,
    {
      schema: {
        params: SiteParams,
        querystring: Type.Composite([ListQuery, Type.Object({ search: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })) })], {
          additionalProperties: false,
        }),
        response: { 200: ListOf(ShareLink) },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
      const url = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listShareLinks(db, siteId, request.query.search, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => shareLinkView(row, site, url),
      });
    },
  );

  app.post(
    base,
    {
      schema: {
        params: SiteParams,
        body: Type.Object({ name: ShareLinkName }, { additionalProperties: false }),
        response: { 201: ShareLink },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
      const row: ShareLinkRow = {
        id: newId(),
        site_id: siteId,
        // The key is the secret in the URL: 144 random bits, apart from the id that names the link in the API.
        key: randomBytes(18).toString('base64url'),
        name: request.body.name,
        active: 1,
        created_at: clock.now().toISOString(),
      };
      await db.insertInto('site_share_links').values(row).execute();
      const url = baseUrl(request);
      void reply.status(201).header('location', apiUrl(url, `/orgs/${organizationId}/sites/${siteId}/share-links/${row.id}`));
      return shareLinkView(row, site, url);
    },
  );

  app.patch(
    `${base}/:shareLinkId`,
    {
      schema: {
        params: ShareLinkParams,
        body: Type.Object(
          { active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: ShareLink },
      },
    },
    async (request) => {
      const { organizationId, siteId, shareLinkId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
      const link = await findShareLink(db, siteId, shareLinkId);
      if (!link) throw new DocsyncError('not_found', `share link ${shareLinkId} not found in site ${siteId}`);
      const changes: Partial<ShareLinkRow> = {};
      if (request.body.active !== undefined) changes.active = request.body.active ? 1 : 0;
      if (request.body.name !== undefined) changes.name = request.body.name;
      await db.updateTable('site_share_links').set(changes).where('id', '=', link.id).execute();
      return shareLinkView({ ...link, ...changes }, site, baseUrl(request));
    },
  );

  app.delete(`${base}/:shareLinkId`, { schema: { params: ShareLinkParams } }, async (request, reply) => {
    const { organizationId, siteId, shareLinkId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
    const link = await findShareLink(db, siteId, shareLinkId);
    if (!link) throw new DocsyncError('not_found', `share link ${shareLinkId} not found in site ${siteId}`);
    await db.deleteFrom('site_share_links').where('id', '=', link.id).execute();
    return reply.status(205).send();
  });
};
