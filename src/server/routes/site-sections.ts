import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CreateSiteSection,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  ListOf,
  ListQuery,
  MoveSiteSection,
  SiteSection,
  UpdateSiteSection,
  badRequest,
  conflict,
} from '../../model/index.js';
import { slugify, uniqueSlug } from '../../content/index.js';
import { inTransaction } from '../store/transaction.js';
import { findSite, lockSite, updateSite } from '../store/sites.js';
import { findSection, siteParts, type SectionRow } from '../store/site-structure.js';
import { loadSite } from '../sites/access.js';
import { checkedCondition } from '../sites/conditions.js';
import { moveSection, placementOf } from '../sites/ordering.js';
import { resolveShareKey, sentMinimal, viewsFor } from '../sites/request.js';
import { appendSiteSpace, requirePath, spaceForSite } from '../sites/site-spaces.js';
import { effectiveDefault, rootItems, sectionsInOrder, siteSpacesIn } from '../sites/structure.js';
import { pageInOrder } from '../sites/paging.js';
import { newId } from '../util/ids.js';
import { apiUrl, baseUrl } from '../urls.js';
import { SiteId, SiteParams } from './sites.js';

const SectionParams = Type.Composite([SiteParams, Type.Object({ siteSectionId: SiteId })]);
const ShareKeyQuery = Type.Object({ shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) });

export const siteSectionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const base = '/orgs/:organizationId/sites/:siteId/sections';

  /** The section as the caller sees it now (404 when it is gone). */
  async function sectionOf(request: Parameters<typeof viewsFor>[0], siteId: string, sectionId: string): Promise<SiteSection> {
    const site = await findSite(db, siteId);
    const view = site && (await viewsFor(request, site)).sections.get(sectionId);
    if (!view) throw new DocsyncError('not_found', `section ${sectionId} not found in site ${siteId}`);
    return view;
  }

  app.get(
    base,
    {
      schema: {
        params: SiteParams,
        querystring: Type.Composite([ListQuery, ShareKeyQuery], { additionalProperties: false }),
        response: { 200: ListOf(SiteSection) },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
      const views = await viewsFor(request, site, await resolveShareKey(db, site, request.query.shareKey));
      return pageInOrder([...views.sections.values()], request.query, DEFAULT_LIST_LIMIT);
    },
  );

  app.post(base, { schema: { params: SiteParams, body: CreateSiteSection, response: { 201: SiteSection } } }, async (request, reply) => {
    const { organizationId, siteId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
    const body = request.body;
    const space = await spaceForSite(db, organizationId, body.spaceId, 'body.spaceId');
    const stamp = clock.now().toISOString();
    const section = await inTransaction(db, async (trx) => {
      await lockSite(trx, siteId);
      const site = await findSite(trx, siteId);
      if (!site) throw new DocsyncError('not_found', `site ${siteId} not found`);
      const parts = await siteParts(trx, siteId);
      const title = body.title ?? (space.title.length >= 2 ? space.title : 'Untitled section');
      const row: SectionRow = {
        id: newId(),
        site_id: siteId,
        group_id: null,
        title,
        path: uniqueSlug(slugify(title), new Set(parts.sections.map((s) => s.path))),
        condition: null,
        icon: body.icon ?? null,
        description: null,
        default_site_space_id: null,
        position: rootItems(parts).length,
        created_at: stamp,
      };
      await trx.insertInto('site_sections').values(row).execute();
      const root = siteSpacesIn(parts, null);
      if (parts.sections.length === 0) {
        // The first section takes over the site spaces at the root with their default, so that
        // turning sections on loses nothing; it becomes the default section.
        await trx
          .updateTable('site_spaces')
          .set({ section_id: row.id })
          .where('site_id', '=', siteId)
          .where('section_id', 'is', null)
          .execute();
        const rootDefault = effectiveDefault(site.default_site_space_id, root);
        if (rootDefault)
          await trx.updateTable('site_sections').set({ default_site_space_id: rootDefault.id }).where('id', '=', row.id).execute();
        await updateSite(trx, siteId, { default_section_id: row.id, default_site_space_id: null });
      }
      if (parts.sections.length > 0 || !root.some((s) => s.space_id === space.id)) await appendSiteSpace(trx, siteId, row.id, space, stamp);
      return row;
    });
    void reply.status(201).header('location', apiUrl(baseUrl(request), `/orgs/${organizationId}/sites/${siteId}/sections/${section.id}`));
    return sectionOf(request, siteId, section.id);
  });

  app.patch(
    `${base}/:siteSectionId`,
    { schema: { params: SectionParams, body: UpdateSiteSection, response: { 200: SiteSection } } },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      const body = request.body;
      const changes: Partial<SectionRow> = {};
      if (body.title !== undefined) changes.title = body.title;
      if (body.icon !== undefined) changes.icon = body.icon;
      if (body.description !== undefined) changes.description = body.description;
      if (body.condition !== undefined) changes.condition = checkedCondition(body.condition, 'body.condition');
      if (body.path !== undefined) {
        requirePath(body.path, 'body.path');
        changes.path = body.path;
      }
      await inTransaction(db, async (trx) => {
        await lockSite(trx, siteId);
        const section = await findSection(trx, siteId, siteSectionId);
        if (!section) throw new DocsyncError('not_found', `section ${siteSectionId} not found in site ${siteId}`);
        if (body.path !== undefined && body.path !== section.path) {
          const taken = await trx
            .selectFrom('site_sections')
            .select('id')
            .where('site_id', '=', siteId)
            .where('path', '=', body.path)
            .executeTakeFirst();
          if (taken) throw conflict(`body.path "${body.path}" is already the path of section ${taken.id} in this site`);
        }
        if (body.defaultSiteSpace !== undefined) {
          const siteSpace = await trx
            .selectFrom('site_spaces')
            .select('id')
            .where('id', '=', body.defaultSiteSpace)
            .where('site_id', '=', siteId)
            .where('section_id', '=', siteSectionId)
            .executeTakeFirst();
          if (!siteSpace)
            throw badRequest(`body.defaultSiteSpace: site space ${body.defaultSiteSpace} not found in section ${siteSectionId}`);
          changes.default_site_space_id = siteSpace.id;
        }
        if (Object.keys(changes).length > 0) await trx.updateTable('site_sections').set(changes).where('id', '=', siteSectionId).execute();
      });
      if (sentMinimal(request, reply)) return reply;
      return sectionOf(request, siteId, siteSectionId);
    },
  );

  app.delete(`${base}/:siteSectionId`, { schema: { params: SectionParams } }, async (request, reply) => {
    const { organizationId, siteId, siteSectionId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
    await inTransaction(db, async (trx) => {
      await lockSite(trx, siteId);
      const site = await findSite(trx, siteId);
      const section = await findSection(trx, siteId, siteSectionId);
      if (!site || !section) throw new DocsyncError('not_found', `section ${siteSectionId} not found in site ${siteId}`);
      const ordered = sectionsInOrder(await siteParts(trx, siteId));
      if (ordered.length > 1 && effectiveDefault(site.default_section_id, ordered)?.id === section.id) {
        throw conflict(
          `section ${siteSectionId} is the default section of site ${siteId}; make another section the default first (PATCH the site's defaultSiteSection)`,
        );
      }
      // The section's site spaces go with it; their spaces stay.
      await trx.deleteFrom('site_spaces').where('section_id', '=', section.id).execute();
      await trx.deleteFrom('site_sections').where('id', '=', section.id).execute();
      if (site.default_section_id === section.id) await updateSite(trx, siteId, { default_section_id: null });
    });
    return reply.status(205).send();
  });

  app.post(
    `${base}/:siteSectionId/move`,
    { schema: { params: SectionParams, body: MoveSiteSection, response: { 200: SiteSection } } },
    async (request) => {
      const { organizationId, siteId, siteSectionId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      await inTransaction(db, async (trx) => {
        await lockSite(trx, siteId);
        const parts = await siteParts(trx, siteId);
        if (!parts.sections.some((s) => s.id === siteSectionId))
          throw new DocsyncError('not_found', `section ${siteSectionId} not found in site ${siteId}`);
        const placement = placementOf(request.body.position, (p) => ({ table: 'site_sections', id: p.siteSection }));
        await moveSection(trx, parts, siteSectionId, placement, `body.position.${placement.side}`);
      });
      return sectionOf(request, siteId, siteSectionId);
    },
  );
};
