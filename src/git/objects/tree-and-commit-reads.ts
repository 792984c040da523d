import * as git from 'isomorphic-git';
import type { TreeItem, TreeMode } from '../format/object-format.js';
import type { Repo } from '../repo.js';
import { readLoose } from './loose-objects.js';
import { readObject } from './read-object.js';

// Trees and commits as the fast paths read them: the loose object, else the pack (read-object.ts),
// else isomorphic-git for its error. Apart from loose-objects.ts, which read-object.ts reads through.

/**
 * The entries of tree `oid`, read from its loose object or its pack, or through isomorphic-git
 * when neither holds it, for its error (isomorphic-git writes the folder mode as `040000`; here
 * it is `40000`, as stored). A mode outside TreeMode (old git's `100664`, which fsck tolerates)
 * is kept as read.
 */
export async function readTreeItems(r: Repo, oid: string): Promise<TreeItem[]> {
  const loose = readLoose(r.gitdir, oid) ?? (await readObject(r.gitdir, oid));
  if (loose === null) {
    const { tree } = await git.readTree({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache });
    return tree.map((entry) => ({ mode: entry.mode.replace(/^0+/, '') as TreeMode, name: entry.path, oid: entry.oid }));
  }
  if (loose.type !== 'tree') throw new Error(`object ${oid} in ${r.dir} is a ${loose.type}, not a tree`);
  const items: TreeItem[] = [];
  const { content } = loose;
  for (let at = 0; at < content.length;) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0, space);
    items.push({
      mode: content.toString('latin1', at, space) as TreeMode,
      name: content.toString('utf8', space + 1, nul),
      oid: content.toString('hex', nul + 1, nul + 21),
    });
    at = nul + 21;
  }
  return items;
}

/** The tree of commit `oid`, from its loose object or its pack, or through isomorphic-git when neither holds it. */
export async function commitTree(r: Repo, oid: string): Promise<string> {
  const loose = readLoose(r.gitdir, oid) ?? (await readObject(r.gitdir, oid));
  if (loose === null) return (await git.readCommit({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache })).commit.tree;
  const match = /^tree ([0-9a-f]{40})\n/.exec(loose.content.toString('latin1', 0, 46));
  if (loose.type !== 'commit' || match === null) throw new Error(`object ${oid} in ${r.dir} is not a commit`);
  return match[1]!;
}
