import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  APITemporaryToken,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  InstallIntegration,
  InstallationListQuery,
  InstallationParams,
  IntegrationInstallation,
  IntegrationParams,
  ListOf,
  UpdateIntegrationInstallation,
  conflict,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import {
  createInstallationToken,
  deleteInstallation,
  findInstallationOf,
  findIntegration,
  insertInstallation,
  listInstallations,
  updateInstallation,
  type InstallationRow,
} from '../store/integrations.js';
import { installationCounts, loadInstallation } from '../integrations/installation-access.js';
import { installationView } from '../views/integration-installation.js';
import { generateToken } from '../auth/tokens.js';
import { INSTALLATION_TOKEN_TTL_MS } from '../auth/installation-scope.js';
import { loadVisible, organizationByRef } from '../integrations/access.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';

/** Installations of an integration in organizations: install, list (its publishers), read, update, uninstall, tokens. */
export const integrationInstallationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  const now = () => clock.now().toISOString();
  const view = async (row: InstallationRow, base: string) => installationView(row, await installationCounts(db, row), base);

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
      const row = await insertInstallation(db, integrationName, org.id, now());
      const made = await view(row, baseUrl(request));
      void reply.status(201).header('location', made.urls.location);
      return made;
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
          externalId === undefined || (JSON.parse(row.external_ids) as string[]).includes(externalId) ? view(row, base) : undefined,
      });
    },
  );

  app.get(
    '/integrations/:integrationName/installations/:installationId',
    { schema: { params: InstallationParams, response: { 200: IntegrationInstallation } } },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const { installation } = await loadInstallation(db, integrationName, installationId, request.caller.id, 'read');
      return view(installation, baseUrl(request));
    },
  );

  app.patch(
    '/integrations/:integrationName/installations/:installationId',
    { schema: { params: InstallationParams, body: UpdateIntegrationInstallation, response: { 200: IntegrationInstallation } } },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const { installation } = await loadInstallation(db, integrationName, installationId, request.caller.id, 'manage');
      const b = request.body;
      const row = await updateInstallation(
        db,
        installation,
        {
          ...(b.externalIds !== undefined ? { external_ids: JSON.stringify(b.externalIds) } : {}),
          ...(b.configuration !== undefined ? { configuration: JSON.stringify(b.configuration) } : {}),
          ...(b.space_selection !== undefined ? { space_selection: b.space_selection } : {}),
          ...(b.site_selection !== undefined ? { site_selection: b.site_selection } : {}),
        },
        now(),
      );
      return view(row, baseUrl(request));
    },
  );

  app.delete(
    '/integrations/:integrationName/installations/:installationId',
    { schema: { params: InstallationParams } },
    async (request, reply) => {
      const { integrationName, installationId } = request.params;
      const { installation } = await loadInstallation(db, integrationName, installationId, request.caller.id, 'token');
      await deleteInstallation(db, installation.id, now());
      return reply.status(205).send();
    },
  );

  // A token acting as the installation (auth/installation-scope.ts): returned once, stored hashed.
  app.post(
    '/integrations/:integrationName/installations/:installationId/tokens',
    { schema: { params: InstallationParams, response: { 200: APITemporaryToken } } },
    async (request) => {
      const { integrationName, installationId } = request.params;
      const { integration, installation } = await loadInstallation(db, integrationName, installationId, request.caller.id, 'token');
      const token = generateToken();
      const issued = clock.now();
      const expires = new Date(issued.getTime() + INSTALLATION_TOKEN_TTL_MS).toISOString();
      await createInstallationToken(db, installation, integration.title, token, issued.toISOString(), expires);
      return { token };
    },
  );
};
