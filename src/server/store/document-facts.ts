import type { Kysely } from 'kysely';
import type { DocumentFacts } from '../../content/index.js';
import type { Database } from './schema.js';

/** Bumped when `documentFacts` changes what it derives: older rows are then derived again. */
export const FACTS_VERSION = 2;

export async function putFacts(db: Kysely<Database>, facts: Iterable<[string, DocumentFacts]>): Promise<void> {
  for (const [sha, value] of facts) {
    await db
      .insertInto('document_facts')
      .values({ sha256: sha, version: FACTS_VERSION, facts: JSON.stringify(value) })
      .onConflict((oc) => oc.column('sha256').doUpdateSet({ version: FACTS_VERSION, facts: JSON.stringify(value) }))
      .execute();
  }
}

// Facts never change for a sha, so each process keeps the most recently read ones parsed: a
// link listing of a large space reads every page's facts, again and again.
const CACHE_SIZE = 5_000;
const cache = new Map<string, DocumentFacts>();

function remember(sha: string, facts: DocumentFacts): void {
  cache.delete(sha);
  cache.set(sha, facts);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/** The stored facts of the current version among `shas`. */
export async function getFacts(db: Kysely<Database>, shas: Iterable<string>): Promise<Map<string, DocumentFacts>> {
  const found = new Map<string, DocumentFacts>();
  const wanted: string[] = [];
  for (const sha of new Set(shas)) {
    const cached = cache.get(sha);
    if (cached) found.set(sha, cached);
    else wanted.push(sha);
  }
  // In chunks: each is one query and one round of JSON parsing, and the event loop turns between them.
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('document_facts')
      .select(['sha256', 'facts'])
      .where('sha256', 'in', wanted.slice(i, i + 500))
      .where('version', '=', FACTS_VERSION)
      .execute();
    for (const row of rows) {
      const facts = JSON.parse(row.facts) as DocumentFacts;
      found.set(row.sha256, facts);
      remember(row.sha256, facts);
    }
  }
  return found;
}
