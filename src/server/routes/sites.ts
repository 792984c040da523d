import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CreateSite, DEFAULT_LIST_LIMIT, DocsyncError, Id, ListOf, ListQuery, Site, UpdateSite, badRequest } from '../../model/index.js';
import { inTransaction } from '../store/transaction.js';
import {
  countSiteSpaces,
  deleteSiteRows,
  findSite,
  insertSite,
  listSitesOfOrganization,
  lockSite,
  updateSite,
  type SiteRow,
} from '../store/sites.js';
import { siteParts } from '../store/site-structure.js';
import { addSpace } from '../store/space-tree.js';
import type { SpaceRow } from '../store/spaces.js';
import { loadSite, siteRole } from '../sites/access.js';
import { appendSiteSpace, spaceForSite } from '../sites/site-spaces.js';
import { effectiveDefault, sectionsInOrder, siteSpacesIn } from '../sites/structure.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { newId } from '../util/ids.js';
import { siteView } from '../views/site.js';
import { apiUrl, baseUrl } from '../urls.js';

export const OrgParams = Type.Object({ organizationId: Id });
/** Site ids are free strings in the published spec; an unknown one is a 404, not a 400. */
export const SiteId = Type.String({ minLength: 1, maxLength: 256 });
export const SiteParams = Type.Object({ organizationId: Id, siteId: SiteId });

const SiteListQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({
      space: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
      title: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
      published: Type.Optional(Type.Boolean()),
    }),
  ],
  { additionalProperties: false },
);

const DEFAULT_SITE_TITLE = 'Untitled site';

export const siteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  async function respond(siteId: string, role: Parameters<typeof siteView>[1], base: string) {
    const site = await findSite(db, siteId);
    if (!site) throw new DocsyncError('not_found', `site ${siteId} not found`);
    return siteView(site, role, await countSiteSpaces(db, siteId), base);
  }

  app.get(
    '/orgs/:organizationId/sites',
    { schema: { params: OrgParams, querystring: SiteListQuery, response: { 200: ListOf(Site) } } },
    async (request) => {
      const { organizationId } = request.params;
      const role = await siteRole(db, organizationId, request.caller.id, 'site.view');
      const { space, title, published } = request.query;
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listSitesOfOrganization(db, organizationId, { space, title, published }, after, n),
        key: (row) => [row.created_at, row.id],
        accept: async (row) => siteView(row, role, await countSiteSpaces(db, row.id), base),
      });
    },
  );

  app.post(
    '/orgs/:organizationId/sites',
    {
      schema: { params: OrgParams, body: CreateSite, response: { 201: Site } },
      // Every field is optional; no body means `{}`.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const { organizationId } = request.params;
      const role = await siteRole(db, organizationId, request.caller.id, 'site.update');
      const body = request.body;
      const title = body.title ?? DEFAULT_SITE_TITLE;
      const stamp = now();
      let spaces: SpaceRow[] = [];
      if (Array.isArray(body.spaces)) {
        const ids = [...new Set(body.spaces)];
        for (const [i, id] of ids.entries()) spaces.push(await spaceForSite(db, organizationId, id, `body.spaces.${i}`));
      } else if (body.spaces !== undefined) {
        // `empty` or `sample`: a new space for the site, at the organization's root.
        spaces = [
          await addSpace(
            db,
            {
              orgId: organizationId,
              parentId: null,
              title: title.slice(0, 50),
              emoji: '',
              visibility: 'private',
              editMode: 'live',
              empty: body.spaces === 'empty',
            },
            stamp,
          ),
        ];
      }
      const site: SiteRow = {
        id: newId(),
        org_id: organizationId,
        type: body.type ?? 'basic',
        title,
        visibility: body.visibility ?? 'public',
        basename: null,
        hostname: null,
        proxy_origin: null,
        published: 0,
        adaptive_content: 0,
        agents_context: 'included',
        default_section_id: null,
        default_site_space_id: null,
        adaptive_schema: null,
        adaptive_schema_updated_at: null,
        created_at: stamp,
      };
      await inTransaction(db, async (trx) => {
        await insertSite(trx, site);
        for (const space of spaces) await appendSiteSpace(trx, site.id, null, space, stamp);
      });
      const base = baseUrl(request);
      void reply.status(201).header('location', apiUrl(base, `/orgs/${organizationId}/sites/${site.id}`));
      return respond(site.id, role, base);
    },
  );

  app.get('/orgs/:organizationId/sites/:siteId', { schema: { params: SiteParams, response: { 200: Site } } }, async (request) => {
    const { organizationId, siteId } = request.params;
    const { site, role } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
    return siteView(site, role, await countSiteSpaces(db, site.id), baseUrl(request));
  });

  app.patch(
    '/orgs/:organizationId/sites/:siteId',
    { schema: { params: SiteParams, body: UpdateSite, response: { 200: Site } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { role } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
      const body = request.body;
      await inTransaction(db, async (trx) => {
        await lockSite(trx, siteId);
        const site = await findSite(trx, siteId);
        if (!site) throw new DocsyncError('not_found', `site ${siteId} not found`);
        const changes: Partial<SiteRow> = {};
        if (body.title !== undefined) changes.title = body.title;
        if (body.visibility !== undefined) changes.visibility = body.visibility;
        if (body.basename !== undefined && body.basename !== site.basename) {
          const taken = await trx.selectFrom('sites').select('id').where('basename', '=', body.basename).executeTakeFirst();
          if (taken) throw new DocsyncError('conflict', `body.basename "${body.basename}" is already used by another site`);
          changes.basename = body.basename;
        }
        if (body.hostname !== undefined && body.hostname !== site.hostname) {
          if (body.hostname !== null) {
            const taken = await trx.selectFrom('sites').select('id').where('hostname', '=', body.hostname).executeTakeFirst();
            if (taken) throw new DocsyncError('conflict', `body.hostname "${body.hostname}" is already used by another site`);
          }
          changes.hostname = body.hostname;
        }
        if (body.adaptiveContent !== undefined) changes.adaptive_content = body.adaptiveContent.enabled ? 1 : 0;
        if (body.agentsContext !== undefined) changes.agents_context = body.agentsContext;
        if (body.proxy !== undefined) changes.proxy_origin = body.proxy;
        const parts = await siteParts(trx, siteId);
        const sections = sectionsInOrder(parts);
        let defaultSection = effectiveDefault(site.default_section_id, sections);
        if (body.defaultSiteSection !== undefined) {
          defaultSection = sections.find((s) => s.id === body.defaultSiteSection);
          if (!defaultSection) throw badRequest(`body.defaultSiteSection: section ${body.defaultSiteSection} not found in site ${siteId}`);
          changes.default_section_id = defaultSection.id;
        }
        if (body.defaultSiteSpace !== undefined) {
          // At the root of a site without sections; in the default section otherwise (seed).
          const container = defaultSection?.id ?? null;
          if (!siteSpacesIn(parts, container).some((s) => s.id === body.defaultSiteSpace)) {
            throw badRequest(
              `body.defaultSiteSpace: site space ${body.defaultSiteSpace} not found in ${container === null ? `the root of site ${siteId}` : `the default section ${container}`}`,
            );
          }
          if (container === null) changes.default_site_space_id = body.defaultSiteSpace;
          else
            await trx
              .updateTable('site_sections')
              .set({ default_site_space_id: body.defaultSiteSpace })
              .where('id', '=', container)
              .execute();
        }
        await updateSite(trx, siteId, changes);
      });
      return respond(siteId, role, baseUrl(request));
    },
  );

  app.delete('/orgs/:organizationId/sites/:siteId', { schema: { params: SiteParams } }, async (request, reply) => {
    const { organizationId, siteId } = request.params;
    await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
    await inTransaction(db, (trx) => deleteSiteRows(trx, siteId));
    return reply.status(205).send();
  });

  for (const [verb, published] of [
    ['publish', 1],
    ['unpublish', 0],
  ] as const) {
    app.post(
      `/orgs/:organizationId/sites/:siteId/${verb}`,
      { schema: { params: SiteParams, response: { 200: Site } } },
      async (request) => {
        const { organizationId, siteId } = request.params;
        const { role } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
        await updateSite(db, siteId, { published });
        return respond(siteId, role, baseUrl(request));
      },
    );
  }
};
