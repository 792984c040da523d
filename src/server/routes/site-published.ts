import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PublishedContentSite, SiteAdaptiveSchema, SiteAdaptiveTemplateCondition } from '../../model/index.js';
import { countSiteSpaces, updateSite, type SiteRow } from '../store/sites.js';
import { loadSite } from '../sites/access.js';
import { EMPTY_ADAPTIVE_SCHEMA, checkAdaptiveSchema, templateConditions } from '../sites/adaptive-schema.js';
import { DEFAULT_SITE_CUSTOMIZATION } from '../sites/customizations.js';
import { resolveShareKey, viewsFor } from '../sites/request.js';
import { siteView } from '../views/site.js';
import { baseUrl } from '../urls.js';
import { SiteParams } from './sites.js';

const storedSchema = (site: SiteRow): unknown => (site.adaptive_schema === null ? EMPTY_ADAPTIVE_SCHEMA : JSON.parse(site.adaptive_schema));

/** The adaptive (visitor claims) schema, its template conditions, and the published profile. */
export const sitePublishedRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const base = '/orgs/:organizationId/sites/:siteId';

  app.get(`${base}/adaptive-schema`, { schema: { params: SiteParams, response: { 200: SiteAdaptiveSchema } } }, async (request) => {
    const { organizationId, siteId } = request.params;
    const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
    return {
      object: 'site-adaptive-schema' as const,
      jsonSchema: storedSchema(site),
      updatedAt: site.adaptive_schema_updated_at ?? site.created_at,
    };
  });

  app.put(
    `${base}/adaptive-schema`,
    {
      schema: {
        params: SiteParams,
        body: Type.Object({ jsonSchema: Type.Unknown() }, { additionalProperties: false }),
        response: { 200: SiteAdaptiveSchema },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.update');
      const { jsonSchema } = request.body;
      checkAdaptiveSchema(jsonSchema);
      const updatedAt = clock.now().toISOString();
      await updateSite(db, siteId, { adaptive_schema: JSON.stringify(jsonSchema), adaptive_schema_updated_at: updatedAt });
      return { object: 'site-adaptive-schema' as const, jsonSchema, updatedAt };
    },
  );

  app.get(
    `${base}/adaptive-schema/template-conditions`,
    { schema: { params: SiteParams, response: { 200: Type.Object({ items: Type.Array(SiteAdaptiveTemplateCondition) }) } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
      return { items: templateConditions(storedSchema(site)) };
    },
  );

  app.get(
    `${base}/published`,
    {
      schema: {
        params: SiteParams,
        querystring: Type.Object(
          { shareKey: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })) },
          { additionalProperties: false },
        ),
        response: { 200: PublishedContentSite },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { site, role } = await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
      const shareKey = await resolveShareKey(db, site, request.query.shareKey);
      const views = await viewsFor(request, site, shareKey);
      return {
        object: 'published-content-site' as const,
        site: siteView(site, role, await countSiteSpaces(db, site.id), baseUrl(request), shareKey),
        structure: views.structure,
        customizations: { site: DEFAULT_SITE_CUSTOMIZATION, siteSpaces: {} },
        scripts: [],
      };
    },
  );
};
