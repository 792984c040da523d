import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { TranslationSettingsTable } from './part2-tables.js';
import { afterKey } from './keyset.js';
import type { SortKey } from '../util/cursor.js';
import { newId } from '../util/ids.js';

export type TranslationRow = TranslationSettingsTable;

export async function insertTranslation(
  db: Kysely<Database>,
  input: { orgId: string; title: string; languages: readonly string[] },
  now: string,
): Promise<TranslationRow> {
  const row: TranslationRow = {
    id: newId(),
    org_id: input.orgId,
    title: input.title,
    languages: JSON.stringify(input.languages),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('translation_settings').values(row).execute();
  return row;
}

export function findTranslation(db: Kysely<Database>, orgId: string, id: string): Promise<TranslationRow | undefined> {
  return db.selectFrom('translation_settings').selectAll().where('org_id', '=', orgId).where('id', '=', id).executeTakeFirst();
}

export function listTranslations(db: Kysely<Database>, orgId: string, after: SortKey | undefined, n: number): Promise<TranslationRow[]> {
  let query = db.selectFrom('translation_settings').selectAll().where('org_id', '=', orgId);
  if (after) query = query.where((eb) => afterKey(eb, 'created_at', 'id', after));
  return query.orderBy('created_at').orderBy('id').limit(n).execute();
}

export async function updateTranslation(
  db: Kysely<Database>,
  id: string,
  set: { title: string; languages?: readonly string[] },
  now: string,
): Promise<void> {
  await db
    .updateTable('translation_settings')
    .set({ title: set.title, updated_at: now, ...(set.languages !== undefined ? { languages: JSON.stringify(set.languages) } : {}) })
    .where('id', '=', id)
    .execute();
}

export async function deleteTranslation(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('translation_settings').where('id', '=', id).execute();
}
