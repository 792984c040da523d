import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  CreateSAMLProvider,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  ListOf,
  ListQuery,
  SAMLProvider,
  SAMLProviderParams,
  SSOProviderLogin,
  UpdateSAMLProvider,
  badRequest,
  isRole,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import type { MemberRow } from '../store/organizations.js';
import {
  deleteSamlProvider,
  findSamlProvider,
  insertSamlProvider,
  listSamlProviders,
  updateSamlProvider,
  type SamlProviderFields,
  type SamlProviderRow,
} from '../store/saml-providers.js';
import { findTeam } from '../store/teams.js';
import { checkCertificate } from '../sso/certificate.js';
import { isActive, serviceUrls } from '../sso/service-urls.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { apiUrl, baseUrl } from '../urls.js';
import { teamViews } from './team-views.js';

const OrgParams = Type.Object({ organizationId: Id });

/** SAML providers of an organization (admins), and the sign-in choices (`/sso`, members). */
export const samlProviderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  async function view(row: SamlProviderRow, caller: MemberRow, base: string): Promise<SAMLProvider> {
    const team = row.default_team === null ? undefined : await findTeam(db, row.org_id, row.default_team);
    return {
      object: 'saml-provider',
      id: row.id,
      label: row.label,
      ...(row.sso_url !== null ? { ssoURL: row.sso_url } : {}),
      entityID: row.entity_id ?? '',
      certificate: row.certificate ?? '',
      ...(team ? { defaultTeam: (await teamViews(db, row.org_id, [team], caller))[0]! } : {}),
      defaultRole: isRole(row.default_role) ? row.default_role : null,
      createdAt: row.created_at,
      status: isActive(row) ? 'active' : 'pending',
      service: serviceUrls(row, base),
      urls: { location: apiUrl(base, `/orgs/${row.org_id}/saml/${row.id}`) },
    };
  }

  async function admin(request: FastifyRequest, orgId: string): Promise<MemberRow> {
    const member = await memberRole(db, orgId, request.caller.id);
    requireOrgRole(member, 'sso.manage', orgId);
    return member!;
  }
  async function load(orgId: string, id: string): Promise<SamlProviderRow> {
    const row = await findSamlProvider(db, orgId, id);
    if (!row) throw new DocsyncError('not_found', `SAML provider ${id} not found in organization ${orgId}`);
    return row;
  }

  /** The body's fields as columns, each checked; only the fields given. */
  async function fields(orgId: string, body: Partial<CreateSAMLProviderBody>): Promise<Partial<SamlProviderFields>> {
    const out: Partial<SamlProviderFields> = {};
    if (body.label !== undefined) out.label = body.label;
    if (body.entityID !== undefined) out.entity_id = body.entityID === '' ? null : body.entityID;
    if (body.certificate !== undefined)
      out.certificate = body.certificate === '' ? null : checkCertificate(body.certificate, 'body.certificate', clock.now());
    if (body.ssoURL !== undefined) {
      if (!/^https?:\/\//i.test(body.ssoURL)) throw badRequest('body.ssoURL must be an http or https URL');
      out.sso_url = body.ssoURL;
    }
    if (body.defaultTeam !== undefined) {
      if (!(await findTeam(db, orgId, body.defaultTeam)))
        throw badRequest(`body.defaultTeam: team ${body.defaultTeam} not found in organization ${orgId}`);
      out.default_team = body.defaultTeam;
    }
    if (body.defaultRole !== undefined) out.default_role = body.defaultRole;
    return out;
  }

  app.get(
    '/orgs/:organizationId/saml',
    { schema: { params: OrgParams, querystring: ListQuery, response: { 200: ListOf(SAMLProvider) } } },
    async (request) => {
      const { organizationId } = request.params;
      const caller = await admin(request, organizationId);
      const base = baseUrl(request);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listSamlProviders(db, organizationId, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => view(row, caller, base),
      });
    },
  );

  app.post(
    '/orgs/:organizationId/saml',
    { schema: { params: OrgParams, body: CreateSAMLProvider, response: { 201: SAMLProvider } } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const caller = await admin(request, organizationId);
      const given = await fields(organizationId, request.body);
      const row = await insertSamlProvider(
        db,
        organizationId,
        {
          label: request.body.label,
          entity_id: null,
          certificate: null,
          sso_url: null,
          default_team: null,
          default_role: 'read',
          ...given,
        },
        clock.now().toISOString(),
      );
      const body = await view(row, caller, baseUrl(request));
      void reply.status(201).header('location', body.urls.location);
      return body;
    },
  );

  app.get(
    '/orgs/:organizationId/saml/:samlProviderId',
    { schema: { params: SAMLProviderParams, response: { 200: SAMLProvider } } },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      const caller = await admin(request, organizationId);
      return view(await load(organizationId, samlProviderId), caller, baseUrl(request));
    },
  );

  app.patch(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: { params: SAMLProviderParams, body: UpdateSAMLProvider, response: { 200: SAMLProvider } },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const { organizationId, samlProviderId } = request.params;
      const caller = await admin(request, organizationId);
      await load(organizationId, samlProviderId);
      await updateSamlProvider(db, samlProviderId, await fields(organizationId, request.body));
      return view(await load(organizationId, samlProviderId), caller, baseUrl(request));
    },
  );

  app.delete('/orgs/:organizationId/saml/:samlProviderId', { schema: { params: SAMLProviderParams } }, async (request, reply) => {
    const { organizationId, samlProviderId } = request.params;
    await admin(request, organizationId);
    await load(organizationId, samlProviderId);
    await deleteSamlProvider(db, samlProviderId);
    return reply.status(204).send();
  });

  app.get(
    '/orgs/:organizationId/sso',
    { schema: { params: OrgParams, response: { 200: Type.Object({ items: Type.Array(SSOProviderLogin) }) } } },
    async (request) => {
      const { organizationId } = request.params;
      requireOrgRole(await memberRole(db, organizationId, request.caller.id), 'sso.view', organizationId);
      const base = baseUrl(request);
      const rows = await listSamlProviders(db, organizationId, undefined, 1000);
      return { items: rows.filter(isActive).map((row) => ({ id: row.id, label: row.label, startURL: serviceUrls(row, base).startURL })) };
    },
  );
};

type CreateSAMLProviderBody = typeof CreateSAMLProvider.static;
