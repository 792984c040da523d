import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

export function sha256(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Stores bytes once, keyed by their sha256; storing the same bytes again costs nothing. */
export async function putBlob(db: Kysely<Database>, data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  const sha = sha256(bytes);
  await db
    .insertInto('blobs')
    .values({ sha256: sha, size: bytes.length, data: bytes })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
  return sha;
}

export async function getBlob(db: Kysely<Database>, sha: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('blobs').select('data').where('sha256', '=', sha).executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}

/** Many blobs in few queries; the map holds the ones that exist. */
export async function getBlobs(db: Kysely<Database>, shas: Iterable<string>): Promise<Map<string, Buffer>> {
  const wanted = [...new Set(shas)];
  const found = new Map<string, Buffer>();
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('blobs')
      .select(['sha256', 'data'])
      .where('sha256', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const row of rows) found.set(row.sha256, Buffer.from(row.data));
  }
  return found;
}

export async function getText(db: Kysely<Database>, sha: string): Promise<string | undefined> {
  return (await getBlob(db, sha))?.toString('utf8');
}
