import { checkPath } from '../format/paths.js';
import { writeLooseObjects } from './loose-objects.js';
import { readTreeItems } from './tree-and-commit-reads.js';
import { type FileMode, FOLDER_MODE, type GitObject, type TreeItem, treeObject } from '../format/object-format.js';
import type { Repo } from '../repo.js';

/** A blob already stored, as a tree records it. */
export interface TreeBlob {
  mode: FileMode;
  oid: string;
  /** An executable file at the path (`100755`) stays executable, whatever `mode` says. */
  keepExecutable?: boolean;
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

async function editFolder(r: Repo, oid: string | null, edits: Folder, written: GitObject[]): Promise<string | null> {
  const items = new Map<string, TreeItem>();
  if (oid !== null) for (const item of await readTreeItems(r, oid)) items.set(item.name, item);
  // Folders first, then files, and a deletion removes only a blob: a file that became a folder
  // (`a.md` deleted, `a.md/b.md` added) and a folder that became a file both come out right.
  for (const [name, sub] of edits.folders) {
    const current = items.get(name);
    const next = await editFolder(r, current?.mode === FOLDER_MODE ? current.oid : null, sub, written);
    if (next !== null) items.set(name, { mode: FOLDER_MODE, name, oid: next });
    else if (current?.mode === FOLDER_MODE) items.delete(name);
  }
  for (const [name, blob] of edits.files) {
    if (blob !== null) {
      // New content keeps the file's executable bit where the edit asks (commitEdits' pages).
      const kept = blob.keepExecutable === true && items.get(name)?.mode === '100755';
      items.set(name, { mode: kept ? '100755' : blob.mode, name, oid: blob.oid });
    } else if (items.has(name) && items.get(name)!.mode !== FOLDER_MODE) items.delete(name);
  }
  if (items.size === 0) return null;
  const tree = treeObject(items.values());
  written.push(tree);
  return tree.oid;
}

/**
 * The tree `oid` (null: none) with each path of `edits` set to a stored blob or, for null,
 * removed, and folders left empty dropped; stores the trees it makes (loose) and returns the new
 * root, or the empty tree when nothing is left. Only the trees on the edited paths are read and
 * written: untouched subtrees are reused as they are.
 */
export async function editTree(r: Repo, oid: string | null, edits: ReadonlyMap<string, TreeBlob | null>): Promise<string> {
  const written: GitObject[] = [];
  let root = await editFolder(r, oid, group(edits), written);
  if (root === null) {
    const empty = treeObject([]);
    written.push(empty);
    root = empty.oid;
  }
  writeLooseObjects(r, written);
  return root;
}
