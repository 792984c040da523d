import type { DeleteReusableContentChange } from '../../model/index.js';
import { findReusableContent, withKeptNames } from './reusable-contents.js';
import type { BatchState } from './state.js';

/**
 * Removes a reusable content. Pages that embed it keep their `{% include %}` as written (their
 * markdown is stored as sent); the others keep their file names, which the removal must not shift.
 */
export function deleteReusableContentChange(state: BatchState, change: DeleteReusableContentChange): void {
  const at = findReusableContent(state, change.reusableContent);
  state.tree = { ...state.tree, reusableContents: withKeptNames(state.tree.reusableContents).filter((_, i) => i !== at) };
}
