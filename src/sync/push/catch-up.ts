import type { Client } from '../../client/index.js';
import { checkoutPaths, commitFiles, readTreeFiles } from '../../git/index.js';
import { DOCSYNC_AUTHOR } from '../author.js';
import { sameBytes } from '../bytes.js';
import { SyncError } from '../errors.js';
import { mergeFiles } from '../pull/merge-files.js';
import { endPull, startPull } from '../pull/pulling.js';
import { journalHook } from './journal.js';
import { commitRemoteSnapshot } from '../remote/commit.js';
import { fetchContent } from '../remote/content.js';
import { knownContent } from '../remote/known-content.js';
import { placesOf, snapshotOf } from '../remote/snapshot.js';
import type { BranchState } from '../state/state.js';

export interface CaughtUp {
  /** Main on the platform as a synced point: what the push is now measured from. */
  base: BranchState;
  /** The branch's new head: its work with main's changes merged in. */
  head: string;
}

/**
 * A new branch started from a main the platform has moved on from (the space changed since the
 * branch's base). A change request starts from main as it is now, so the branch's changes must
 * be measured from there: main's changes since the base are merged into the branch three-way,
 * file by file and line by line as pull merges (a page only one side changed takes that side's
 * text), and the merge is committed on the branch with main's content as second parent, as
 * `git merge main` would. Where both changed the same lines nothing is written and the push
 * stops (exit 3), naming the files: the branch keeps its text, the platform its own.
 *
 * Invariant: the returned base is a commit of exactly main's content at `base.remoteRevision`,
 * and the returned head contains it, so the push sends only the branch's own changes.
 */
export async function catchUpWithMain(
  client: Client,
  dir: string,
  spaceId: string,
  branch: string,
  base: BranchState,
  head: string,
  checkedOut: boolean,
): Promise<CaughtUp> {
  const now = snapshotOf(await fetchContent(client, { space: spaceId }, undefined, knownContent(dir)), placesOf(base.index));
  const [baseFiles, ours] = await Promise.all([readTreeFiles(dir, base.syncedCommit), readTreeFiles(dir, head)]);
  const merged = mergeFiles(baseFiles, ours, now.files, { ours: branch, theirs: 'main' });
  if (merged.conflicts.length > 0) {
    throw new SyncError(
      'behind-main-conflicts',
      `${branch} and the platform's main changed the same lines since ${branch} was made from main; nothing was sent. Pull main, merge it into ${branch} (git merge main), resolve, then push`,
      merged.conflicts,
    );
  }
  const remoteCommit = await commitRemoteSnapshot(
    dir,
    branch,
    base.syncedCommit,
    now.files,
    `docsync: main at revision ${now.revision}, which ${branch} is pushed onto`,
  );
  const changed = [...new Set([...merged.files.keys(), ...ours.keys()])]
    .filter((path) => !sameBytes(merged.files.get(path), ours.get(path)))
    .sort();
  // Always a merge commit, even when main's changes leave the branch's files as they are: the
  // branch then contains main's commit, so the next push measures from it. Recorded before the
  // branch moves: a kill before the files follow is finished by the next command (pulling.ts).
  const follow = checkedOut && changed.length > 0;
  if (follow) await startPull(dir, branch, head);
  const merge = await commitFiles(dir, {
    branch,
    parent: head,
    mergeParents: [remoteCommit],
    files: merged.files,
    author: DOCSYNC_AUTHOR,
    message: `docsync: merge main at revision ${now.revision} into ${branch}, to push it\n\n${changed.join('\n')}\n`,
  });
  journalHook('caught-up', 0);
  if (follow) {
    await checkoutPaths(dir, merge, changed);
    await endPull(dir);
  }
  return { base: { remoteRevision: now.revision, syncedCommit: remoteCommit, index: now.index }, head: merge };
}
