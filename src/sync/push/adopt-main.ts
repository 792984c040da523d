import { isApiError, type Client } from '../../client/index.js';
import { isAncestor } from '../../git/index.js';
import type { ChangeRequest } from '../../model/index.js';
import { parseConflicts } from '../change-requests/conflicts.js';
import { SyncError } from '../errors.js';
import type { BranchState } from '../state/state.js';
import { clearAdopting, readAdopting, updateLanded, writeAdopting } from './adopting.js';

/**
 * A branch whose writer merged main into it the git way (`git merge main`, conflicts resolved,
 * committed) holds main's content with the resolution; its change request still starts from an
 * older main, so merging it would meet the same conflicts again. Brings main into the change
 * request first, through the API's update: when the update conflicts, the conflicting pages go
 * back to the change request's base (`revert_page`) so that it goes through, and the push that
 * follows (comparing the whole branch with the change request) sends the writer's resolution of
 * those pages. True when the change request moved: the caller then compares the whole branch.
 *
 * Only for a branch that contains main's last synced commit while main is synced with the
 * space's head, and a change request holding nothing the branch has not pulled.
 *
 * The update is recorded before it is sent (`.git/docsync/adopting/`, see Adopting), and the
 * record stays when it fails in a way that leaves its outcome unknown, for {@link adoptMainInPush}.
 */
export async function adoptMain(
  client: Client,
  dir: string,
  spaceId: string,
  main: BranchState | undefined,
  head: string,
  changeRequest: ChangeRequest,
  /** The branch's last synced index: what the change request holds, by file. */
  branchIndex?: BranchState['index'],
): Promise<boolean> {
  if (main === undefined || !changeRequest.outdated) return false;
  if (!(await isAncestor(dir, main.syncedCommit, head))) return false;
  if ((await client.spaces.get(spaceId)).revision !== main.remoteRevision) return false;
  const record = { version: 1, changeRequestId: changeRequest.id, revision: changeRequest.revision, main: main.remoteRevision } as const;
  await writeAdopting(dir, record);
  try {
    await client.changeRequests.update(spaceId, changeRequest.id);
    return true;
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
    const conflicts = parseConflicts(error.message);
    if (conflicts.length === 0 || conflicts.some((c) => c.kind !== 'page')) {
      await clearAdopting(dir, changeRequest.id);
      return false;
    }
    const pages = [...new Set(conflicts.map((c) => (c.reason === DUPLICATE_SLUG ? ownPage(c.id, main.index, branchIndex) : c.id)))];
    const revert = (revision?: string) =>
      client.content.write(
        spaceId,
        changeRequest.id,
        pages.map((page) => ({ operation: 'revert_page' as const, page, ...(revision !== undefined ? { revision } : {}) })),
      );
    // The update goes on from the reverts' revision: a lost answer to it is told by that parent.
    const reverted = (await revert()).changeRequest?.revision;
    if (reverted !== undefined) await writeAdopting(dir, { ...record, revision: reverted });
    try {
      await client.changeRequests.update(spaceId, changeRequest.id);
    } catch (again) {
      if (!isApiError(again, 409)) throw again;
      await clearAdopting(dir, changeRequest.id);
      // The reverts did not let main in: the pages get back what the change request held, so it
      // never keeps a revert docsync made (a later pull would take it for a reviewer's edit and
      // drop the writer's text from the branch too).
      await revert(changeRequest.revision);
      throw new SyncError(
        'merge-conflicts',
        `change request #${changeRequest.number} still conflicts with main after its conflicting pages went back to its base, so they were given back what they held (${again.message}); run docsync pull, resolve, then push`,
      );
    }
    return true;
  }
}

/**
 * adoptMain as push calls it, also after an attempt whose update's answer was lost (or a push
 * killed before it recorded the outcome): with the change request where the branch's state left
 * it, or at the head an earlier update was sent on (docsync's reverts landed, the update did not),
 * main is brought in; at that update's result, main came in already and nothing is sent again.
 * Any other head is not docsync's doing: false, and the push refuses it as before.
 * @returns true when main came into the change request.
 */
export async function adoptMainInPush(
  client: Client,
  dir: string,
  spaceId: string,
  main: BranchState | undefined,
  head: string,
  changeRequest: ChangeRequest,
  base: BranchState,
): Promise<boolean> {
  const record = await readAdopting(dir, changeRequest.id);
  if (changeRequest.revision === base.remoteRevision || changeRequest.revision === record?.revision)
    return adoptMain(client, dir, spaceId, main, head, changeRequest, base.index);
  return record !== undefined && (await updateLanded(client, spaceId, changeRequest, record));
}

/** The server's reason for two pages of one slug under one parent (src/server/revisions/merge-revisions.ts). */
const DUPLICATE_SLUG = 'another page under the same parent has its slug';

/**
 * The change request's page to revert for a conflict on `id`. Two pages given one slug by the
 * update (the branch pushed a page main had not yet sent, then main sent its own copy of that
 * file) are reported on whichever the merge meets second; when that is main's page, which the
 * change request does not hold, the one to revert is the change request's page in the same file.
 */
function ownPage(id: string, mainIndex: BranchState['index'] | undefined, branchIndex: BranchState['index'] | undefined): string {
  if (mainIndex === undefined || branchIndex === undefined || Object.values(branchIndex.pages).includes(id)) return id;
  const path = Object.entries(mainIndex.pages).find(([, page]) => page === id)?.[0];
  const own = path === undefined ? undefined : branchIndex.pages[path];
  return own ?? id;
}
