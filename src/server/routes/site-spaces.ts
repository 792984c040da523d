import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  AddSiteSpace,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  ListOf,
  ListQuery,
  MoveSiteSpace,
  SiteSpace,
  UpdateSiteSpace,
  badRequest,
  conflict,
} from '../../model/index.js';
import { inTransaction } from '../store/transaction.js';
import { findSite, lockSite, updateSite } from '../store/sites.js';
import { findSiteSpace, siteParts, type SiteSpaceRow } from '../store/site-structure.js';
import { loadSite } from '../sites/access.js';
import { checkedCondition } from '../sites/conditions.js';
import { moveSiteSpace, placementOf } from '../sites/ordering.js';
import { resolveShareKey, sentMinimal, viewsFor } from '../sites/request.js';
import { appendSiteSpace, requirePath, siteSpacePaths, spaceForSite } from '../sites/site-spaces.js';
import { effectiveDefault, sectionsInOrder, siteSpacesIn } from '../sites/structure.js';
import { pageInOrder } from '../sites/paging.js';
import { apiUrl, baseUrl } from '../urls.js';
import { SiteId, SiteParams } from './sites.js';

const SiteSpaceParams = Type.Composite([SiteParams, Type.Object({ siteSpaceId: SiteId })]);
const SiteSpaceListQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({ shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })), default: Type.Optional(Type.Boolean()) }),
  ],
  { additionalProperties: false },
);

export const siteSpaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const base = '/orgs/:organizationId/sites/:siteId/site-spaces';

  async function siteSpaceOf(request: FastifyRequest, siteId: string, siteSpaceId: string): Promise<SiteSpace> {
    const site = await findSite(db, siteId);
    const view = site && (await viewsFor(request, site)).siteSpaces.get(siteSpaceId);
    if (!view) throw new DocsyncError('not_found', `site space ${siteSpaceId} not found in site ${siteId}`);
    return view;
  }

  app.get(
    base,
    { schema: { params: SiteParams, querystring: SiteSpaceListQuery, response: { 200: ListOf(SiteSpace) } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
      const views = await viewsFor(request, site, await resolveShareKey(db, site, request.query.shareKey));
      // `default` selects the site's default site space: the default of the default section, or of the root.
      const parts = await siteParts(db, siteId);
      const defaultSection = effectiveDefault(site.default_section_id, sectionsInOrder(parts));
      const container = defaultSection?.id ?? null;
      const siteDefault = effectiveDefault(
        defaultSection ? defaultSection.default_site_space_id : site.default_site_space_id,
        siteSpacesIn(parts, container),
      )?.id;
      const wanted = request.query.default;
      const selected = views.allSiteSpaces.filter((view) => wanted === undefined || wanted === (view.id === siteDefault));
      return pageInOrder(selected, request.query, DEFAULT_LIST_LIMIT);
    },
  );

  app.post(base, { schema: { params: SiteParams, body: AddSiteSpace, response: { 201: SiteSpace } } }, async (request, reply) => {
    const { organizationId, siteId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
    const space = await spaceForSite(db, organizationId, request.body.spaceId, 'body.spaceId');
    const row = await inTransaction(db, async (trx) => {
      await lockSite(trx, siteId);
      const site = await findSite(trx, siteId);
      if (!site) throw new DocsyncError('not_found', `site ${siteId} not found`);
      const ordered = sectionsInOrder(await siteParts(trx, siteId));
      let sectionId: string | null;
      if (request.body.sectionId !== undefined) {
        if (!ordered.some((s) => s.id === request.body.sectionId))
          throw badRequest(`body.sectionId: section ${request.body.sectionId} not found in site ${siteId}`);
        sectionId = request.body.sectionId;
      } else {
        // Omitted: the default section, or the root of a site without sections (seed).
        sectionId = effectiveDefault(site.default_section_id, ordered)?.id ?? null;
      }
      return appendSiteSpace(trx, siteId, sectionId, space, clock.now().toISOString());
    });
    void reply.header('location', apiUrl(baseUrl(request), `/orgs/${organizationId}/sites/${siteId}/site-spaces/${row.id}`));
    if (sentMinimal(request, reply)) return reply;
    void reply.status(201);
    return siteSpaceOf(request, siteId, row.id);
  });

  app.patch(
    `${base}/:siteSpaceId`,
    { schema: { params: SiteSpaceParams, body: UpdateSiteSpace, response: { 200: SiteSpace } } },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      const body = request.body;
      const changes: Partial<SiteSpaceRow> = {};
      if (body.condition !== undefined) changes.condition = checkedCondition(body.condition, 'body.condition');
      if (body.spaceId !== undefined) changes.space_id = (await spaceForSite(db, organizationId, body.spaceId, 'body.spaceId')).id;
      if (body.path !== undefined) {
        requirePath(body.path, 'body.path');
        changes.path = body.path;
      }
      await inTransaction(db, async (trx) => {
        await lockSite(trx, siteId);
        const siteSpace = await findSiteSpace(trx, siteId, siteSpaceId);
        if (!siteSpace) throw new DocsyncError('not_found', `site space ${siteSpaceId} not found in site ${siteId}`);
        if (body.path !== undefined && (await siteSpacePaths(trx, siteId, siteSpace.section_id, siteSpace.id)).has(body.path)) {
          throw conflict(
            `body.path "${body.path}" is already the path of another site space ${siteSpace.section_id === null ? 'at the root of this site' : `in section ${siteSpace.section_id}`}`,
          );
        }
        if (Object.keys(changes).length > 0) await trx.updateTable('site_spaces').set(changes).where('id', '=', siteSpace.id).execute();
      });
      if (sentMinimal(request, reply)) return reply;
      return siteSpaceOf(request, siteId, siteSpaceId);
    },
  );

  app.delete(`${base}/:siteSpaceId`, { schema: { params: SiteSpaceParams } }, async (request, reply) => {
    const { organizationId, siteId, siteSpaceId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
    await inTransaction(db, async (trx) => {
      await lockSite(trx, siteId);
      const siteSpace = await findSiteSpace(trx, siteId, siteSpaceId);
      if (!siteSpace) throw new DocsyncError('not_found', `site space ${siteSpaceId} not found in site ${siteId}`);
      await trx.deleteFrom('site_spaces').where('id', '=', siteSpace.id).execute();
      // A default that is gone points at nothing: the next site space in order takes over.
      await trx
        .updateTable('site_sections')
        .set({ default_site_space_id: null })
        .where('default_site_space_id', '=', siteSpace.id)
        .execute();
      const site = await findSite(trx, siteId);
      if (site?.default_site_space_id === siteSpace.id) await updateSite(trx, siteId, { default_site_space_id: null });
    });
    return reply.status(205).send();
  });

  app.post(
    `${base}/:siteSpaceId/move`,
    { schema: { params: SiteSpaceParams, body: MoveSiteSpace, response: { 200: SiteSpace } } },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      await inTransaction(db, async (trx) => {
        await lockSite(trx, siteId);
        const placement = placementOf(request.body.position, (p) => ({ table: 'site_spaces', id: p.siteSpace }));
        await moveSiteSpace(trx, await siteParts(trx, siteId), siteSpaceId, placement, `body.position.${placement.side}`);
      });
      return siteSpaceOf(request, siteId, siteSpaceId);
    },
  );
};
