import { branchOid, commitEdits, commitFiles } from '../../git/index.js';
import { DOCSYNC_AUTHOR } from '../author.js';

/**
 * Commits a remote snapshot on `refs/docsync/remote/<branch>` on top of `parent` (the last
 * synced commit), so the remote content has a commit the branch can merge and `syncedCommit`
 * can name. The keep-alive ref may point elsewhere after an earlier sync: it then starts again
 * from its current tip, with `parent` as a merge parent.
 */
export async function commitRemoteSnapshot(
  dir: string,
  branch: string,
  parent: string,
  files: ReadonlyMap<string, Uint8Array>,
  message: string,
): Promise<string> {
  const ref = `refs/docsync/remote/${branch}`;
  try {
    return await commitFiles(dir, { branch: ref, parent, files, message, author: DOCSYNC_AUTHOR });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ref-moved') throw error;
    const current = await branchOid(dir, ref);
    return commitFiles(dir, { branch: ref, parent: current, mergeParents: [parent], files, message, author: DOCSYNC_AUTHOR });
  }
}

/** As commitRemoteSnapshot, for a remote content that is `parent`'s with some files changed. */
export async function commitRemoteEdits(
  dir: string,
  branch: string,
  parent: string,
  edits: ReadonlyMap<string, Uint8Array | null>,
  message: string,
): Promise<string> {
  const ref = `refs/docsync/remote/${branch}`;
  const current = await branchOid(dir, ref);
  const base = { branch: ref, from: parent, edits, message, author: DOCSYNC_AUTHOR };
  return current === parent
    ? commitEdits(dir, { ...base, parent })
    : commitEdits(dir, { ...base, parent: current, mergeParents: [parent] });
}
