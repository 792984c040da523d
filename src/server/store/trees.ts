import type { Kysely } from 'kysely';
import type { ContentTree } from '../../model/index.js';
import type { Database } from './schema.js';
import { getBlob, putBlob } from './blobs.js';

// Trees are immutable and addressed by their hash, so a cache can never serve a stale one and
// every server process may keep its own.
const CACHE_SIZE = 64;
const cache = new Map<string, ContentTree>();

function remember(sha: string, tree: ContentTree): void {
  cache.delete(sha);
  cache.set(sha, tree);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/** Objects with their keys sorted, so equal trees serialise (and hash) equally. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Stores a tree as canonical JSON (one serialisation per tree) and returns its sha256. */
export async function saveTree(db: Kysely<Database>, tree: ContentTree): Promise<string> {
  const sha = await putBlob(db, JSON.stringify(tree, sortedKeys));
  remember(sha, tree);
  return sha;
}

/** The tree of a revision. Shared with other readers through the cache: never mutate it. */
export async function loadTree(db: Kysely<Database>, sha: string): Promise<ContentTree> {
  const cached = cache.get(sha);
  if (cached) {
    remember(sha, cached);
    return cached;
  }
  const bytes = await getBlob(db, sha);
  if (!bytes) throw new Error(`tree ${sha} is missing from the blob store`);
  const tree = JSON.parse(bytes.toString('utf8')) as ContentTree;
  remember(sha, tree);
  return tree;
}
