import { createLinkInvite, findOrganization } from '../../server/index.js';
import { ExitError } from '../exit.js';
import { printResult } from '../output.js';
import { withStore, type AdminOptions } from './admin-store.js';
import { parseMemberRole } from './admin-member.js';

export interface AdminInviteCreateOptions extends AdminOptions {
  org: string;
  role: string;
}

/**
 * `docsync admin invite create`: an invite link to an organization whose `inviteLinks` is on;
 * whoever holds a token joins with `POST /v1/orgs/{org}/invites/{id}`.
 */
export async function adminInviteCreate(options: AdminInviteCreateOptions): Promise<void> {
  const role = parseMemberRole(options.role);
  const invite = await withStore(options, async (db, now) => {
    const org = await findOrganization(db, options.org);
    if (!org) throw new ExitError(`--org: no organization with id ${options.org}`);
    if (org.invite_links !== 1) {
      throw new ExitError(
        `--org: organization ${org.id} has invite links turned off; turn them on with PATCH /v1/orgs/${org.id} {"inviteLinks": true}`,
      );
    }
    return createLinkInvite(db, { orgId: org.id, role, createdBy: null }, now);
  });
  const joinPath = `/v1/orgs/${invite.org_id}/invites/${invite.id}`;
  printResult(
    options,
    `created invite link ${invite.id} to organization ${invite.org_id} as ${role ?? 'guest'}; join with POST ${joinPath}`,
    {
      id: invite.id,
      orgId: invite.org_id,
      role: role ?? 'guest',
      joinPath,
      createdAt: invite.created_at,
    },
  );
}
