import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  InstallOnSite,
  InstallOnSpace,
  InstallationParams,
  InstallationSiteParams,
  InstallationSpaceParams,
  IntegrationParams,
  IntegrationSiteInstallation,
  IntegrationSpaceInstallation,
  IntegrationTargetListQuery,
  ExtendedQuery,
  ListOf,
  TargetListQuery,
  UpdateIntegrationTargetInstallation,
  badRequest,
  conflict,
  isRole,
  type Site,
  type Space,
} from '../../model/index.js';
import { contentRole, memberRole, requireOrgRole } from '../auth/access.js';
import { loadInstallation } from '../integrations/installation-access.js';
import { loadVisible } from '../integrations/access.js';
import { findInstallationById, findIntegration, type InstallationRow, type IntegrationRow } from '../store/integrations.js';
import {
  deleteTarget,
  findTarget,
  insertTarget,
  listTargets,
  updateTarget,
  type TargetKind,
  type TargetRow,
} from '../store/integration-targets.js';
import { findSpace } from '../store/spaces.js';
import { countSiteSpaces, findSite } from '../store/sites.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';
import { spaceView } from '../views/space.js';
import { siteView } from '../views/site.js';
import { siteInstallationView, spaceInstallationView } from '../views/integration-installation.js';

/**
 * An installation's spaces and sites (the published installIntegrationOnSpace, ...OnSite and their
 * list, get, update and uninstall), and an integration's space and site installations across
 * organizations for its publisher.
 */
export const integrationTargetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  /** The space or site, when it exists in the installation's organization (deleted spaces do not). */
  async function resolve(kind: TargetKind, id: string, orgId: string, callerId: string, base: string): Promise<Space | Site | undefined> {
    if (kind === 'space') {
      const space = await findSpace(db, id);
      if (!space || space.org_id !== orgId) return undefined;
      return spaceView(space, await contentRole(db, callerId, space), base);
    }
    const site = await findSite(db, id);
    if (!site || site.org_id !== orgId) return undefined;
    const m = await memberRole(db, orgId, callerId);
    return siteView(site, m && isRole(m.role) ? m.role : null, await countSiteSpaces(db, id), base);
  }

  async function targetView(request: FastifyRequest, installation: InstallationRow, row: TargetRow, extended: boolean) {
    const base = baseUrl(request);
    const full = extended ? await resolve(row.kind as TargetKind, row.target_id, installation.org_id, request.caller.id, base) : undefined;
    if (extended && full === undefined) return undefined;
    return row.kind === 'space'
      ? spaceInstallationView(installation, row, full as Space | undefined, base)
      : siteInstallationView(installation, row, full as Site | undefined, base);
  }

  async function loadTarget(request: FastifyRequest, kind: TargetKind, mode: 'read' | 'manage') {
    const p = request.params as { integrationName: string; installationId: string; spaceId?: string; siteId?: string };
    const { installation } = await loadInstallation(db, p.integrationName, p.installationId, request.caller.id, mode);
    const id = (kind === 'space' ? p.spaceId : p.siteId)!;
    const row = await findTarget(db, installation.id, kind, id);
    if (!row)
      throw new DocsyncError(
        'not_found',
        `integration ${p.integrationName} is not installed on ${kind} ${id} by installation ${installation.id}`,
      );
    return { installation, row };
  }

  const accepts = (integration: IntegrationRow, kind: TargetKind) => integration.target === 'all' || integration.target === kind;

  for (const kind of ['space', 'site'] as const) {
    const plural = `${kind}s`;
    const View = kind === 'space' ? IntegrationSpaceInstallation : IntegrationSiteInstallation;
    const TargetParams = kind === 'space' ? InstallationSpaceParams : InstallationSiteParams;
    const param = kind === 'space' ? 'spaceId' : 'siteId';
    const field = kind === 'space' ? 'space' : 'siteId';

    app.get(
      `/integrations/:integrationName/installations/:installationId/${plural}`,
      { schema: { params: InstallationParams, querystring: TargetListQuery, response: { 200: ListOf(View) } } },
      async (request) => {
        const { integrationName, installationId } = request.params;
        const { installation } = await loadInstallation(db, integrationName, installationId, request.caller.id, 'read');
        const extended = request.query.extended === 'true';
        return collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => listTargets(db, { installationId: installation.id }, kind, after, n),
          key: (row) => [row.created_at, row.target_id],
          accept: (row) => targetView(request, installation, row, extended),
        });
      },
    );

    app.post(
      `/integrations/:integrationName/installations/:installationId/${plural}`,
      {
        schema: {
          params: InstallationParams,
          querystring: ExtendedQuery,
          body: kind === 'space' ? InstallOnSpace : InstallOnSite,
          response: { 201: View },
        },
      },
      async (request, reply) => {
        const { integrationName, installationId } = request.params;
        const { integration, installation } = await loadInstallation(db, integrationName, installationId, request.caller.id, 'manage');
        const body = request.body as { space?: string; siteId?: string };
        const targetId = (kind === 'space' ? body.space : body.siteId)!;
        if (!accepts(integration, kind))
          throw badRequest(`body.${field}: integration ${integrationName} targets ${integration.target}, not ${plural}`);
        const base = baseUrl(request);
        if (!(await resolve(kind, targetId, installation.org_id, request.caller.id, base)))
          throw badRequest(`body.${field}: ${kind} ${targetId} not found in organization ${installation.org_id}`);
        if (await findTarget(db, installation.id, kind, targetId))
          throw conflict(`integration ${integrationName} is already installed on ${kind} ${targetId}`);
        const row = await insertTarget(db, installation.id, kind, targetId, now());
        const made = (await targetView(request, installation, row, request.query.extended === 'true'))!;
        void reply.status(201).header('location', made.urls.location);
        return made;
      },
    );

    app.get(
      `/integrations/:integrationName/installations/:installationId/${plural}/:${param}`,
      { schema: { params: TargetParams, querystring: ExtendedQuery, response: { 200: View } } },
      async (request) => {
        const { installation, row } = await loadTarget(request, kind, 'read');
        const found = await targetView(request, installation, row, request.query.extended === 'true');
        if (!found) throw new DocsyncError('not_found', `${kind} ${row.target_id} not found`);
        return found;
      },
    );

    app.patch(
      `/integrations/:integrationName/installations/:installationId/${plural}/:${param}`,
      { schema: { params: TargetParams, querystring: ExtendedQuery, body: UpdateIntegrationTargetInstallation, response: { 200: View } } },
      async (request) => {
        const { installation, row } = await loadTarget(request, kind, 'manage');
        const b = request.body;
        const next = await updateTarget(
          db,
          row,
          {
            ...(b.externalIds !== undefined ? { external_ids: JSON.stringify(b.externalIds) } : {}),
            ...(b.configuration !== undefined ? { configuration: JSON.stringify(b.configuration) } : {}),
          },
          now(),
        );
        const found = await targetView(request, installation, next, request.query.extended === 'true');
        if (!found) throw new DocsyncError('not_found', `${kind} ${row.target_id} not found`);
        return found;
      },
    );

    app.delete(
      `/integrations/:integrationName/installations/:installationId/${plural}/:${param}`,
      { schema: { params: TargetParams } },
      async (request, reply) => {
        const { row } = await loadTarget(request, kind, 'manage');
        await deleteTarget(db, row);
        return reply.status(205).send();
      },
    );

    // Every installation of the integration on spaces (sites), for its publisher's admins.
    app.get(
      `/integrations/:integrationName/${plural}`,
      { schema: { params: IntegrationParams, querystring: IntegrationTargetListQuery, response: { 200: ListOf(View) } } },
      async (request) => {
        const { integrationName } = request.params;
        const integration = await loadVisible(db, await findIntegration(db, integrationName), integrationName, request.caller.id);
        requireOrgRole(await memberRole(db, integration.owner_org, request.caller.id), 'integration.publish', integration.owner_org);
        const { externalId } = request.query;
        const extended = request.query.extended === 'true';
        const installations = new Map<string, Promise<InstallationRow | undefined>>();
        return collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => listTargets(db, { integration: integrationName }, kind, after, n),
          key: (row) => [row.created_at, row.target_id],
          accept: async (row) => {
            if (externalId !== undefined && !(JSON.parse(row.external_ids) as string[]).includes(externalId)) return undefined;
            let installation = installations.get(row.installation_id);
            if (!installation) installations.set(row.installation_id, (installation = findInstallationById(db, row.installation_id)));
            const found = await installation;
            return found ? targetView(request, found, row, extended) : undefined;
          },
        });
      },
    );
  }
};
