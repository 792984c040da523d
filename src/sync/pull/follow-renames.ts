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
