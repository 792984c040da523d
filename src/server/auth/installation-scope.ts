import type { Kysely } from 'kysely';
import { highestRole } from './effective-role.js';
import type { Role } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { MemberRow } from '../store/organizations.js';

/**
 * What an integration installation's token may do (docs/api.md, "Installation tokens").
 *
 * A token from `POST /integrations/{name}/installations/{id}/tokens` belongs to the installation's
 * own user, whose id is the installation's id. That user is no member of any organization; the
 * two lookups every access decision goes through (`memberRole`, `roleResolver`) treat it as a
 * guest of the installation's organization (so organization-wide actions are refused and no
 * default level applies) with roles given on the installation's spaces only: the spaces it is
 * installed on, or every space of the organization when `space_selection` is `all`. The role
 * comes from the integration's scopes as published now (`scopeRole`), so a republish that drops
 * a scope takes it away from tokens already given. Nothing is stored per token but its hash and
 * expiry; uninstalling deletes the tokens.
 */

/** How long an installation token lives. */
export const INSTALLATION_TOKEN_TTL_MS = 60 * 60 * 1000;

/** The role an integration's scopes give on the spaces of its installation; null for none. */
export function scopeRole(scopes: readonly string[]): Role | null {
  const roles: Role[] = [];
  for (const scope of scopes) {
    if (scope === 'space:content:write' || scope === 'space:git:sync') roles.push('review');
    else if (scope === 'space:metadata:write') roles.push('edit');
    else if (scope === 'space:content:read' || scope === 'space:metadata:read') roles.push('read');
  }
  return highestRole(roles);
}

/** A membership as access decisions see it: an installation's carries the roles its scopes give. */
export type Membership = MemberRow & { installationGrants?: () => Promise<Map<string, Role[]>> };

interface InstallationPrincipal {
  id: string;
  org_id: string;
  space_selection: string;
  created_at: string;
  definition: string;
}

function principal(db: Kysely<Database>, orgId: string, userId: string): Promise<InstallationPrincipal | undefined> {
  return db
    .selectFrom('integration_installations')
    .innerJoin('integrations', 'integrations.name', 'integration_installations.integration')
    .select([
      'integration_installations.id',
      'integration_installations.org_id',
      'integration_installations.space_selection',
      'integration_installations.created_at',
      'integrations.definition',
    ])
    .where('integration_installations.id', '=', userId)
    .where('integration_installations.org_id', '=', orgId)
    .executeTakeFirst();
}

/**
 * The membership an installation's user has in `orgId`: a guest (role null) of the installation's
 * organization, nothing elsewhere or for any other user. Its grants ride along.
 */
export async function installationMember(db: Kysely<Database>, orgId: string, userId: string): Promise<Membership | undefined> {
  const found = await principal(db, orgId, userId);
  if (!found) return undefined;
  return {
    org_id: orgId,
    user_id: userId,
    role: null,
    joined_at: found.created_at,
    last_seen_at: null,
    disabled: 0,
    sso: 0,
    installationGrants: () => installationGrants(db, found),
  };
}

async function installationGrants(db: Kysely<Database>, found: InstallationPrincipal): Promise<Map<string, Role[]>> {
  const scopes = (JSON.parse(found.definition) as { scopes?: string[] }).scopes ?? [];
  const role = scopeRole(scopes);
  const grants = new Map<string, Role[]>();
  if (role === null) return grants;
  const ids =
    found.space_selection === 'all'
      ? await db.selectFrom('spaces').select('id').where('org_id', '=', found.org_id).execute()
      : await db
          .selectFrom('integration_targets')
          .select('target_id as id')
          .where('installation_id', '=', found.id)
          .where('kind', '=', 'space')
          .execute();
  for (const { id } of ids) grants.set(id, [role]);
  return grants;
}
