import type { Kysely } from 'kysely';
import type { ContentTree, TreePage, VariableValue } from '../../model/index.js';
import { deriveIndex } from '../../content/index.js';
import type { Database } from './schema.js';
import { getBlob, getBlobs, putBlob, sha256 } from './blobs.js';
import { forgetNodes, knownNode, markNode, markSaved, nodeSha, storedSubtrees } from './tree-nodes.js';
import { MAX_DELTA_DEPTH, applyChangedPages, changedPages, type DeltaBlob, type PageFields } from './tree-deltas.js';

/**
 * Trees are stored like git trees: every page is a node blob holding its own fields and the
 * ids (sha256) of its children's node blobs; the root blob lists the top-level nodes and
 * points at the files, variables and reusable contents. A one-page edit therefore stores the
 * page's node and the nodes on its path to the root, not the whole tree, and loading a tree
 * reads only the nodes no tree in memory already has (a one-page edit of a cached tree reads
 * the nodes on that page's path).
 *
 * Invariants:
 * - blobs are content-addressed and written children first, so a stored node implies that all
 *   nodes below it are stored too;
 * - loaded trees are shared (cache, and the node registry in tree-nodes.ts): callers never
 *   mutate them. The content layer's tree operations copy on write, so untouched subtrees keep
 *   their identity and are recognised as already stored when the tree is saved again.
 *
 * A tree of the same shape as the tree it was made from (a page edit) is stored as a delta of
 * the pages it changed instead (tree-deltas.ts), so an edit stores what the page holds whatever
 * the space's size; every MAX_DELTA_DEPTH deltas the tree is stored as nodes again.
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

const CACHE_SIZE = 32;
const cache = new Map<string, ContentTree>();
/** Deltas between a tree in memory and a root of nodes (absent: it is one). */
const depths = new WeakMap<ContentTree, number>();

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

/**
 * The blob of a tree's files, variables and reusable contents, and those parts as last read or
 * written: a chain of page edits keeps all three, so it is serialised once, not per write.
 */
let lastRest: { rest: Rest; json: string; sha: string } | undefined;

function restBlob(tree: ContentTree): { json: string; sha: string } {
  const { pages: _pages, ...rest } = tree;
  const last = lastRest?.rest as Record<string, unknown> | undefined;
  const parts = Object.entries(rest);
  if (last && parts.length === Object.keys(last).length && parts.every(([key, value]) => last[key] === value)) return lastRest!;
  const json = canonicalJson(storedRest(rest));
  lastRest = { rest, json, sha: sha256(Buffer.from(json, 'utf8')) };
  return lastRest;
}

/** Variables as the blob holds them: a map (keys sorted by the serialisation) in name order, else `[name, value]` pairs in their order. */
type StoredRest = Omit<Rest, 'variables'> & { variables: Rest['variables'] | [string, VariableValue][] };

/**
 * The rest as stored: variables out of name order keep their order as pairs (the writer's order
 * in `.gitbook/vars.yaml`), since the serialisation sorts keys; in name order they stay a map,
 * so trees stored before the order was kept serialise (and hash) as they did.
 */
function storedRest(rest: Rest): StoredRest {
  const names = Object.keys(rest.variables);
  const sorted = names.every((name, i) => i === 0 || names[i - 1]! < name);
  return sorted ? rest : { ...rest, variables: Object.entries(rest.variables) };
}

async function saveNode(
  db: Kysely<Database>,
  page: TreePage,
  trusted: ReadonlySet<TreePage>,
  written: Map<TreePage, string>,
): Promise<string> {
  if (trusted.has(page)) return nodeSha(page)!;
  const children: string[] = [];
  for (const child of page.pages) children.push(await saveNode(db, child, trusted, written));
  const { pages: _pages, ...fields } = page;
  const sha = await putBlob(db, canonicalJson({ page: fields, pages: children } satisfies NodeBlob));
  written.set(page, sha);
  return sha;
}

/**
 * Stores a tree and returns the id of its root blob: a delta against `base` (the root of the
 * tree it was made from) when that tree is in memory and has its shape, else the nodes not
 * stored yet.
 */
export async function saveTree(db: Kysely<Database>, tree: ContentTree, base?: string): Promise<string> {
  const before = base === undefined ? undefined : cache.get(base);
  const depth = before === undefined ? MAX_DELTA_DEPTH : (depths.get(before) ?? 0) + 1;
  const changed = depth < MAX_DELTA_DEPTH ? changedPages(before!.pages, tree.pages) : undefined;
  if (changed) return saveDelta(db, tree, { base: base!, depth, changed, before: before! });
  const trusted = await storedSubtrees(db, tree.pages);
  const written = new Map<TreePage, string>();
  const pages: string[] = [];
  for (const page of tree.pages) pages.push(await saveNode(db, page, trusted, written));
  const rest = restBlob(tree);
  await putBlob(db, rest.json);
  const sha = await putBlob(db, canonicalJson({ format: 'nodes-1', pages, rest: rest.sha } satisfies RootBlob));
  markSaved(sha, trusted, written);
  depths.delete(tree);
  remember(sha, tree);
  return sha;
}

async function saveDelta(
  db: Kysely<Database>,
  tree: ContentTree,
  delta: { base: string; depth: number; changed: PageFields[]; before: ContentTree },
): Promise<string> {
  const rest = restBlob(tree);
  await putBlob(db, rest.json);
  const pages = delta.changed.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const sha = await putBlob(
    db,
    canonicalJson({ format: 'delta-1', base: delta.base, depth: delta.depth, rest: rest.sha, pages } satisfies DeltaBlob),
  );
  depths.set(tree, delta.depth);
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
  const root = JSON.parse(bytes.toString('utf8')) as RootBlob | DeltaBlob | ContentTree;
  // Trees written before node blobs existed (migration 0002) are one plain JSON document.
  const tree = !('format' in root)
    ? (root as ContentTree)
    : root.format === 'delta-1'
      ? await loadDelta(db, root)
      : await loadNodes(db, sha, root);
  remember(sha, tree);
  return tree;
}

/**
 * A delta's tree: the deltas down its chain are read until a tree in memory or a root of nodes,
 * and their pages applied to it in one walk (later deltas win), so a cold read of a long chain
 * costs one small read per delta, not one tree per delta.
 */
async function loadDelta(db: Kysely<Database>, root: DeltaBlob): Promise<ContentTree> {
  const chain: DeltaBlob[] = [root];
  let base = cache.get(root.base);
  while (!base) {
    const sha = chain[chain.length - 1]!.base;
    const bytes = await getBlob(db, sha);
    if (!bytes) throw new Error(`tree ${sha} is missing from the blob store`);
    const next = JSON.parse(bytes.toString('utf8')) as RootBlob | DeltaBlob | ContentTree;
    if ('format' in next && next.format === 'delta-1') {
      chain.push(next);
      base = cache.get(next.base);
    } else {
      base = await loadTree(db, sha);
    }
  }
  const changed = new Map<string, PageFields>();
  for (const delta of chain) for (const page of delta.pages) if (!changed.has(page.id)) changed.set(page.id, page);
  const rest = await loadRest(db, root.rest);
  const tree: ContentTree = { ...rest, pages: applyChangedPages(base.pages, changed) };
  depths.set(tree, root.depth);
  deriveIndex(base.pages, tree.pages);
  return tree;
}

async function loadRest(db: Kysely<Database>, sha: string): Promise<Rest> {
  if (lastRest?.sha === sha) return lastRest.rest;
  const bytes = await getBlob(db, sha);
  if (!bytes) throw new Error(`tree part ${sha} is missing from the blob store`);
  const json = bytes.toString('utf8');
  const stored = JSON.parse(json) as StoredRest;
  const rest: Rest = Array.isArray(stored.variables) ? { ...stored, variables: Object.fromEntries(stored.variables) } : (stored as Rest);
  lastRest = { rest, json, sha };
  return rest;
}

async function loadNodes(db: Kysely<Database>, rootSha: string, root: RootBlob): Promise<ContentTree> {
  const rest = await loadRest(db, root.rest);
  // Nodes a tree in memory already has are taken as they are, subtree and all (a node's sha
  // names its whole subtree); the others are fetched level by level: one query per depth.
  const reused = new Map<string, TreePage>();
  const nodes = new Map<string, NodeBlob>();
  let wanted = root.pages;
  while (wanted.length > 0) {
    const unknown: string[] = [];
    for (const sha of wanted) {
      const page = reused.get(sha) ?? knownNode(sha);
      if (page) reused.set(sha, page);
      else if (!nodes.has(sha)) unknown.push(sha);
    }
    const blobs = await getBlobs(db, unknown);
    const next: string[] = [];
    for (const [sha, data] of blobs) {
      const node = JSON.parse(data.toString('utf8')) as NodeBlob;
      nodes.set(sha, node);
      next.push(...node.pages);
    }
    const missing = unknown.find((s) => !nodes.has(s));
    if (missing) throw new Error(`tree node ${missing} is missing from the blob store`);
    wanted = next;
  }
  const build = (sha: string): TreePage => {
    const page = reused.get(sha) ?? { ...nodes.get(sha)!.page, pages: nodes.get(sha)!.pages.map(build) };
    markNode(page, sha, rootSha);
    return page;
  };
  const tree: ContentTree = { ...rest, pages: root.pages.map(build) };
  if (reused.size > 0) relateToCached(tree);
  return tree;
}

/**
 * Gives a tree that took nodes from a cached one that tree's page index, updated for what
 * differs, so the first write to it does not index every page again.
 */
function relateToCached(tree: ContentTree): void {
  const top = new Set(tree.pages);
  for (const other of [...cache.values()].reverse()) {
    if (other.pages.some((page) => top.has(page))) return deriveIndex(other.pages, tree.pages);
  }
}

export { sha256 };

/** Empties the in-process caches, so tests can prove a tree reads back from the database. */
export function forgetCachedTrees(): void {
  cache.clear();
  lastRest = undefined;
  forgetNodes();
}
