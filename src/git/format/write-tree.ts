import { GitError } from '../errors.js';
import { blobObject, type GitObject, type TreeItem, type TreeMode, treeObject } from './object-format.js';
import { checkPath } from './paths.js';

/** File contents by repository path; strings are written as UTF-8. */
export type FileMap = ReadonlyMap<string, Uint8Array | string>;

/** The objects of a file map's tree, built in memory. */
export interface BuiltTree {
  /** The root tree's oid. */
  oid: string;
  /** Every blob and tree (a blob once even when several files share it). */
  objects: GitObject[];
  /** Each file as stored: its path, blob oid and bytes, in the order of the file map. */
  files: { path: string; oid: string; content: Uint8Array }[];
}

interface Folder {
  /** Blob oid and mode by file name. */
  files: Map<string, { oid: string; mode: TreeMode }>;
  folders: Map<string, Folder>;
}

/**
 * Blobs and nested trees for `files`, hashed in memory (node's sha1) without touching the
 * repository. Canonical: entries are in git's tree order and every file has mode 100644 unless
 * `modeOf` gives it another (`100755` executable, `120000` symbolic link), so one file map
 * always gives one tree oid, the one `git add -A && git write-tree` gives.
 * Throws `invalid-path` for a path checkPath refuses or one that is both a file and a folder.
 */
export function buildTree(files: FileMap, modeOf: (path: string) => TreeMode | undefined = () => undefined): BuiltTree {
  const built: BuiltTree = { oid: '', objects: [], files: [] };
  const blobs = new Set<string>();
  const root: Folder = { files: new Map(), folders: new Map() };
  for (const [path, content] of files) {
    const segments = checkPath(path).split('/');
    const name = segments.pop()!;
    let folder = root;
    for (const [i, segment] of segments.entries()) {
      if (folder.files.has(segment)) throw clash(segments.slice(0, i + 1).join('/'), path);
      let next = folder.folders.get(segment);
      if (!next) folder.folders.set(segment, (next = { files: new Map(), folders: new Map() }));
      folder = next;
    }
    if (folder.folders.has(name)) throw clash(path, `${path}/...`);
    const blob = blobObject(typeof content === 'string' ? Buffer.from(content, 'utf8') : content);
    folder.files.set(name, { oid: blob.oid, mode: modeOf(path) ?? '100644' });
    if (!blobs.has(blob.oid)) built.objects.push(blob);
    blobs.add(blob.oid);
    built.files.push({ path, oid: blob.oid, content: blob.content });
  }
  built.oid = addTree(root, built.objects);
  return built;
}

function addTree(folder: Folder, objects: GitObject[]): string {
  const items: TreeItem[] = [];
  for (const [name, { oid, mode }] of folder.files) items.push({ mode, name, oid });
  for (const [name, child] of folder.folders) items.push({ mode: '40000', name, oid: addTree(child, objects) });
  const tree = treeObject(items);
  objects.push(tree);
  return tree.oid;
}

function clash(file: string, other: string): GitError {
  return new GitError('invalid-path', `${file} cannot be both a file and a folder (${other})`, { path: file });
}
