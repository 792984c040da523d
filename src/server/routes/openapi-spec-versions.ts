import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  ListOf,
  ListQuery,
  OpenAPISpecContent,
  OpenAPISpecParams,
  OpenAPISpecVersion,
  OpenAPISpecVersionParams,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import { findSpec, findVersion, listVersions, type OpenApiSpecRow } from '../store/openapi-specs.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';
import { openApiSpecContentView, openApiSpecVersionView } from '../views/openapi-spec.js';

/** The versions of a spec (oldest first) and their content. */
export const openApiSpecVersionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  async function loadSpec(request: FastifyRequest, organizationId: string, slug: string): Promise<OpenApiSpecRow> {
    requireOrgRole(await memberRole(db, organizationId, request.caller.id), 'openapi.view', organizationId);
    const spec = await findSpec(db, organizationId, slug);
    if (!spec) throw new DocsyncError('not_found', `OpenAPI spec ${slug} not found in organization ${organizationId}`);
    return spec;
  }

  async function loadVersion(request: FastifyRequest, params: { organizationId: string; specSlug: string; versionId?: string }) {
    const spec = await loadSpec(request, params.organizationId, params.specSlug);
    const id = params.versionId ?? spec.last_version;
    if (id === null)
      throw new DocsyncError('not_found', `OpenAPI spec ${spec.slug} has no version yet (processingState: ${spec.processing_state})`);
    const version = await findVersion(db, spec.id, id);
    if (!version) throw new DocsyncError('not_found', `version ${id} of OpenAPI spec ${spec.slug} not found`);
    return { spec, version };
  }

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions',
    { schema: { params: OpenAPISpecParams, querystring: ListQuery, response: { 200: ListOf(OpenAPISpecVersion) } } },
    async (request) => {
      const spec = await loadSpec(request, request.params.organizationId, request.params.specSlug);
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listVersions(db, spec.id, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => openApiSpecVersionView(spec, row, base),
      });
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest',
    { schema: { params: OpenAPISpecParams, response: { 200: OpenAPISpecVersion } } },
    async (request) => {
      const { spec, version } = await loadVersion(request, request.params);
      return openApiSpecVersionView(spec, version, baseUrl(request));
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/latest/content',
    { schema: { params: OpenAPISpecParams, response: { 200: OpenAPISpecContent } } },
    async (request) => {
      const { spec, version } = await loadVersion(request, request.params);
      return openApiSpecContentView(spec, version, baseUrl(request));
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId',
    { schema: { params: OpenAPISpecVersionParams, response: { 200: OpenAPISpecVersion } } },
    async (request) => {
      const { spec, version } = await loadVersion(request, request.params);
      return openApiSpecVersionView(spec, version, baseUrl(request));
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content',
    { schema: { params: OpenAPISpecVersionParams, response: { 200: OpenAPISpecContent } } },
    async (request) => {
      const { spec, version } = await loadVersion(request, request.params);
      return openApiSpecContentView(spec, version, baseUrl(request));
    },
  );
};
