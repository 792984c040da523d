import type { Kysely } from 'kysely';
import { DocsyncError, isRole, roleAtLeast } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import { memberRole } from '../auth/access.js';
import { findInstallation, findIntegration, type InstallationRow, type IntegrationRow } from '../store/integrations.js';
import { countTargets } from '../store/integration-targets.js';
import { loadVisible } from './access.js';

export async function isOrgAdmin(db: Kysely<Database>, orgId: string, userId: string): Promise<boolean> {
  const m = await memberRole(db, orgId, userId);
  return m !== undefined && roleAtLeast(isRole(m.role) ? m.role : null, 'admin');
}

/**
 * Who may do what with an installation (docs/api.md, "Integration installations"):
 * - `read`: admins of the publishing organization or of the installed one, and the installation's
 *   own token;
 * - `token`: admins of either organization (the publisher's backend acts for the installation);
 * - `manage` (its spaces, sites and settings): admins of the installed organization.
 * An installation the caller may not read is a 404; one it reads but may not manage, a 403.
 */
export async function loadInstallation(
  db: Kysely<Database>,
  name: string,
  id: string,
  callerId: string,
  mode: 'read' | 'token' | 'manage',
): Promise<{ integration: IntegrationRow; installation: InstallationRow }> {
  const integration = await loadVisible(db, await findIntegration(db, name), name, callerId);
  const installation = await findInstallation(db, name, id);
  const notFound = () => new DocsyncError('not_found', `installation ${id} of integration ${name} not found`);
  if (!installation) throw notFound();
  const installedAdmin = await isOrgAdmin(db, installation.org_id, callerId);
  const publisherAdmin = !installedAdmin && (await isOrgAdmin(db, integration.owner_org, callerId));
  const self = callerId === installation.id;
  if (!installedAdmin && !publisherAdmin && !self) throw notFound();
  const allowed = mode === 'read' || (mode === 'token' ? !self : installedAdmin);
  if (!allowed) {
    throw new DocsyncError(
      'forbidden',
      mode === 'token'
        ? 'an installation token cannot create installation tokens'
        : `this needs the admin role in organization ${installation.org_id}, where the integration is installed`,
    );
  }
  return { integration, installation };
}

/** What `spaces` and `sites` of an installation count: its targets, or the organization's when selected `all`. */
export async function installationCounts(db: Kysely<Database>, row: InstallationRow): Promise<{ spaces: number; sites: number }> {
  const count = async (kind: 'space' | 'site') => {
    if ((kind === 'space' ? row.space_selection : row.site_selection) !== 'all') return countTargets(db, row.id, kind);
    const found =
      kind === 'space'
        ? await db
            .selectFrom('spaces')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('org_id', '=', row.org_id)
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        : await db
            .selectFrom('sites')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('org_id', '=', row.org_id)
            .executeTakeFirstOrThrow();
    return Number(found.n);
  };
  return { spaces: await count('space'), sites: await count('site') };
}
