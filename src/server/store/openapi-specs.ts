import type { Kysely } from 'kysely';
import type { OpenAPIErrorCode, OpenAPIErrorObject, OpenAPIProcessingState } from '../../model/index.js';
import type { Database } from './schema.js';
import type { OpenApiSpecVersionsTable, OpenApiSpecsTable } from './part2-tables.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';
import { newId } from '../util/ids.js';
import { inTransaction } from './transaction.js';

export type OpenApiSpecRow = OpenApiSpecsTable;
export type OpenApiSpecVersionRow = OpenApiSpecVersionsTable;

export interface SpecSource {
  url: string | null;
  text: string | null;
}

export async function insertSpec(
  db: Kysely<Database>,
  input: { orgId: string; slug: string; source: SpecSource },
  now: string,
): Promise<OpenApiSpecRow> {
  const row: OpenApiSpecRow = {
    id: newId(),
    org_id: input.orgId,
    slug: input.slug,
    source_url: input.source.url,
    source_text: input.source.text,
    processing_state: 'pending',
    last_version: null,
    last_processed_at: null,
    last_error_code: null,
    last_errors: null,
    last_error_count: 0,
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('openapi_specs').values(row).execute();
  return row;
}

/** A new source: the spec goes back to `pending` until the job has processed it. */
export async function setSpecSource(db: Kysely<Database>, id: string, source: SpecSource, now: string): Promise<void> {
  await db
    .updateTable('openapi_specs')
    .set({ source_url: source.url, source_text: source.text, processing_state: 'pending', updated_at: now })
    .where('id', '=', id)
    .execute();
}

export function findSpec(db: Kysely<Database>, orgId: string, slug: string): Promise<OpenApiSpecRow | undefined> {
  return db.selectFrom('openapi_specs').selectAll().where('org_id', '=', orgId).where('slug', '=', slug).executeTakeFirst();
}

/** The organization's spec fetched from `url` (the first by slug when several are). */
export function findSpecBySourceUrl(db: Kysely<Database>, orgId: string, url: string): Promise<OpenApiSpecRow | undefined> {
  return db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('source_url', '=', url)
    .orderBy('slug')
    .executeTakeFirst();
}

export function findSpecById(db: Kysely<Database>, id: string): Promise<OpenApiSpecRow | undefined> {
  return db.selectFrom('openapi_specs').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listSpecs(db: Kysely<Database>, orgId: string, after: SortKey | undefined, n: number): Promise<OpenApiSpecRow[]> {
  let query = db.selectFrom('openapi_specs').selectAll().where('org_id', '=', orgId);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

export async function deleteSpec(db: Kysely<Database>, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom('openapi_spec_versions').where('spec_id', '=', id).execute();
    await trx.deleteFrom('openapi_specs').where('id', '=', id).execute();
  });
}

export async function setSpecState(db: Kysely<Database>, id: string, state: OpenAPIProcessingState): Promise<void> {
  await db.updateTable('openapi_specs').set({ processing_state: state }).where('id', '=', id).execute();
}

/** How a processing ended: a version (new or unchanged), or an error code with its errors. */
export type ProcessingOutcome =
  | { ok: true; version: Omit<OpenApiSpecVersionRow, 'id' | 'spec_id' | 'created_at'> }
  | { ok: false; code: OpenAPIErrorCode; errors: OpenAPIErrorObject[] };

/** The first errors kept on the spec; `lastProcessedErrorCount` says how many there were. */
export const KEPT_ERRORS = 20;

/**
 * Records a processing. A version is added only when its digest differs from the latest one's.
 * `expectedSource` guards against a PUT that changed the source while the job ran: that PUT
 * queued a job of its own, so this one's result is dropped.
 */
export async function recordProcessing(
  db: Kysely<Database>,
  specId: string,
  expected: { url: string | null; text: string | null },
  outcome: ProcessingOutcome,
  now: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const spec = await trx.selectFrom('openapi_specs').selectAll().where('id', '=', specId).executeTakeFirst();
    if (!spec || spec.source_url !== expected.url || spec.source_text !== expected.text) return;
    if (!outcome.ok) {
      await trx
        .updateTable('openapi_specs')
        .set({
          processing_state: 'complete',
          last_processed_at: now,
          last_error_code: outcome.code,
          last_errors: JSON.stringify(outcome.errors.slice(0, KEPT_ERRORS)),
          last_error_count: outcome.errors.length,
        })
        .where('id', '=', specId)
        .execute();
      return;
    }
    let lastVersion = spec.last_version;
    const latest =
      lastVersion === null
        ? undefined
        : await trx.selectFrom('openapi_spec_versions').select('digest').where('id', '=', lastVersion).executeTakeFirst();
    if (latest?.digest !== outcome.version.digest) {
      lastVersion = newId();
      await trx
        .insertInto('openapi_spec_versions')
        .values({ id: lastVersion, spec_id: specId, created_at: now, ...outcome.version })
        .execute();
    }
    await trx
      .updateTable('openapi_specs')
      .set({
        processing_state: 'complete',
        last_processed_at: now,
        last_version: lastVersion,
        last_error_code: null,
        last_errors: null,
        last_error_count: 0,
      })
      .where('id', '=', specId)
      .execute();
  });
}

export function listVersions(
  db: Kysely<Database>,
  specId: string,
  after: SortKey | undefined,
  n: number,
): Promise<OpenApiSpecVersionRow[]> {
  let query = db.selectFrom('openapi_spec_versions').selectAll().where('spec_id', '=', specId);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

export function findVersion(db: Kysely<Database>, specId: string, id: string): Promise<OpenApiSpecVersionRow | undefined> {
  return db.selectFrom('openapi_spec_versions').selectAll().where('spec_id', '=', specId).where('id', '=', id).executeTakeFirst();
}
