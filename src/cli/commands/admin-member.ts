import { isRole, ROLES, type Role } from '../../model/index.js';
import { findMember, findOrganization, upsertMember } from '../../server/index.js';
import { ExitError, EXIT } from '../exit.js';
import { printResult } from '../output.js';
import { parseEmail, requireUser, withStore, type AdminOptions } from './admin-store.js';

export interface AdminMemberAddOptions extends AdminOptions {
  org: string;
  email: string;
  role: string;
}

/** The roles `--role` accepts: the member roles, and `guest` for a member without one. */
export const MEMBER_ROLE_NAMES = [...ROLES, 'guest'] as const;

export function parseMemberRole(value: string): Role | null {
  if (value === 'guest') return null;
  if (isRole(value)) return value;
  throw new ExitError(`--role must be one of ${MEMBER_ROLE_NAMES.join(', ')}, got "${value}"`, EXIT.usage);
}

const roleName = (role: string | null): string => role ?? 'guest';

/** `docsync admin member add`: adds a user to an organization, or changes their role there. */
export async function adminMemberAdd(options: AdminMemberAddOptions): Promise<void> {
  const role = parseMemberRole(options.role);
  parseEmail(options.email, '--email');
  const result = await withStore(options, async (db, now) => {
    const org = await findOrganization(db, options.org);
    if (!org) throw new ExitError(`--org: no organization with id ${options.org}`);
    const user = await requireUser(db, options.email, '--email');
    const before = await findMember(db, org.id, user.id);
    await upsertMember(db, { orgId: org.id, userId: user.id, role }, now);
    return { org, user, previous: before ? roleName(before.role) : undefined };
  });
  const { org, user, previous } = result;
  const human =
    previous === undefined
      ? `added ${user.email} to organization ${org.id} as ${roleName(role)}`
      : `changed ${user.email} in organization ${org.id} from ${previous} to ${roleName(role)}`;
  printResult(options, human, {
    orgId: org.id,
    userId: user.id,
    email: user.email,
    role: roleName(role),
    created: previous === undefined,
    ...(previous !== undefined ? { previousRole: previous } : {}),
  });
}
