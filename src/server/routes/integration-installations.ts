import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  InstallIntegration,
  InstallationListQuery,
  InstallationParams,
  IntegrationInstallation,
  IntegrationParams,
  ListOf,
  conflict,
  isRole,
  roleAtLeast,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import {
  deleteInstallation,
  findInstallation,
  findInstallationOf,
  findIntegration,
  insertInstallation,
  listInstallations,
  type InstallationRow,
} from '../store/integrations.js';
import { loadVisible, organizationByRef } from '../integrations/access.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { apiUrl, appUrl, baseUrl } from '../urls.js';
import { integrationUrls } from '../views/integration.js';

function installationView(row: InstallationRow, base: string): Static<typeof IntegrationInstallation> {
  const location = apiUrl(base, `/integrations/${row.integration}/installations/${row.id}`);
  const script = integrationUrls(row.integration, base).script;
  return {
    object: 'integration-installation',
    id: row.id,
    integration: row.integration,
    status: 'active',
    space_selection: 'selected',
    site_selection: 'selected',
    spaces: 0,
    sites: 0,
    configuration: JSON.parse(row.configuration) as Record<string, unknown>,
    externalIds: JSON.parse(row.external_ids) as string[],
    target: { organization: row.org_id },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    urls: {
      location,
      app: appUrl(base, `/orgs/${row.org_id}/integrations/${row.integration}`),
      publicEndpoint: script,
      publicContentEndpoint: script,
    },
  };
}

/** Installations of an integration in organizations: install, list (its publishers), read, uninstall. */
export const integrationInstallationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  /** Admins of the publishing organization, or of the organization it is installed in. */
  async function mayManage(request: FastifyRequest, ownerOrg: string, installedOrg: string): Promise<boolean> {
    for (const org of [ownerOrg, installedOrg]) {
      const m = await memberRole(db, org, request.caller.id);
      if (m && roleAtLeast(isRole(m.role) ? m.role : null, 'admin')) return true;
    }
    return false;
  }

  app.post(
    '/integrations/:integrationName/installations',
    { schema: { params: IntegrationParams, body: InstallIntegration, response: { 201: IntegrationInstallation } } },
    async (request, reply) => {
      const { integrationName } = request.params;
      const integration = await loadVisible(db, await findIntegration(db, integrationName), integrationName, request.caller.id);
      const org = await organizationByRef(db, request.body.organization, 'body.organization');
      requireOrgRole(await memberRole(db, org.id, request.caller.id), 'integration.install', org.id);
      if (integration.visibility === 'private' && integration.owner_org !== org.id) {
        throw new DocsyncError(
          'forbidden',
          `integration ${integrationName} is private to its organization and cannot be installed in ${org.id}`,
        );
      }
      if (await findInstallationOf(db, integrationName, org.id))
        throw conflict(`integration ${integrationName} is already installed in organization ${org.id}`);
      const row = await insertInstallation(db, integrationName, org.id, clock.now().toISOString());
      const view = installationView(row, baseUrl(request));
      void reply.status(201).header('location', view.urls.location);
      return view;
    },
  );

  app.get(
    '/integrations/:integrationName/installations',
    { schema: { params: IntegrationParams, querystring: InstallationListQuery, response: { 200: ListOf(IntegrationInstallation) } } },
    async (request) => {
      const { integrationName } = request.params;
      const integration = await loadVisible(db, await findIntegration(db, integrationName), integrationName, request.caller.id);
      requireOrgRole(await memberRole(db, integration.owner_org, request.caller.id), 'integration.publish', integration.owner_org);
      const { externalId } = request.query;
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listInstallations(db, integrationName, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) =>
          externalId === undefined || (JSON.parse(row.external_ids) as string[]).includes(externalId)
            ? installationView(row, base)
            : undefined,
      });
    },
  );

  async function load(request: FastifyRequest, name: string, id: string): Promise<InstallationRow> {
    const integration = await loadVisible(db, await findIntegration(db, name), name, request.caller.id);
    const row = await findInstallation(db, name, id);
    if (!row || !(await mayManage(request, integration.owner_org, row.org_id)))
      throw new DocsyncError('not_found', `installation ${id} of integration ${name} not found`);
    return row;
  }

  app.get(
    '/integrations/:integrationName/installations/:installationId',
    { schema: { params: InstallationParams, response: { 200: IntegrationInstallation } } },
    async (request) =>
      installationView(await load(request, request.params.integrationName, request.params.installationId), baseUrl(request)),
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId',
    { schema: { params: InstallationParams } },
    async (request, reply) => {
      const row = await load(request, request.params.integrationName, request.params.installationId);
      await deleteInstallation(db, row.id);
      return reply.status(205).send();
    },
  );
};
