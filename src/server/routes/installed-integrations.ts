import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  InstallationStatus,
  InstalledIntegration,
  InstalledIntegrationsQuery,
  Integration,
  IntegrationName,
  ListOf,
  OrganizationInstallation,
  SearchListQuery,
  SearchQuery,
} from '../../model/index.js';
import { contentRole, memberRole, requireOrgAdmin, requireRole } from '../auth/access.js';
import { administersAny, canSee } from '../integrations/access.js';
import { installationCounts } from '../integrations/installation-access.js';
import { findInstallationOf, findIntegration, type IntegrationRow } from '../store/integrations.js';
import { installationsOfOrg, installationsOnAll, installationsOnTarget, targetsOfOrg } from '../store/integration-targets.js';
import { findOrganization } from '../store/organizations.js';
import { findSpace } from '../store/spaces.js';
import { loadSite } from '../sites/access.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { baseUrl } from '../urls.js';
import { integrationView } from '../views/integration.js';
import { installationView } from '../views/integration-installation.js';

const OrgParams = Type.Object({ organizationId: Id });
const OrgIntegrationParams = Type.Object({ organizationId: Id, integrationName: IntegrationName });
const SpaceParams = Type.Object({ spaceId: Id });
const SiteParams = Type.Object({ organizationId: Id, siteId: Id });

/**
 * The organization, space and site sides of installations: what is installed where
 * (listSpaceIntegrations, listSiteIntegrations, listOrganizationInstallations, and the statuses).
 */
export const installedIntegrationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  /** An integration as the caller sees it, through one lookup per request for `canInstall`. */
  function viewer(request: FastifyRequest) {
    let canInstall: Promise<boolean> | undefined;
    const integrations = new Map<string, Promise<IntegrationRow | undefined>>();
    return async (name: string): Promise<Integration | undefined> => {
      let found = integrations.get(name);
      if (!found) integrations.set(name, (found = findIntegration(db, name)));
      const row = await found;
      if (!row || !(await canSee(db, row, request.caller.id, false))) return undefined;
      const owner = await findOrganization(db, row.owner_org);
      const ownerMember = await memberRole(db, row.owner_org, request.caller.id);
      canInstall ??= administersAny(db, request.caller.id);
      return integrationView(row, owner!, { ownerMember, canInstall: await canInstall }, baseUrl(request));
    };
  }

  /** The integrations installed on one space or site: its own installations and those of `all`. */
  async function installedOn(request: FastifyRequest, kind: 'space' | 'site', targetId: string, orgId: string, search: string | undefined) {
    const ids = new Set([...(await installationsOnTarget(db, kind, targetId)), ...(await installationsOnAll(db, orgId, kind))]);
    if (ids.size === 0) return { items: [], count: 0 };
    const names = await db
      .selectFrom('integration_installations')
      .select('integration')
      .where('id', 'in', [...ids])
      .execute();
    const view = viewer(request);
    const needle = search?.toLowerCase();
    const items: Integration[] = [];
    for (const name of [...new Set(names.map((n) => n.integration))].sort()) {
      const item = await view(name);
      if (!item) continue;
      if (needle !== undefined && !item.name.toLowerCase().includes(needle) && !item.title.toLowerCase().includes(needle)) continue;
      items.push(item);
    }
    return { items, count: items.length };
  }

  app.get(
    '/spaces/:spaceId/integrations',
    { schema: { params: SpaceParams, querystring: SearchQuery, response: { 200: ListOf(Integration) } } },
    async (request) => {
      const { spaceId } = request.params;
      const space = await findSpace(db, spaceId);
      if (!space) throw new DocsyncError('not_found', `space ${spaceId} not found`);
      requireRole(await contentRole(db, request.caller.id, space), 'space.view', `space ${spaceId}`);
      return installedOn(request, 'space', spaceId, space.org_id, request.query.search);
    },
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/integrations',
    { schema: { params: SiteParams, querystring: SearchQuery, response: { 200: ListOf(Integration) } } },
    async (request) => {
      const { organizationId, siteId } = request.params;
      await loadSite(db, organizationId, siteId, request.caller.id, 'site.view');
      return installedOn(request, 'site', siteId, organizationId, request.query.search);
    },
  );

  // Installations carry their configuration: organization admins only, as reading one does.
  app.get(
    '/orgs/:organizationId/installations',
    { schema: { params: OrgParams, querystring: SearchListQuery, response: { 200: ListOf(OrganizationInstallation) } } },
    async (request) => {
      const { organizationId } = request.params;
      requireOrgAdmin(await memberRole(db, organizationId, request.caller.id), organizationId);
      const view = viewer(request);
      const needle = request.query.search?.toLowerCase();
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => installationsOfOrg(db, organizationId, after, n),
        key: (row) => [row.created_at, row.id],
        accept: async (row) => {
          const integration = await view(row.integration);
          if (!integration) return undefined;
          if (needle !== undefined && !integration.name.toLowerCase().includes(needle) && !integration.title.toLowerCase().includes(needle))
            return undefined;
          return { installation: installationView(row, await installationCounts(db, row), base), integration };
        },
      });
    },
  );

  const requireMember = async (request: FastifyRequest, orgId: string) => {
    if (!(await memberRole(db, orgId, request.caller.id))) throw new DocsyncError('not_found', `organization ${orgId} not found`);
  };

  app.get(
    '/orgs/:organizationId/integrations/:integrationName/installation_status',
    { schema: { params: OrgIntegrationParams, response: { 200: InstallationStatus } } },
    async (request) => {
      const { organizationId, integrationName } = request.params;
      await requireMember(request, organizationId);
      if (!(await findInstallationOf(db, integrationName, organizationId)) || !(await viewer(request)(integrationName)))
        throw new DocsyncError('not_found', `integration ${integrationName} is not installed in organization ${organizationId}`);
      return { status: 'active' as const };
    },
  );

  app.get(
    '/orgs/:organizationId/integrations/installations-status',
    { schema: { params: OrgParams, querystring: InstalledIntegrationsQuery, response: { 200: ListOf(InstalledIntegration) } } },
    async (request) => {
      const { organizationId } = request.params;
      await requireMember(request, organizationId);
      const q = request.query;
      const target = q.target ?? 'organization';
      const view = viewer(request);
      const page = pageRequest(q, DEFAULT_LIST_LIMIT);
      if (target === 'organization') {
        return collectPage({
          request: page,
          fetch: (after, n) => installationsOfOrg(db, organizationId, after, n),
          key: (row) => [row.created_at, row.id],
          accept: async (row) => {
            const integration = await view(row.integration);
            return integration && { status: 'active' as const, integration, target: { type: 'organization' as const, organizationId } };
          },
        });
      }
      return collectPage({
        request: page,
        fetch: (after, n) => targetsOfOrg(db, organizationId, target, target === 'space' ? q.space : q.site, after, n),
        key: (row) => [row.created_at, `${row.installation_id}/${row.target_id}`],
        accept: async (row) => {
          const integration = await view(row.integration);
          if (!integration) return undefined;
          return {
            status: 'active' as const,
            integration,
            target:
              target === 'space' ? { type: 'space' as const, spaceId: row.target_id } : { type: 'site' as const, siteId: row.target_id },
          };
        },
      });
    },
  );
};
