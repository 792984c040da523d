import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Integration,
  IntegrationListQuery,
  IntegrationParams,
  ListOf,
  PublishIntegration,
  conflict,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import { findOrganization } from '../store/organizations.js';
import { getBlob, putBlob } from '../store/blobs.js';
import { deleteIntegration, findIntegration, listIntegrations, saveIntegration, type IntegrationRow } from '../store/integrations.js';
import { administersAny, canSee, loadVisible, organizationByRef } from '../integrations/access.js';
import { decodeImage, imageType } from '../integrations/images.js';
import { encryptSecrets } from '../integrations/secrets.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';
import { definitionOf, integrationView, type IntegrationDefinition } from '../views/integration.js';

/**
 * Integrations: the catalogue, publishing and unpublishing. An integration's script is stored
 * and served (`urls.publicEndpoint`), never run by this server.
 */
export const integrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  async function view(request: FastifyRequest, row: IntegrationRow, canInstall?: boolean): Promise<Integration> {
    const owner = await findOrganization(db, row.owner_org);
    const ownerMember = await memberRole(db, row.owner_org, request.caller.id);
    return integrationView(
      row,
      owner!,
      { ownerMember, canInstall: canInstall ?? (await administersAny(db, request.caller.id)) },
      baseUrl(request),
    );
  }

  app.get('/integrations', { schema: { querystring: IntegrationListQuery, response: { 200: ListOf(Integration) } } }, async (request) => {
    const q = request.query;
    const needle = q.search?.toLowerCase();
    const domain = q.blockDomain?.toLowerCase();
    const canInstall = await administersAny(db, request.caller.id);
    const matches = (row: IntegrationRow): boolean => {
      const d = definitionOf(row);
      if (needle !== undefined && !row.name.toLowerCase().includes(needle) && !row.title.toLowerCase().includes(needle)) return false;
      if (q.category !== undefined && !d.categories.includes(q.category)) return false;
      if (q.scope !== undefined && !d.scopes.includes(q.scope)) return false;
      if (q.target !== undefined && row.target !== q.target && row.target !== 'all') return false;
      if (q.owner !== undefined && row.owner_org !== q.owner) return false;
      if (q.blocks !== undefined && d.blocks.length > 0 !== (q.blocks === 'true')) return false;
      if (q.contentSources !== undefined && d.contentSources.length > 0 !== (q.contentSources === 'true')) return false;
      if (domain !== undefined && !d.blocks.some((b) => (b.urlUnfurl ?? []).some((pattern) => unfurlHost(pattern) === domain)))
        return false;
      return true;
    };
    return collectPage({
      request: pageRequest(q, DEFAULT_LIST_LIMIT),
      fetch: (after, n) => listIntegrations(db, after, n),
      key: (row) => [row.name, row.name],
      accept: async (row) =>
        matches(row) && (await canSee(db, row, request.caller.id, true)) ? view(request, row, canInstall) : undefined,
    });
  });

  app.get('/integrations/:integrationName', { schema: { params: IntegrationParams, response: { 200: Integration } } }, async (request) => {
    const { integrationName } = request.params;
    return view(request, await loadVisible(db, await findIntegration(db, integrationName), integrationName, request.caller.id));
  });

  app.post(
    '/integrations/:integrationName',
    { schema: { params: IntegrationParams, body: PublishIntegration, response: { 200: Integration } } },
    async (request) => {
      const { integrationName } = request.params;
      const body = request.body;
      const org = await organizationByRef(db, body.organization, 'body.organization');
      requireOrgRole(await memberRole(db, org.id, request.caller.id), 'integration.publish', org.id);
      const existing = await findIntegration(db, integrationName);
      if (existing && existing.owner_org !== org.id) throw conflict(`integration name ${integrationName} is taken by another organization`);
      const icon = body.icon === undefined ? null : await putBlob(db, decodeImage(body.icon, 'body.icon'));
      const images: string[] = [];
      for (const [i, image] of (body.previewImages ?? []).entries())
        images.push(await putBlob(db, decodeImage(image, `body.previewImages.${i}`)));
      const definition: IntegrationDefinition = {
        runtime: body.runtime ?? 'v1',
        description: body.description,
        ...(body.summary !== undefined ? { summary: body.summary } : {}),
        scopes: body.scopes ?? [],
        categories: body.categories ?? [],
        blocks: body.blocks ?? [],
        contentSources: body.contentSources ?? [],
        configurations: body.configurations ?? {},
        externalLinks: body.externalLinks ?? [],
        ...(body.contentSecurityPolicy !== undefined ? { contentSecurityPolicy: body.contentSecurityPolicy } : {}),
      };
      await saveIntegration(
        db,
        {
          name: integrationName,
          owner_org: org.id,
          title: body.title,
          target: body.target ?? 'all',
          visibility: body.visibility ?? 'private',
          definition: JSON.stringify(definition),
          script: body.script,
          icon,
          preview_images: JSON.stringify(images),
          // Secrets left out of a republish are kept.
          secrets: body.secrets !== undefined ? await encryptSecrets(db, body.secrets) : (existing?.secrets ?? null),
          updated_at: clock.now().toISOString(),
        },
        clock.now().toISOString(),
      );
      return view(request, (await findIntegration(db, integrationName))!);
    },
  );

  app.delete('/integrations/:integrationName', { schema: { params: IntegrationParams } }, async (request, reply) => {
    const { integrationName } = request.params;
    const row = await loadVisible(db, await findIntegration(db, integrationName), integrationName, request.caller.id);
    requireOrgRole(await memberRole(db, row.owner_org, request.caller.id), 'integration.publish', row.owner_org);
    await deleteIntegration(db, integrationName, clock.now().toISOString());
    return reply.status(204).send();
  });

  app.get(
    '/integrations/:integrationName/assets/:asset',
    {
      schema: {
        params: Type.Object({
          integrationName: IntegrationParams.properties.integrationName,
          asset: Type.String({ pattern: '^(icon|preview-[0-2])$' }),
        }),
      },
    },
    async (request, reply) => {
      const { integrationName, asset } = request.params;
      const row = await loadVisible(db, await findIntegration(db, integrationName), integrationName, request.caller.id);
      const sha = asset === 'icon' ? row.icon : (JSON.parse(row.preview_images) as string[])[Number(asset.slice('preview-'.length))];
      const bytes = sha ? await getBlob(db, sha) : undefined;
      if (!bytes) throw new DocsyncError('not_found', `integration ${integrationName} has no ${asset}`);
      return reply
        .type(imageType(bytes))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes);
    },
  );

  app.get('/integrations/:integrationName/script', { schema: { params: IntegrationParams } }, async (request, reply) => {
    const { integrationName } = request.params;
    const row = await loadVisible(db, await findIntegration(db, integrationName), integrationName, request.caller.id);
    const d = definitionOf(row);
    void reply.header('x-content-type-options', 'nosniff').header('content-disposition', `attachment; filename="${row.name}.js"`);
    if (d.contentSecurityPolicy !== undefined) void reply.header('content-security-policy', d.contentSecurityPolicy);
    return reply.type('text/javascript; charset=utf-8').send(row.script);
  });
};

/** The host a `urlUnfurl` pattern names (`https://*.example.com/*` → `example.com`). */
function unfurlHost(pattern: string): string | undefined {
  const host = /^(?:[a-z]+:\/\/)?([^/?#]+)/i.exec(pattern)?.[1];
  return host?.replace(/^\*\./, '').toLowerCase();
}
