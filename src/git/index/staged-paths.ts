import { parseCacheTree } from '../format/cache-tree.js';
import type { StoredIndexEntry } from '../format/index-read.js';
import { readTreeItems } from '../objects/tree-and-commit-reads.js';
import { FOLDER_MODE, objectOid, treeContent, type TreeEntryText } from '../format/object-format.js';
import type { Repo } from '../repo.js';

/** The index seen as folders, each with the oid its tree object would have (what `git write-tree` writes). */
interface IndexFolder {
  oid: string;
  files: Map<string, StoredIndexEntry>;
  folders: Map<string, IndexFolder>;
}

/**
 * The folder of `entries[start, end)`, all under `prefix`. One pass, no sorting: git keeps the
 * index sorted by path bytes, which puts a folder's entries next to each other and its items
 * in tree order (a folder's name sorting as if it ended in `/`, as its paths do).
 */
function build(entries: readonly StoredIndexEntry[], start: number, end: number, prefix: string): IndexFolder {
  const folder: IndexFolder = { oid: '', files: new Map(), folders: new Map() };
  const items: TreeEntryText[] = [];
  const item = (mode: string, name: string, oid: string) => items.push({ mode, name, oid });
  for (let i = start; i < end;) {
    const entry = entries[i]!;
    const slash = entry.path.indexOf('/', prefix.length);
    if (slash < 0) {
      const name = entry.path.slice(prefix.length);
      folder.files.set(name, entry);
      item(entry.mode.toString(8), name, entry.oid);
      i += 1;
      continue;
    }
    const sub = entry.path.slice(0, slash + 1);
    let next = i + 1;
    while (next < end && entries[next]!.path.startsWith(sub)) next += 1;
    const child = build(entries, i, next, sub);
    const name = sub.slice(prefix.length, -1);
    folder.folders.set(name, child);
    item(FOLDER_MODE, name, child.oid);
    i = next;
  }
  folder.oid = objectOid('tree', treeContent(items));
  return folder;
}

function addAll(folder: IndexFolder, prefix: string, out: string[]): void {
  for (const name of folder.files.keys()) out.push(prefix + name);
  for (const [name, sub] of folder.folders) addAll(sub, `${prefix}${name}/`, out);
}

async function compare(r: Repo, head: string | null, index: IndexFolder | undefined, prefix: string, out: string[]): Promise<boolean> {
  const seenFiles = new Set<string>();
  const seenFolders = new Set<string>();
  for (const item of head === null ? [] : await readTreeItems(r, head)) {
    if (item.mode === '160000') return false;
    if (item.mode === FOLDER_MODE) {
      seenFolders.add(item.name);
      const sub = index?.folders.get(item.name);
      if (sub?.oid !== item.oid && !(await compare(r, item.oid, sub, `${prefix}${item.name}/`, out))) return false;
      continue;
    }
    seenFiles.add(item.name);
    const entry = index?.files.get(item.name);
    if (entry?.oid !== item.oid || entry.mode.toString(8) !== item.mode) out.push(prefix + item.name);
  }
  for (const name of index?.files.keys() ?? []) if (!seenFiles.has(name)) out.push(prefix + name);
  for (const [name, sub] of index?.folders ?? []) if (!seenFolders.has(name)) addAll(sub, `${prefix}${name}/`, out);
  return true;
}

/**
 * The paths where the index (`entries`, stage 0) is not the tree `head`: staged changes, and
 * entries missing on either side. Where a folder of the index would make the very tree `head`
 * has there (same oid), that tree is not read: when nothing is staged, only the index is hashed.
 * With the index's cache tree (`cacheTree`, the `TREE` extension's data) valid at the root over
 * every entry and naming `head`, nothing is staged and nothing is hashed, as git trusts it: after
 * a commit or a pull's checkout that is the usual case, and hashing a 5,000-entry index cost
 * each look at a few paths (workingTreeChangesAt) most of its time.
 * @returns null when `head` holds a submodule.
 */
export async function stagedPaths(
  r: Repo,
  head: string,
  entries: readonly StoredIndexEntry[],
  cacheTree?: Buffer,
): Promise<string[] | null> {
  // An intent-to-add entry is in no tree git writes: a cache tree over one is not the entries' tree (as in headBlobs).
  const cached = cacheTree === undefined || entries.some((entry) => entry.intentToAdd) ? null : parseCacheTree(cacheTree);
  if (cached !== null && cached.oid === head && cached.entryCount === entries.length) return [];
  const root = build(entries, 0, entries.length, '');
  const out: string[] = [];
  if (root.oid === head) return out;
  return (await compare(r, head, root, '', out)) ? out : null;
}
