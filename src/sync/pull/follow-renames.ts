import type { BranchState } from '../state/state.js';
import type { FileMap } from './merge-files.js';

type Index = BranchState['index'];

const pageFiles = (index: Index): Map<string, string> => {
  const byId = new Map<string, string>();
  for (const [key, id] of Object.entries(index.pages)) if (/\.md$/i.test(key) && !/^(page|group|link):/.test(key)) byId.set(id, key);
  return byId;
};

/**
 * A page the platform moved to another file (a new slug, another parent) while the branch kept
 * it, perhaps edited, in the old one: base's and ours' file are moved to the new path before the
 * merge, so the local edit is merged into the page where the platform now has it, instead of
 * the move meeting the edit as a deletion (and the page coming back twice). `prefix` is the
 * folder's root. Pure.
 */
export function followRemoteRenames(
  base: FileMap,
  ours: FileMap,
  baseIndex: Index,
  theirsIndex: Index,
  prefix: string,
): { base: Map<string, Uint8Array>; ours: Map<string, Uint8Array> } {
  const [b, o] = [new Map(base), new Map(ours)];
  const before = pageFiles(baseIndex);
  for (const [id, now] of pageFiles(theirsIndex)) {
    const was = before.get(id);
    if (was === undefined || was === now) continue;
    const [from, to] = [prefix + was, prefix + now];
    if (!o.has(from) || o.has(to) || !b.has(from) || b.has(to)) continue;
    b.set(to, b.get(from)!);
    b.delete(from);
    o.set(to, o.get(from)!);
    o.delete(from);
  }
  return { base: b, ours: o };
}

/**
 * A page the branch moved to another file (a rename git or `matchRenames` pairs, as push sends
 * it) while the platform edited it in the old one, or moved it too (`theirsPath`: where the
 * platform has the page that was at a path of the base): base's and theirs' file are moved to the
 * branch's path before the merge, so the platform's edit is merged into the page where the
 * branch has it, instead of meeting the rename as a deletion (the edit kept in another file, and
 * the next push sending the renamed file as a second page). Pure.
 */
export function followLocalRenames(
  base: FileMap,
  ours: FileMap,
  theirs: FileMap,
  renames: readonly { from: string; to: string }[],
  theirsPath: (basePath: string) => string | undefined = () => undefined,
): { base: Map<string, Uint8Array>; theirs: Map<string, Uint8Array> } {
  const [b, t] = [new Map(base), new Map(theirs)];
  for (const { from, to } of renames) {
    const at = t.has(from) ? from : theirsPath(from);
    if (at === undefined || !b.has(from) || b.has(to) || !t.has(at) || t.has(to) || (at !== from && (ours.has(at) || b.has(at)))) continue;
    b.set(to, b.get(from)!);
    b.delete(from);
    t.set(to, t.get(at)!);
    t.delete(at);
  }
  return { base: b, theirs: t };
}

/** Where `theirsIndex` has the page `baseIndex` has at a path (both relative to `prefix`; full paths in and out). */
export function remotePlaceOf(baseIndex: Index, theirsIndex: Index, prefix: string): (basePath: string) => string | undefined {
  const now = pageFiles(theirsIndex);
  return (basePath) => {
    if (!basePath.startsWith(prefix)) return undefined;
    const id = baseIndex.pages[basePath.slice(prefix.length)];
    const path = id === undefined ? undefined : now.get(id);
    return path === undefined ? undefined : prefix + path;
  };
}
