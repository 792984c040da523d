import {
  MAX_GIT_FILE_BYTES,
  MAX_GIT_FILES,
  gitFilePathProblem,
  type ContentTree,
  type SetGitFileChange,
  type TreeGitFile,
} from '../../model/index.js';
import type { BatchState } from './state.js';
import { fail } from './types.js';

const encoder = new TextEncoder();

/** The tree with `files` as its folder files: sorted by path, the key absent when there are none. */
export function withGitFiles(tree: ContentTree, files: readonly TreeGitFile[]): ContentTree {
  const { gitFiles: _old, ...rest } = tree;
  if (files.length === 0) return rest;
  return { ...rest, gitFiles: [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/**
 * Stores, replaces or (`text: null`) removes one folder file. Its text is kept byte for byte, as
 * a document is (stored by sha, links not read); removing a path the tree does not hold changes nothing.
 */
export function setGitFileChange(state: BatchState, change: SetGitFileChange): void {
  const problem = gitFilePathProblem(change.path);
  if (problem) fail(`path ${problem}: ${JSON.stringify(change.path)}`);
  const others = (state.tree.gitFiles ?? []).filter((file) => file.path !== change.path);
  if (change.text === null) {
    if (others.length !== (state.tree.gitFiles ?? []).length) state.tree = withGitFiles(state.tree, others);
    return;
  }
  const size = encoder.encode(change.text).length;
  if (size > MAX_GIT_FILE_BYTES) fail(`text is larger than ${MAX_GIT_FILE_BYTES} bytes (${size})`);
  if (others.length >= MAX_GIT_FILES) fail(`a revision holds at most ${MAX_GIT_FILES} folder files`);
  const sha = state.ctx.hash(change.text);
  state.gitTexts.set(sha, change.text);
  state.tree = withGitFiles(state.tree, [...others, { path: change.path, document: sha }]);
}
