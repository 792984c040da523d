import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CreateSiteSectionGroup,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  ListOf,
  ListQuery,
  MoveSiteSectionGroup,
  SiteSectionGroup,
  UpdateSiteSectionGroup,
  badRequest,
} from '../../model/index.js';
import type { FastifyRequest } from 'fastify';
import { inTransaction } from '../store/transaction.js';
import { findSite, lockSite } from '../store/sites.js';
import { findGroup, siteParts, writePositions, type GroupRow } from '../store/site-structure.js';
import { loadSite } from '../sites/access.js';
import { moveGroup, moveSection, moveSectionIntoGroup, placementOf, type StructureRef } from '../sites/ordering.js';
import { sentMinimal, viewsFor } from '../sites/request.js';
import { rootItems } from '../sites/structure.js';
import { pageInOrder } from '../sites/paging.js';
import { newId } from '../util/ids.js';
import { apiUrl, baseUrl } from '../urls.js';
import { SiteId, SiteParams } from './sites.js';

const GroupParams = Type.Composite([SiteParams, Type.Object({ siteSectionGroupId: SiteId })]);
const GroupSectionParams = Type.Composite([GroupParams, Type.Object({ siteSectionId: SiteId })]);

export const siteSectionGroupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const base = '/orgs/:organizationId/sites/:siteId/section-groups';

  async function groupOf(request: FastifyRequest, siteId: string, groupId: string): Promise<SiteSectionGroup> {
    const site = await findSite(db, siteId);
    const view = site && (await viewsFor(request, site)).groups.get(groupId);
    if (!view) throw new DocsyncError('not_found', `section group ${groupId} not found in site ${siteId}`);
    return view;
  }

  /** Runs `fn` under the site's lock with the group, 404 when the group is not in the site. */
  function withGroup<T>(siteId: string, groupId: string, fn: (trx: typeof db, group: GroupRow) => Promise<T>): Promise<T> {
    return inTransaction(db, async (trx) => {
      await lockSite(trx, siteId);
      const group = await findGroup(trx, siteId, groupId);
      if (!group) throw new DocsyncError('not_found', `section group ${groupId} not found in site ${siteId}`);
      return fn(trx, group);
    });
  }

  app.get(
    base,
    { schema: { params: SiteParams, querystring: ListQuery, response: { 200: ListOf(SiteSectionGroup) } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
      const views = await viewsFor(request, site);
      return pageInOrder([...views.groups.values()], request.query, DEFAULT_LIST_LIMIT);
    },
  );

  app.post(
    base,
    { schema: { params: SiteParams, body: CreateSiteSectionGroup, response: { 201: SiteSectionGroup } } },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      const body = request.body;
      const id = await inTransaction(db, async (trx) => {
        await lockSite(trx, siteId);
        let parts = await siteParts(trx, siteId);
        // A site without sections lists site spaces at its root and has no groups to show: a group
        // made there would be stored and never answered (the 404 the authorization matrix found).
        if (parts.sections.length === 0)
          throw new DocsyncError('conflict', `site ${siteId} has no sections; add a section before a section group`);
        const sectionIds = [...new Set(body.sections ?? [])];
        sectionIds.forEach((sectionId, i) => {
          if (!parts.sections.some((s) => s.id === sectionId))
            throw badRequest(`body.sections.${i}: section ${sectionId} not found in site ${siteId}`);
        });
        const row: GroupRow = {
          id: newId(),
          site_id: siteId,
          title: body.title,
          icon: body.icon ?? null,
          position: rootItems(parts).length,
          created_at: clock.now().toISOString(),
        };
        await trx.insertInto('site_section_groups').values(row).execute();
        for (const sectionId of sectionIds) {
          parts = await siteParts(trx, siteId);
          await moveSectionIntoGroup(trx, parts, sectionId, row.id);
        }
        return row.id;
      });
      void reply.status(201).header('location', apiUrl(baseUrl(request), `/orgs/${organizationId}/sites/${siteId}/section-groups/${id}`));
      return groupOf(request, siteId, id);
    },
  );

  app.patch(
    `${base}/:siteSectionGroupId`,
    { schema: { params: GroupParams, body: UpdateSiteSectionGroup, response: { 200: SiteSectionGroup } } },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      const changes: Partial<GroupRow> = {};
      if (request.body.title !== undefined) changes.title = request.body.title;
      if (request.body.icon !== undefined) changes.icon = request.body.icon;
      await withGroup(siteId, siteSectionGroupId, async (trx, group) => {
        if (Object.keys(changes).length > 0) await trx.updateTable('site_section_groups').set(changes).where('id', '=', group.id).execute();
      });
      if (sentMinimal(request, reply)) return reply;
      return groupOf(request, siteId, siteSectionGroupId);
    },
  );

  app.delete(`${base}/:siteSectionGroupId`, { schema: { params: GroupParams } }, async (request, reply) => {
    const { organizationId, siteId, siteSectionGroupId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
    await withGroup(siteId, siteSectionGroupId, async (trx, group) => {
      // The group's sections stay, at the root where the group was, in their order.
      const parts = await siteParts(trx, siteId);
      const order = rootItems(parts).flatMap((item): StructureRef[] =>
        item.kind === 'section'
          ? [{ table: 'site_sections', id: item.row.id }]
          : item.row.id === group.id
            ? parts.sections.filter((s) => s.group_id === group.id).map((s) => ({ table: 'site_sections', id: s.id }))
            : [{ table: 'site_section_groups', id: item.row.id }],
      );
      await trx.updateTable('site_sections').set({ group_id: null }).where('group_id', '=', group.id).execute();
      await trx.deleteFrom('site_section_groups').where('id', '=', group.id).execute();
      await writePositions(trx, order);
    });
    return reply.status(205).send();
  });

  app.post(
    `${base}/:siteSectionGroupId/sections`,
    {
      schema: {
        params: GroupParams,
        body: Type.Object({ sectionId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
        response: { 201: SiteSectionGroup },
      },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      const { sectionId } = request.body;
      await withGroup(siteId, siteSectionGroupId, async (trx, group) => {
        const parts = await siteParts(trx, siteId);
        if (!parts.sections.some((s) => s.id === sectionId))
          throw badRequest(`body.sectionId: section ${sectionId} not found in site ${siteId}`);
        await moveSectionIntoGroup(trx, parts, sectionId, group.id);
      });
      void reply.status(201);
      return groupOf(request, siteId, siteSectionGroupId);
    },
  );

  app.delete(`${base}/:siteSectionGroupId/sections/:siteSectionId`, { schema: { params: GroupSectionParams } }, async (request, reply) => {
    const { organizationId, siteId, siteSectionGroupId, siteSectionId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
    await withGroup(siteId, siteSectionGroupId, async (trx, group) => {
      const parts = await siteParts(trx, siteId);
      if (!parts.sections.some((s) => s.id === siteSectionId && s.group_id === group.id)) {
        throw new DocsyncError('not_found', `section ${siteSectionId} is not in section group ${group.id}`);
      }
      // Out of the group, right after it at the root.
      await moveSection(
        trx,
        parts,
        siteSectionId,
        { target: { table: 'site_section_groups', id: group.id }, side: 'after' },
        'path.siteSectionId',
      );
    });
    return reply.status(205).send();
  });

  app.post(
    `${base}/:siteSectionGroupId/move`,
    { schema: { params: GroupParams, body: MoveSiteSectionGroup, response: { 200: SiteSectionGroup } } },
    async (request) => {
      const { organizationId, siteId, siteSectionGroupId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      await withGroup(siteId, siteSectionGroupId, async (trx, group) => {
        const placement = placementOf(request.body.position, (p) => ({
          table: p.type === 'site-section' ? 'site_sections' : 'site_section_groups',
          id: p.id,
        }));
        await moveGroup(trx, await siteParts(trx, siteId), group.id, placement, `body.position.${placement.side}`);
      });
      return groupOf(request, siteId, siteSectionGroupId);
    },
  );
};
