import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  badRequest,
  scriptUrlProblem,
  Id,
  ListOf,
  ListQuery,
  Organization,
  UpdateOrganization,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import {
  findOrganization,
  hostnameTaken,
  listOrganizationsByEmailDomain,
  listOrganizationsOfUser,
  updateOrganization,
  type OrganizationRow,
} from '../store/organizations.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { organizationView } from '../views/organization.js';
import { baseUrl } from '../urls.js';
import { findSite } from '../store/sites.js';

const OrgParams = Type.Object({ organizationId: Id });

export const organizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app.ctx;

  app.get('/orgs', { schema: { querystring: ListQuery, response: { 200: ListOf(Organization) } } }, async (request) => {
    const base = baseUrl(request);
    return collectPage({
      request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
      fetch: (after, n) => listOrganizationsOfUser(db, request.caller.id, after, n),
      key: (row) => [row.created_at, row.id],
      accept: (row) => organizationView(row, { role: row.member_role }, base),
    });
  });

  app.get('/orgs/:organizationId', { schema: { params: OrgParams, response: { 200: Organization } } }, async (request) => {
    const { organizationId } = request.params;
    const member = await memberRole(db, organizationId, request.caller.id);
    requireOrgRole(member, 'org.view', organizationId);
    const org = await findOrganization(db, organizationId);
    if (!org) throw new DocsyncError('not_found', `organization ${organizationId} not found`);
    return organizationView(org, member, baseUrl(request));
  });

  app.patch(
    '/orgs/:organizationId',
    { schema: { params: OrgParams, body: UpdateOrganization, response: { 200: Organization } } },
    async (request) => {
      const { organizationId } = request.params;
      const member = await memberRole(db, organizationId, request.caller.id);
      if (!member) throw new DocsyncError('not_found', `organization ${organizationId} not found`);
      requireOrgRole(member, 'org.update', organizationId);
      const body = request.body;
      if (body.hostname !== undefined && (await hostnameTaken(db, body.hostname, organizationId))) {
        throw new DocsyncError('conflict', `body.hostname "${body.hostname}" is already used by another organization`);
      }
      const changes: Partial<OrganizationRow> = {};
      if (body.title !== undefined) changes.title = body.title;
      if (body.emailDomains !== undefined)
        changes.email_domains = JSON.stringify([...new Set(body.emailDomains.map((d) => d.toLowerCase()))]);
      if (body.hostname !== undefined) changes.hostname = body.hostname;
      if (body.defaultRole !== undefined) changes.default_role = body.defaultRole;
      if (body.defaultContent) {
        // Only a site of this organization: another organization's id would be kept and shown
        // (the isolation test found it).
        const site = await findSite(db, body.defaultContent.site);
        if (!site || site.org_id !== organizationId)
          throw badRequest(`body.defaultContent.site: site ${body.defaultContent.site} not found in organization ${organizationId}`);
      }
      if (body.defaultContent !== undefined)
        changes.default_content = body.defaultContent === null ? null : JSON.stringify(body.defaultContent);
      if (body.logo !== undefined) {
        // A logo is an image shown in pages: only a web URL, never one a browser would run.
        if (body.logo !== null && !/^https?:\/\//i.test(body.logo))
          throw badRequest(
            `body.logo must be an http or https URL${scriptUrlProblem(body.logo) ? ` (${scriptUrlProblem(body.logo)})` : ''}`,
          );
        changes.logo = body.logo;
      }
      if (body.sso !== undefined) changes.sso = body.sso ? 1 : 0;
      if (body.ai !== undefined) changes.ai = body.ai ? 1 : 0;
      if (body.inviteLinks !== undefined) changes.invite_links = body.inviteLinks ? 1 : 0;
      await updateOrganization(db, organizationId, changes);
      const org = await findOrganization(db, organizationId);
      if (!org) throw new DocsyncError('not_found', `organization ${organizationId} not found`);
      return organizationView(org, member, baseUrl(request));
    },
  );

  app.get(
    '/email-domains/:emailDomain/orgs',
    {
      schema: {
        params: Type.Object({ emailDomain: Type.String({ minLength: 1, maxLength: 255, format: 'hostname' }) }),
        response: { 200: Type.Object({ organizations: Type.Array(Organization) }) },
      },
    },
    async (request) => {
      const domain = request.params.emailDomain.toLowerCase();
      const callerDomain = request.caller.email.split('@')[1]?.toLowerCase();
      const base = baseUrl(request);
      const organizations = [];
      for (const org of await listOrganizationsByEmailDomain(db, domain)) {
        const member = await memberRole(db, org.id, request.caller.id);
        // An organization shows up for its members and for people whose e-mail is on the domain
        // (who could join it); nobody else learns which organizations claim a domain.
        if (member || callerDomain === domain) organizations.push(organizationView(org, member, base));
      }
      return { organizations };
    },
  );
};
