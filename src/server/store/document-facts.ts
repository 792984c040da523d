import type { Kysely } from 'kysely';
import type { DocumentFacts } from '../../content/index.js';
import type { Database } from './schema.js';

/** Bumped when `documentFacts` changes what it derives: older rows are then derived again. */
export const FACTS_VERSION = 1;

export async function putFacts(db: Kysely<Database>, facts: Iterable<[string, DocumentFacts]>): Promise<void> {
  for (const [sha, value] of facts) {
    await db
      .insertInto('document_facts')
      .values({ sha256: sha, version: FACTS_VERSION, facts: JSON.stringify(value) })
      .onConflict((oc) => oc.column('sha256').doUpdateSet({ version: FACTS_VERSION, facts: JSON.stringify(value) }))
      .execute();
  }
}

/** The stored facts of the current version among `shas`. */
export async function getFacts(db: Kysely<Database>, shas: Iterable<string>): Promise<Map<string, DocumentFacts>> {
  const wanted = [...new Set(shas)];
  const found = new Map<string, DocumentFacts>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db.selectFrom('document_facts').select(['sha256', 'facts']).where('sha256', 'in', wanted.slice(i, i + 500)).where('version', '=', FACTS_VERSION).execute();
    for (const row of rows) found.set(row.sha256, JSON.parse(row.facts) as DocumentFacts);
  }
  return found;
}
