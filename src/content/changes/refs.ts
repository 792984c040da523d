import type { ContentChange, ContentTree } from '../../model/index.js';
import { pagesOf, type Target } from './resolve-link.js';
import { fileKey, type BatchState } from './state.js';
import { ChangeFailure } from './types.js';

/**
 * Gives every inserted page and file its id before any change is applied (a file item naming a
 * file the tree holds at that point of the batch gets that file's id), and maps each batch
 * ref to its target, so a link may name a ref inserted later in the batch. Refs are unique in the
 * batch (page, file and reusable content refs share one namespace) and may not equal an existing page's path, where
 * `./<ref>.md` would be ambiguous. Throws ChangeFailure with the index of the offending change.
 */
export function assignIds(
  state: Pick<BatchState, 'ctx' | 'pageIds' | 'fileIds' | 'refs'>,
  tree: ContentTree,
  changes: readonly ContentChange[],
): { index: number; failure: ChangeFailure } | undefined {
  // Reusable contents are embedded by path, never linked, so their refs name no link target.
  const reusableRefs = new Set<string>();
  const claim = (ref: string | undefined, target: Target, where: string): ChangeFailure | undefined => {
    if (ref === undefined) return undefined;
    if (state.refs.has(ref) || reusableRefs.has(ref))
      return new ChangeFailure(`${where}ref ${JSON.stringify(ref)} is used twice in the batch`);
    // Looked up only for a batch with refs: the paths of a tree cost a walk of it.
    if (pagesOf(tree.pages).byPath.has(ref))
      return new ChangeFailure(`${where}ref ${JSON.stringify(ref)} is the path of an existing page; pick another ref`);
    state.refs.set(ref, target);
    return undefined;
  };
  // The file each name stands for as the batch goes: an item naming a file the tree holds (the
  // first of that name, the one its Git Sync path shows) replaces it and keeps its id.
  const byName = new Map<string, string[]>();
  for (const file of tree.files) byName.set(file.name, [...(byName.get(file.name) ?? []), file.id]);
  for (const [index, change] of changes.entries()) {
    if (change.operation === 'delete_file') {
      for (const [name, ids] of byName)
        if (ids.includes(change.file))
          byName.set(
            name,
            ids.filter((id) => id !== change.file),
          );
    } else if (change.operation === 'insert_page') {
      const id = state.ctx.newId();
      state.pageIds.set(index, id);
      const failure = claim(change.ref, { kind: 'page', id }, '');
      if (failure) return { index, failure };
    } else if (change.operation === 'insert_reusable_content' && change.ref !== undefined) {
      if (state.refs.has(change.ref) || reusableRefs.has(change.ref))
        return { index, failure: new ChangeFailure(`ref ${JSON.stringify(change.ref)} is used twice in the batch`) };
      reusableRefs.add(change.ref);
    } else if (change.operation === 'insert_files') {
      for (const [j, item] of change.files.entries()) {
        const id = byName.get(item.name)?.[0] ?? state.ctx.newId();
        if (!byName.get(item.name)?.length) byName.set(item.name, [id]);
        state.fileIds.set(fileKey(index, j), id);
        const failure = claim(item.ref, { kind: 'file', id }, `files[${j}]: `);
        if (failure) return { index, failure };
      }
    }
  }
  return undefined;
}
