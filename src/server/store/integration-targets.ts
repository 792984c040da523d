import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { IntegrationTargetsTable } from './part2-tables.js';
import type { SortKey } from '../util/cursor.js';
import { afterKey } from './keyset.js';

export type TargetKind = 'space' | 'site';
export type TargetRow = IntegrationTargetsTable;

export async function insertTarget(
  db: Kysely<Database>,
  installationId: string,
  kind: TargetKind,
  targetId: string,
  now: string,
): Promise<TargetRow> {
  const row: TargetRow = {
    installation_id: installationId,
    kind,
    target_id: targetId,
    external_ids: '[]',
    configuration: '{}',
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('integration_targets').values(row).execute();
  return row;
}

export function findTarget(db: Kysely<Database>, installationId: string, kind: TargetKind, targetId: string) {
  return db
    .selectFrom('integration_targets')
    .selectAll()
    .where('installation_id', '=', installationId)
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
}

/** Targets of one installation (or of every installation of `integration`), by creation then id. */
export function listTargets(
  db: Kysely<Database>,
  of: { installationId: string } | { integration: string },
  kind: TargetKind,
  after: SortKey | undefined,
  n: number,
): Promise<TargetRow[]> {
  let query = db
    .selectFrom('integration_targets')
    .innerJoin('integration_installations', 'integration_installations.id', 'integration_targets.installation_id')
    .selectAll('integration_targets')
    .where('integration_targets.kind', '=', kind);
  query =
    'installationId' in of
      ? query.where('integration_targets.installation_id', '=', of.installationId)
      : query.where('integration_installations.integration', '=', of.integration);
  if (after) query = query.where((eb) => afterKey(eb, 'integration_targets.created_at', 'integration_targets.target_id', after));
  return query.orderBy('integration_targets.created_at').orderBy('integration_targets.target_id').limit(n).execute();
}

/** The installations installed on this space or site. */
export function installationsOnTarget(db: Kysely<Database>, kind: TargetKind, targetId: string): Promise<string[]> {
  return db
    .selectFrom('integration_targets')
    .select('installation_id')
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .execute()
    .then((rows) => rows.map((r) => r.installation_id));
}

export async function countTargets(db: Kysely<Database>, installationId: string, kind: TargetKind): Promise<number> {
  const row = await db
    .selectFrom('integration_targets')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('installation_id', '=', installationId)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateTarget(
  db: Kysely<Database>,
  row: TargetRow,
  change: { external_ids?: string; configuration?: string },
  now: string,
): Promise<TargetRow> {
  const next = { ...row, ...change, updated_at: now };
  await db
    .updateTable('integration_targets')
    .set({ external_ids: next.external_ids, configuration: next.configuration, updated_at: now })
    .where('installation_id', '=', row.installation_id)
    .where('kind', '=', row.kind)
    .where('target_id', '=', row.target_id)
    .execute();
  return next;
}

export async function deleteTarget(db: Kysely<Database>, row: TargetRow): Promise<void> {
  await db
    .deleteFrom('integration_targets')
    .where('installation_id', '=', row.installation_id)
    .where('kind', '=', row.kind)
    .where('target_id', '=', row.target_id)
    .execute();
}

/** Installations of an organization, by creation then id. */
export function installationsOfOrg(db: Kysely<Database>, orgId: string, after: SortKey | undefined, n: number) {
  let query = db.selectFrom('integration_installations').selectAll().where('org_id', '=', orgId);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

/** Installations of an organization that reach every space (site) of it. */
export function installationsOnAll(db: Kysely<Database>, orgId: string, kind: TargetKind) {
  return db
    .selectFrom('integration_installations')
    .select('id')
    .where('org_id', '=', orgId)
    .where(kind === 'space' ? 'space_selection' : 'site_selection', '=', 'all')
    .execute()
    .then((rows) => rows.map((r) => r.id));
}

/** Space (site) installations in an organization, optionally on one target; by creation, then installation and target. */
export function targetsOfOrg(
  db: Kysely<Database>,
  orgId: string,
  kind: TargetKind,
  targetId: string | undefined,
  after: SortKey | undefined,
  n: number,
) {
  let query = db
    .selectFrom('integration_targets')
    .innerJoin('integration_installations', 'integration_installations.id', 'integration_targets.installation_id')
    .select([
      'integration_targets.installation_id',
      'integration_targets.target_id',
      'integration_targets.created_at',
      'integration_installations.integration',
    ])
    .where('integration_installations.org_id', '=', orgId)
    .where('integration_targets.kind', '=', kind);
  if (targetId !== undefined) query = query.where('integration_targets.target_id', '=', targetId);
  if (after) {
    // The cursor's second part is `installation/target`: one space holds several installations.
    const [at, rest] = after;
    const [installation, target] = rest.split('/') as [string, string | undefined];
    query = query.where((eb) =>
      eb.or([
        eb('integration_targets.created_at', '>', String(at)),
        eb.and([
          eb('integration_targets.created_at', '=', String(at)),
          eb.or([
            eb('integration_targets.installation_id', '>', installation),
            eb.and([eb('integration_targets.installation_id', '=', installation), eb('integration_targets.target_id', '>', target ?? '')]),
          ]),
        ]),
      ]),
    );
  }
  return query
    .orderBy('integration_targets.created_at')
    .orderBy('integration_targets.installation_id')
    .orderBy('integration_targets.target_id')
    .limit(n)
    .execute();
}
