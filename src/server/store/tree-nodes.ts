import type { Kysely } from 'kysely';
import type { TreePage } from '../../model/index.js';
import type { Database } from './schema.js';

/**
 * What this process knows of stored tree nodes, so that saving a tree writes only its new nodes
 * and loading one reads only the nodes not already in memory.
 *
 * A page object read from or written as a node blob is marked with the node's sha and with the
 * sha of a root blob that reaches it. The mark is a claim to check, not a fact: one process may
 * hold several databases (tests do), and a node written in a transaction that rolled back is not
 * stored at all. A root blob is written last, in the transaction of its nodes, so a root present
 * in a database proves every node it reaches is: saving checks the few roots its candidates
 * name, not each candidate, and checks a candidate itself only when its root is absent.
 */
interface Mark {
  sha: string;
  root: string;
}

const marks = new WeakMap<TreePage, Mark>();

// Node sha to a page object built from it, while something still holds that object.
let registry = new Map<string, WeakRef<TreePage>>();
const cleanup = new FinalizationRegistry<string>((sha) => {
  if (registry.get(sha)?.deref() === undefined) registry.delete(sha);
});

/** The node blob of a page object known to be stored (pending the check in storedSubtrees). */
export function nodeSha(page: TreePage): string | undefined {
  return marks.get(page)?.sha;
}

/** A page object in memory whose node blob is `sha` (with its whole subtree). */
export function knownNode(sha: string): TreePage | undefined {
  return registry.get(sha)?.deref();
}

/** Records that `page` is node `sha`, reached from root `root`. */
export function markNode(page: TreePage, sha: string, root: string): void {
  marks.set(page, { sha, root });
  if (registry.get(sha)?.deref() === undefined) {
    registry.set(sha, new WeakRef(page));
    cleanup.register(page, sha);
  }
}

/** After a tree was saved under `root`: its reused subtrees and its new nodes are reached from it. */
export function markSaved(root: string, trusted: ReadonlySet<TreePage>, written: ReadonlyMap<TreePage, string>): void {
  // In place: the reused subtrees are most of a big tree's top, and this runs on every save.
  for (const page of trusted) marks.get(page)!.root = root;
  for (const [page, sha] of written) markNode(page, sha, root);
}

async function existing(db: Kysely<Database>, shas: Iterable<string>): Promise<Set<string>> {
  const found = new Set<string>();
  const unique = [...new Set(shas)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await db
      .selectFrom('blobs')
      .select('sha256')
      .where('sha256', 'in', unique.slice(i, i + 500))
      .execute();
    for (const row of rows) found.add(row.sha256);
  }
  return found;
}

/** The topmost marked subtrees of `pages` whose node blobs this database has. */
export async function storedSubtrees(db: Kysely<Database>, pages: readonly TreePage[]): Promise<Set<TreePage>> {
  const candidates: [TreePage, Mark][] = [];
  const collect = (list: readonly TreePage[]) => {
    for (const page of list) {
      const mark = marks.get(page);
      if (mark) candidates.push([page, mark]);
      else collect(page.pages);
    }
  };
  collect(pages);
  if (candidates.length === 0) return new Set();
  const roots = await existing(
    db,
    candidates.map(([, mark]) => mark.root),
  );
  const unproven = candidates.filter(([, mark]) => !roots.has(mark.root));
  const nodes =
    unproven.length === 0
      ? new Set<string>()
      : await existing(
          db,
          unproven.map(([, mark]) => mark.sha),
        );
  return new Set(candidates.flatMap(([page, mark]) => (roots.has(mark.root) || nodes.has(mark.sha) ? [page] : [])));
}

/** Forgets the node registry (tests prove a tree reads back from the database). */
export function forgetNodes(): void {
  registry = new Map();
}
