import type { TreeReusableContent, UpdateReusableContentChange } from '../../model/index.js';
import {
  checkIncludeName,
  checkIncludeTitle,
  findReusableContent,
  includeBody,
  storeIncludeBody,
  withKeptNames,
} from './reusable-contents.js';
import type { BatchState } from './state.js';

/** Sets what the change gives (title, body, file name) and keeps the rest; `document: {}` empties it. */
export function updateReusableContentChange(state: BatchState, change: UpdateReusableContentChange): void {
  const at = findReusableContent(state, change.reusableContent);
  const contents = withKeptNames(state.tree.reusableContents);
  const next: TreeReusableContent = { ...contents[at]! };
  if (change.title !== undefined) next.title = checkIncludeTitle(change.title);
  if (change.name !== undefined) {
    checkIncludeName(contents, change.name, next.id);
    next.name = change.name;
  }
  if (change.document !== undefined) {
    const document = storeIncludeBody(state, includeBody(change.document));
    if (document === undefined) delete next.document;
    else next.document = document;
  }
  state.tree = { ...state.tree, reusableContents: contents.map((c, i) => (i === at ? next : c)) };
}
