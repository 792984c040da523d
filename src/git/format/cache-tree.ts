/**
 * The index's cache tree (extension `TREE`, gitformat-index): for each folder git has written as
 * a tree, the oid of that tree and how many index entries it covers, so that a reader can tell an
 * unchanged folder from HEAD's without hashing its entries again. A folder whose entries changed
 * since is invalidated (no oid) along with every folder above it. Pure: no I/O.
 */
export interface CacheTree {
  /** Index entries under this folder, at any depth; -1 for an invalidated node. */
  entryCount: number;
  /** The tree object those entries make; absent when invalidated. */
  oid?: string;
  /** Subfolders by name (one path component). */
  subtrees: Map<string, CacheTree>;
}

/**
 * Parses a `TREE` extension's data (without its 8-byte header). Null when malformed: a reader then
 * does without it, as git does with a cache tree it cannot read.
 */
export function parseCacheTree(data: Buffer): CacheTree | null {
  let at = 0;
  const node = (): CacheTree | null => {
    const nul = data.indexOf(0, at);
    const newline = nul < 0 ? -1 : data.indexOf(0x0a, nul);
    if (newline < 0) return null;
    const match = /^(-?\d+) (\d+)$/.exec(data.toString('latin1', nul + 1, newline));
    if (!match) return null;
    at = newline + 1;
    const entryCount = Number(match[1]);
    const tree: CacheTree = { entryCount, subtrees: new Map() };
    if (entryCount >= 0) {
      if (at + 20 > data.length) return null;
      tree.oid = data.toString('hex', at, at + 20);
      at += 20;
    }
    for (let i = Number(match[2]); i > 0; i -= 1) {
      const start = at;
      const end = data.indexOf(0, start);
      if (end < 0) return null;
      const sub = node();
      if (sub === null) return null;
      tree.subtrees.set(data.toString('utf8', start, end), sub);
    }
    return tree;
  };
  // The root's name is empty: its entry starts with the NUL.
  if (data[0] !== 0) return null;
  const root = node();
  return root !== null && at === data.length ? root : null;
}

/** git's order of subtrees in the extension (cache-tree.c, subtree_name_cmp): shorter names first, then by bytes. */
function subtreeOrder(a: Buffer, b: Buffer): number {
  return a.length - b.length || Buffer.compare(a, b);
}

/** The extension's data for `tree` (without its 8-byte header), as git writes it. */
export function renderCacheTree(tree: CacheTree): Buffer {
  const parts: Buffer[] = [];
  const write = (name: Buffer, node: CacheTree) => {
    const valid = node.entryCount >= 0 && node.oid !== undefined;
    parts.push(name, Buffer.from(`\0${valid ? node.entryCount : -1} ${node.subtrees.size}\n`, 'latin1'));
    if (valid) parts.push(Buffer.from(node.oid!, 'hex'));
    const subs = [...node.subtrees].map(([sub, child]) => ({ name: Buffer.from(sub, 'utf8'), child }));
    for (const sub of subs.sort((a, b) => subtreeOrder(a.name, b.name))) write(sub.name, sub.child);
  };
  write(Buffer.alloc(0), tree);
  return Buffer.concat(parts);
}

/**
 * `tree` with every folder above each of `paths` invalidated (what git's
 * cache_tree_invalidate_path does for an index entry added, changed or removed): the root always,
 * then each folder on the way down that the cache tree has. Other folders keep their oid.
 */
export function invalidateCacheTree(tree: CacheTree, paths: Iterable<string>): CacheTree {
  const copy = (node: CacheTree): CacheTree => ({ ...node, subtrees: new Map(node.subtrees) });
  const root = copy(tree);
  const invalidate = (node: CacheTree) => {
    node.entryCount = -1;
    delete node.oid;
  };
  for (const path of paths) {
    const parts = path.split('/');
    let node = root;
    invalidate(node);
    for (const part of parts.slice(0, -1)) {
      const sub = node.subtrees.get(part);
      if (sub === undefined) break;
      const mine = copy(sub);
      node.subtrees.set(part, mine);
      invalidate(mine);
      node = mine;
    }
  }
  return root;
}
