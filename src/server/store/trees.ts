import type { Kysely } from 'kysely';
import type { ContentTree, TreePage } from '../../model/index.js';
import type { Database } from './schema.js';
import { getBlob, getBlobs, putBlob, sha256 } from './blobs.js';

/**
 * Trees are stored like git trees: every page is a node blob holding its own fields and the
 * ids (sha256) of its children's node blobs; the root blob lists the top-level nodes and
 * points at the files, variables and reusable contents. A one-page edit therefore stores the
 * page's node and the nodes on its path to the root, not the whole tree.
 *
 * Invariants:
 * - blobs are content-addressed and written children first, so a stored node implies that all
 *   nodes below it are stored too;
 * - loaded trees are shared (cache, and `stored` below): callers never mutate them. The content
 *   layer's tree operations copy on write, so untouched subtrees keep their identity and are
 *   recognised as already stored when the tree is saved again.
 */
interface NodeBlob {
  page: Omit<TreePage, 'pages'>;
  pages: string[];
}

interface RootBlob {
  format: 'nodes-1';
  pages: string[];
  rest: string;
}

type Rest = Omit<ContentTree, 'pages'>;

/** Page objects known to be stored, with their node blob id. */
const stored = new WeakMap<TreePage, string>();

const CACHE_SIZE = 32;
const cache = new Map<string, ContentTree>();

function remember(sha: string, tree: ContentTree): void {
  cache.delete(sha);
  cache.set(sha, tree);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
}

/** Objects with their keys sorted, so equal values serialise (and hash) equally. */
function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const canonicalJson = (value: unknown): string => JSON.stringify(value, sortedKeys);

async function saveNode(db: Kysely<Database>, page: TreePage, trusted: ReadonlySet<TreePage>): Promise<string> {
  if (trusted.has(page)) return stored.get(page)!;
  const children: string[] = [];
  for (const child of page.pages) children.push(await saveNode(db, child, trusted));
  const { pages: _pages, ...fields } = page;
  const sha = await putBlob(db, canonicalJson({ page: fields, pages: children } satisfies NodeBlob));
  stored.set(page, sha);
  return sha;
}

/**
 * The already-stored subtrees of `pages` whose node blobs this database has. One process may
 * hold several databases (tests do), so an object known from one is checked in the other.
 */
async function storedSubtrees(db: Kysely<Database>, pages: readonly TreePage[]): Promise<Set<TreePage>> {
  const candidates: TreePage[] = [];
  const collect = (list: readonly TreePage[]) => {
    for (const page of list) {
      if (stored.has(page)) candidates.push(page);
      else collect(page.pages);
    }
  };
  collect(pages);
  const present = await existingBlobs(db, candidates.map((p) => stored.get(p)!));
  return new Set(candidates.filter((p) => present.has(stored.get(p)!)));
}

async function existingBlobs(db: Kysely<Database>, shas: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const unique = [...new Set(shas)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db.selectFrom('blobs').select('sha256').where('sha256', 'in', unique.slice(i, i + 500)).execute();
    for (const row of rows) found.add(row.sha256);
  }
  return found;
}

/** Stores a tree (only the nodes not stored yet) and returns the id of its root blob. */
export async function saveTree(db: Kysely<Database>, tree: ContentTree): Promise<string> {
  const trusted = await storedSubtrees(db, tree.pages);
  const pages: string[] = [];
  for (const page of tree.pages) pages.push(await saveNode(db, page, trusted));
  const { pages: _pages, ...rest } = tree;
  const restSha = await putBlob(db, canonicalJson(rest satisfies Rest));
  const sha = await putBlob(db, canonicalJson({ format: 'nodes-1', pages, rest: restSha } satisfies RootBlob));
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
  const root = JSON.parse(bytes.toString('utf8')) as RootBlob | ContentTree;
  // Trees written before node blobs existed (migration 0002) are one plain JSON document.
  const tree = 'format' in root ? await loadNodes(db, root) : (root as ContentTree);
  remember(sha, tree);
  return tree;
}

async function loadNodes(db: Kysely<Database>, root: RootBlob): Promise<ContentTree> {
  const restBytes = await getBlob(db, root.rest);
  if (!restBytes) throw new Error(`tree part ${root.rest} is missing from the blob store`);
  const rest = JSON.parse(restBytes.toString('utf8')) as Rest;
  // Fetch level by level: one round of queries per depth, not one per page.
  const nodes = new Map<string, NodeBlob>();
  let wanted = root.pages;
  while (wanted.length > 0) {
    const blobs = await getBlobs(db, wanted.filter((s) => !nodes.has(s)));
    const next: string[] = [];
    for (const [sha, data] of blobs) {
      const node = JSON.parse(data.toString('utf8')) as NodeBlob;
      nodes.set(sha, node);
      next.push(...node.pages);
    }
    const missing = wanted.find((s) => !nodes.has(s));
    if (missing) throw new Error(`tree node ${missing} is missing from the blob store`);
    wanted = next;
  }
  const build = (sha: string): TreePage => {
    const node = nodes.get(sha)!;
    const page: TreePage = { ...node.page, pages: node.pages.map(build) };
    stored.set(page, sha);
    return page;
  };
  return { ...rest, pages: root.pages.map(build) };
}

export { sha256 };

/** Empties the in-process tree cache, so tests can prove a tree reads back from the database. */
export function forgetCachedTrees(): void {
  cache.clear();
}
