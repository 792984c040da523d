import * as git from 'isomorphic-git';
import type { TreeEntry } from 'isomorphic-git';
import { checkPath } from './paths.js';
import type { Repo } from './repo.js';

/** A blob already stored, as a tree records it: `100644`, `100755` or `120000` (symbolic link). */
export interface TreeBlob {
  mode: string;
  oid: string;
}

interface Folder {
  files: Map<string, TreeBlob | null>;
  folders: Map<string, Folder>;
}

function group(edits: ReadonlyMap<string, TreeBlob | null>): Folder {
  const root: Folder = { files: new Map(), folders: new Map() };
  for (const [path, blob] of edits) {
    const parts = checkPath(path).split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      let next = folder.folders.get(part);
      if (!next) folder.folders.set(part, (next = { files: new Map(), folders: new Map() }));
      folder = next;
    }
    folder.files.set(parts.at(-1)!, blob);
  }
  return root;
}

async function editFolder(r: Repo, oid: string | null, edits: Folder): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (oid !== null) for (const entry of (await git.readTree({ fs: r.fs, gitdir: r.gitdir, oid, cache: r.cache })).tree) entries.set(entry.path, entry);
  // Folders first, then files, and a deletion removes only a blob: a file that became a folder
  // (`a.md` deleted, `a.md/b.md` added) and a folder that became a file both come out right.
  for (const [name, sub] of edits.folders) {
    const current = entries.get(name);
    const next = await editFolder(r, current?.type === 'tree' ? current.oid : null, sub);
    if (next !== null) entries.set(name, { mode: '040000', path: name, type: 'tree', oid: next });
    else if (current?.type === 'tree') entries.delete(name);
  }
  for (const [name, blob] of edits.files) {
    if (blob !== null) entries.set(name, { mode: blob.mode, path: name, type: 'blob', oid: blob.oid });
    else if (entries.get(name)?.type === 'blob') entries.delete(name);
  }
  if (entries.size === 0) return null;
  return git.writeTree({ fs: r.fs, gitdir: r.gitdir, tree: [...entries.values()] });
}

/**
 * The tree `oid` (null: none) with each path of `edits` set to a stored blob or, for null,
 * removed, and folders left empty dropped; null when the whole tree ends up empty. Only the trees
 * on the edited paths are read and written: untouched subtrees are reused as they are.
 */
export async function editTree(r: Repo, oid: string | null, edits: ReadonlyMap<string, TreeBlob | null>): Promise<string | null> {
  return editFolder(r, oid, group(edits));
}
