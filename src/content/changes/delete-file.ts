import type { DeleteFileChange } from '../../model/index.js';
import type { BatchState } from './state.js';
import { fail } from './types.js';

/**
 * Removes a file from the revision. Pages that link to it keep their links, which the links
 * listing then reports as broken, as for any missing target; links this batch writes to it become text.
 */
export function deleteFileChange(state: BatchState, change: DeleteFileChange): void {
  const files = state.tree.files.filter((f) => f.id !== change.file);
  if (files.length === state.tree.files.length) return fail(`file: file ${change.file} not found`);
  state.tree = { ...state.tree, files };
}
