import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  Id,
  InviteLink,
  ListOf,
  ListQuery,
  MemberRoleOrGuest,
  conflict,
  isRole,
  roleAtLeast,
  type Role,
} from '../../model/index.js';
import { memberRole, requireOrgRole } from '../auth/access.js';
import { findMember, findOrganization, upsertMember, type MemberRow } from '../store/organizations.js';
import { createLinkInvite, deleteLinkInvite, findLinkInvite, listLinkInvites, type LinkInviteRow } from '../store/link-invites.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { apiUrl, baseUrl } from '../urls.js';

const OrgParams = Type.Object({ organizationId: Id });
const InviteParams = Type.Object({ organizationId: Id, inviteId: Id });
const CreateInvite = Type.Object({ role: MemberRoleOrGuest }, { additionalProperties: false });

/** An invite is redundant for a caller who is already a member with at least its role. */
function inviteView(row: LinkInviteRow, caller: MemberRow | undefined): InviteLink {
  const role = isRole(row.role) ? row.role : null;
  const callerRole = caller && isRole(caller.role) ? caller.role : null;
  return { object: 'invite', id: row.id, role, redundant: caller !== undefined && (role === null || roleAtLeast(callerRole, role)) };
}

/**
 * Invite links to an organization (docs/api.md, "Members"): admins make, list and delete them;
 * anyone with a token joins through one while the organization's `inviteLinks` is on.
 */
export const linkInviteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;

  async function admin(orgId: string, userId: string): Promise<MemberRow> {
    const member = await memberRole(db, orgId, userId);
    requireOrgRole(member, 'org.manageInvites', orgId);
    return member!;
  }

  app.get(
    '/orgs/:organizationId/link-invites',
    { schema: { params: OrgParams, querystring: ListQuery, response: { 200: ListOf(InviteLink) } } },
    async (request) => {
      const { organizationId } = request.params;
      const caller = await admin(organizationId, request.caller.id);
      return collectPage({
        request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
        fetch: (after, n) => listLinkInvites(db, organizationId, after, n),
        key: (row) => [row.created_at, row.id],
        accept: (row) => inviteView(row, caller),
      });
    },
  );

  app.post(
    '/orgs/:organizationId/link-invites',
    { schema: { params: OrgParams, body: CreateInvite, response: { 201: InviteLink } } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const caller = await admin(organizationId, request.caller.id);
      const org = await findOrganization(db, organizationId);
      if (org?.invite_links !== 1) {
        throw conflict(`organization ${organizationId} has invite links turned off: PATCH it with "inviteLinks": true first`);
      }
      const row = await createLinkInvite(
        db,
        { orgId: organizationId, role: request.body.role as Role | null, createdBy: request.caller.id },
        clock.now().toISOString(),
      );
      void reply.status(201).header('location', apiUrl(baseUrl(request), `/orgs/${organizationId}/link-invites/${row.id}`));
      return inviteView(row, caller);
    },
  );

  app.get(
    '/orgs/:organizationId/link-invites/:inviteId',
    { schema: { params: InviteParams, response: { 200: InviteLink } } },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const caller = await admin(organizationId, request.caller.id);
      const row = await findLinkInvite(db, organizationId, inviteId);
      if (!row) throw new DocsyncError('not_found', `invite link ${inviteId} not found in organization ${organizationId}`);
      return inviteView(row, caller);
    },
  );

  app.delete('/orgs/:organizationId/link-invites/:inviteId', { schema: { params: InviteParams } }, async (request, reply) => {
    const { organizationId, inviteId } = request.params;
    await admin(organizationId, request.caller.id);
    if (!(await deleteLinkInvite(db, organizationId, inviteId))) {
      throw new DocsyncError('not_found', `invite link ${inviteId} not found in organization ${organizationId}`);
    }
    return reply.status(205).send();
  });

  app.post(
    '/orgs/:organizationId/invites/:inviteId',
    { schema: { params: InviteParams, response: { 200: Type.Object({}) } } },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const org = await findOrganization(db, organizationId);
      const row = org?.invite_links === 1 ? await findLinkInvite(db, organizationId, inviteId) : undefined;
      // A stranger learns nothing about an organization whose links are off or unknown.
      if (!row) throw new DocsyncError('not_found', `invite ${inviteId} not found in organization ${organizationId}`);
      const existing = await findMember(db, organizationId, request.caller.id);
      if (!existing) {
        await upsertMember(
          db,
          { orgId: organizationId, userId: request.caller.id, role: isRole(row.role) ? row.role : null },
          clock.now().toISOString(),
        );
      }
      return {};
    },
  );
};
