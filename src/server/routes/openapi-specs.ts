import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  CreateOpenAPISpec,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  ListQuery,
  OPENAPI_SLUG_PATTERN,
  OpenAPISpec,
  OpenAPISpecParams,
  PutOpenAPISpec,
  badRequest,
  conflict,
  isRole,
  type OpenAPISpecSource,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import type { MemberRow } from '../store/organizations.js';
import {
  deleteSpec,
  findSpec,
  insertSpec,
  listSpecs,
  recordProcessing,
  setSpecSource,
  type OpenApiSpecRow,
} from '../store/openapi-specs.js';
import { readSpec, SpecProcessError, type ReadSpec } from '../openapi/read-spec.js';
import { versionOf } from '../openapi/process-spec.js';
import { queueSpecProcessing } from '../openapi/queue-processing.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { apiUrl, baseUrl } from '../urls.js';
import { openApiSpecView } from '../views/openapi-spec.js';

const OrgParams = Type.Object({ organizationId: Id });
const slugPattern = new RegExp(OPENAPI_SLUG_PATTERN);

/**
 * OpenAPI specs of an organization. A spec given as text is parsed and validated in the request
 * (a 400 names what is wrong in the document); one given by URL is fetched and processed by a
 * durable job, its outcome in `processingState`, `lastProcessErrorCode` and `lastVersion`.
 */
export const openApiSpecRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock, allowPrivateFetch } = app.ctx;

  const role = (member: MemberRow | undefined) => (member && isRole(member.role) ? member.role : null);

  async function loadSpec(request: FastifyRequest, organizationId: string, slug: string, action: 'openapi.view' | 'openapi.manage') {
    const member = await memberRole(db, organizationId, request.caller.id);
    requireOrgRole(member, action, organizationId);
    const spec = await findSpec(db, organizationId, slug);
    if (!spec) throw new DocsyncError('not_found', `OpenAPI spec ${slug} not found in organization ${organizationId}`);
    return { spec, member };
  }

  /** A text source must parse and validate before anything is stored: its problems are a 400. */
  async function readText(source: OpenAPISpecSource): Promise<ReadSpec | undefined> {
    if (!('text' in source)) return undefined;
    try {
      return await readSpec(source, { allowPrivate: false });
    } catch (error) {
      if (error instanceof SpecProcessError) throw badRequest(`body.source.text: ${error.message}`);
      throw error;
    }
  }

  /** Records a text source's version now; queues a URL source's processing as a job. */
  async function process(spec: OpenApiSpecRow, source: OpenAPISpecSource, read: ReadSpec | undefined): Promise<void> {
    if ('url' in source || read === undefined) {
      await queueSpecProcessing(db, clock, { specId: spec.id, allowPrivate: allowPrivateFetch });
      return;
    }
    await recordProcessing(db, spec.id, { url: null, text: source.text }, versionOf(read, null), clock.now().toISOString());
  }

  const columns = (source: OpenAPISpecSource) => ('url' in source ? { url: source.url, text: null } : { url: null, text: source.text });
  const respond = async (request: FastifyRequest, orgId: string, slug: string, member: MemberRow | undefined) => {
    const spec = await findSpec(db, orgId, slug);
    return openApiSpecView(spec!, role(member), baseUrl(request));
  };

  app.get(
    '/orgs/:organizationId/openapi',
    { schema: { params: OrgParams, querystring: ListQuery, response: { 200: ListOf(OpenAPISpec) } } },
    async (request) => {
      const { organizationId } = request.params;
      const member = await memberRole(db, organizationId, request.caller.id);
      requireOrgRole(member, 'openapi.view', organizationId);
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listSpecs(db, organizationId, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => openApiSpecView(row, role(member), base),
      });
    },
  );

  app.post(
    '/orgs/:organizationId/openapi',
    { schema: { params: OrgParams, body: CreateOpenAPISpec, response: { 201: OpenAPISpec } } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const member = await memberRole(db, organizationId, request.caller.id);
      requireOrgRole(member, 'openapi.manage', organizationId);
      const { slug, source } = request.body;
      if (await findSpec(db, organizationId, slug))
        throw conflict(`body.slug: organization ${organizationId} already has an OpenAPI spec ${slug}`);
      const read = await readText(source);
      const spec = await insertSpec(db, { orgId: organizationId, slug, source: columns(source) }, clock.now().toISOString());
      await process(spec, source, read);
      void reply.status(201).header('location', apiUrl(baseUrl(request), `/orgs/${organizationId}/openapi/${slug}`));
      return respond(request, organizationId, slug, member);
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug',
    { schema: { params: OpenAPISpecParams, response: { 200: OpenAPISpec } } },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      const { spec, member } = await loadSpec(request, organizationId, specSlug, 'openapi.view');
      return openApiSpecView(spec, role(member), baseUrl(request));
    },
  );

  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    { schema: { params: OpenAPISpecParams, body: PutOpenAPISpec, response: { 200: OpenAPISpec } } },
    async (request) => {
      const { organizationId, specSlug } = request.params;
      if (!slugPattern.test(specSlug)) throw badRequest(`path.specSlug must match pattern "${OPENAPI_SLUG_PATTERN}"`);
      const member = await memberRole(db, organizationId, request.caller.id);
      requireOrgRole(member, 'openapi.manage', organizationId);
      const { source } = request.body;
      const read = await readText(source);
      const now = clock.now().toISOString();
      let spec = await findSpec(db, organizationId, specSlug);
      if (spec) await setSpecSource(db, spec.id, columns(source), now);
      else spec = await insertSpec(db, { orgId: organizationId, slug: specSlug, source: columns(source) }, now);
      await process(spec, source, read);
      return respond(request, organizationId, specSlug, member);
    },
  );

  app.delete('/orgs/:organizationId/openapi/:specSlug', { schema: { params: OpenAPISpecParams } }, async (request, reply) => {
    const { organizationId, specSlug } = request.params;
    const { spec } = await loadSpec(request, organizationId, specSlug, 'openapi.manage');
    await deleteSpec(db, spec.id);
    return reply.status(205).send();
  });
};
