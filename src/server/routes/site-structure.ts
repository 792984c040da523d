import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  DocsyncError,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
  SortSiteStructure,
  badRequest,
  type SiteStructureItemPointer,
} from '../../model/index.js';
import { inTransaction } from '../store/transaction.js';
import { findSite, lockSite } from '../store/sites.js';
import { siteParts, type SiteParts } from '../store/site-structure.js';
import { loadSite } from '../sites/access.js';
import { moveGroup, moveSection, moveSiteSpace, placementOf, type StructureRef } from '../sites/ordering.js';
import { resolveShareKey, sentMinimal, viewsFor } from '../sites/request.js';
import { SiteParams } from './sites.js';

const TABLES = { 'site-space': 'site_spaces', 'site-section': 'site_sections', 'site-section-group': 'site_section_groups' } as const;

/** The pointer as a row reference; docsync has no external links, so those point at nothing. */
function refOf(pointer: SiteStructureItemPointer, field: string): StructureRef {
  if (pointer.type === 'site-external-link')
    throw badRequest(`${field}: site external link ${pointer.id} not found (docsync has no external links)`);
  return { table: TABLES[pointer.type as keyof typeof TABLES], id: pointer.id };
}

function exists(parts: SiteParts, ref: StructureRef): boolean {
  const rows = ref.table === 'site_spaces' ? parts.siteSpaces : ref.table === 'site_sections' ? parts.sections : parts.groups;
  return rows.some((r) => r.id === ref.id);
}

export const siteStructureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;
  const base = '/orgs/:organizationId/sites/:siteId';

  app.get(
    `${base}/structure`,
    {
      schema: {
        params: SiteParams,
        querystring: Type.Object(
          { shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) },
          { additionalProperties: false },
        ),
        response: { 200: SiteStructure },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
      return (await viewsFor(request, site, await resolveShareKey(db, site, request.query.shareKey))).structure;
    },
  );

  app.patch(
    `${base}/structure/sort`,
    { schema: { params: SiteParams, body: SortSiteStructure, response: { 200: Type.Union([SiteSpace, SiteSection, SiteSectionGroup]) } } },
    async (request, reply) => {
      const { organizationId, siteId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.structure');
      const { item, position } = request.body;
      if (item.type === 'site-external-link')
        throw new DocsyncError('not_found', `site external link ${item.id} not found (docsync has no external links)`);
      const ref = refOf(item, 'body.item');
      await inTransaction(db, async (trx) => {
        await lockSite(trx, siteId);
        const parts = await siteParts(trx, siteId);
        if (!exists(parts, ref)) throw new DocsyncError('not_found', `${item.type} ${item.id} not found in site ${siteId}`);
        const side = position?.before !== undefined ? 'before' : 'after';
        const field = `body.position.${side}`;
        const placement = placementOf(position, (p) => refOf(p, field));
        if (placement.target && !exists(parts, placement.target))
          throw badRequest(`${field}: ${placement.target.id} not found in site ${siteId}`);
        if (ref.table === 'site_spaces') await moveSiteSpace(trx, parts, ref.id, placement, field);
        else if (ref.table === 'site_sections') await moveSection(trx, parts, ref.id, placement, field);
        else await moveGroup(trx, parts, ref.id, placement, field);
      });
      if (sentMinimal(request, reply)) return reply;
      const site = await findSite(db, siteId);
      const views = site && (await viewsFor(request, site));
      const moved =
        ref.table === 'site_spaces'
          ? views?.siteSpaces.get(ref.id)
          : ref.table === 'site_sections'
            ? views?.sections.get(ref.id)
            : views?.groups.get(ref.id);
      if (!moved) throw new DocsyncError('not_found', `${item.type} ${item.id} not found in site ${siteId}`);
      return moved;
    },
  );
};
