import type { InsertFilesChange, TreeFile } from '../../model/index.js';
import { fileKey, type BatchState } from './state.js';
import { fail } from './types.js';

/**
 * Adds each item as a file, or, when its id is one the tree already holds (refs.ts gave it the
 * id of the file of that name), replaces that file's bytes and content type where it stands: in
 * the Git Sync layout a file is its name, and pages refer to it by id, so the id must survive.
 * Each item gets its entry in `insertedFiles`, in order, so clients can pair items and answers.
 */
export function insertFilesChange(state: BatchState, change: InsertFilesChange, index: number): void {
  let files = state.tree.files;
  change.files.forEach((item, j) => {
    const prepared = state.ctx.files.get(fileKey(index, j));
    if (!prepared) return fail(`files[${j}]: the bytes of ${item.name} were not provided`);
    // Dimensions belonged to the old bytes, so a replaced file has none until measured again.
    const file: TreeFile = {
      id: state.fileIds.get(fileKey(index, j))!,
      name: item.name,
      contentType: prepared.contentType,
      size: prepared.size,
      blob: prepared.blob,
    };
    const at = files.findIndex((f) => f.id === file.id);
    files = at < 0 ? [...files, file] : files.map((f, i) => (i === at ? file : f));
    state.insertedFiles.push(file);
  });
  state.tree = { ...state.tree, files };
}
