import type { InsertFilesChange, TreeFile } from '../../model/index.js';
import { fileKey, type BatchState } from './state.js';
import { fail } from './types.js';

export function insertFilesChange(state: BatchState, change: InsertFilesChange, index: number): void {
  const added: TreeFile[] = change.files.map((item, j) => {
    const prepared = state.ctx.files.get(fileKey(index, j));
    if (!prepared) return fail(`files[${j}]: the bytes of ${item.name} were not provided`);
    return { id: state.fileIds.get(fileKey(index, j))!, name: item.name, contentType: prepared.contentType, size: prepared.size, blob: prepared.blob };
  });
  state.tree = { ...state.tree, files: [...state.tree.files, ...added] };
  state.insertedFiles.push(...added);
}
