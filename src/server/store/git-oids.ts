import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { getBlobs } from './blobs.js';

/** Git's object id of a blob: sha1 of `blob <byte length>\0` followed by the bytes. */
export function gitBlobOid(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The object id of an empty file, for document pages with no stored document. */
export const EMPTY_GIT_OID = gitBlobOid(new Uint8Array());

// A blob's sha256 fixes its bytes and so its git oid: the mapping never goes stale and each
// process may keep its own.
const CACHE_SIZE = 20_000;
const cache = new Map<string, string>();

function remember(sha: string, oid: string): void {
  cache.set(sha, oid);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/**
 * Git oids of stored blobs by their sha256. `known` holds blobs the caller already loaded, so
 * their bytes are not read twice. A sha missing from the store is missing from the answer.
 */
export async function gitOids(
  db: Kysely<Database>,
  shas: Iterable<string>,
  known: ReadonlyMap<string, Uint8Array> = new Map(),
): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  const missing: string[] = [];
  for (const sha of new Set(shas)) {
    const cached = cache.get(sha);
    const bytes = known.get(sha);
    if (cached !== undefined) result.set(sha, cached);
    else if (bytes !== undefined) result.set(sha, gitBlobOid(bytes));
    else missing.push(sha);
  }
  if (missing.length > 0) {
    for (const [sha, bytes] of await getBlobs(db, missing)) result.set(sha, gitBlobOid(bytes));
  }
  for (const [sha, oid] of result) remember(sha, oid);
  return result;
}
