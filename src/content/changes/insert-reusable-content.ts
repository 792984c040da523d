import type { InsertReusableContentChange, TreeReusableContent } from '../../model/index.js';
import { includeNames, newIncludeName } from '../tree/include-names.js';
import { checkIncludeName, checkIncludeTitle, includeBody, storeIncludeBody, withKeptNames } from './reusable-contents.js';
import type { BatchState } from './state.js';

/**
 * Adds a reusable content after the others. Its file is `name`, else `slugify(title).md` made
 * unique among the files of the others; either way the name is kept from now on.
 */
export function insertReusableContentChange(state: BatchState, change: InsertReusableContentChange): void {
  const title = checkIncludeTitle(change.title);
  const contents = withKeptNames(state.tree.reusableContents);
  if (change.name !== undefined) checkIncludeName(contents, change.name, undefined);
  const name = change.name ?? newIncludeName(title, includeNames(contents));
  const document = storeIncludeBody(state, includeBody(change.document));
  const content: TreeReusableContent = { id: state.ctx.newId(), title, name, ...(document !== undefined ? { document } : {}) };
  state.tree = { ...state.tree, reusableContents: [...contents, content] };
  state.insertedReusableContents.push(content);
}
