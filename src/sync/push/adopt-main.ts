import { isApiError, type Client } from '../../client/index.js';
import { isAncestor } from '../../git/index.js';
import type { ChangeRequest } from '../../model/index.js';
import { parseConflicts } from '../change-requests/conflicts.js';
import { SyncError } from '../errors.js';
import type { BranchState } from '../state/state.js';
import { clearAdopting, readAdopting, updateLanded, writeAdopting, type Adopting } from './adopting.js';
import { revertLanded } from './reverts-landed.js';

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
 * Each write (the update, the reverts, the give-back) is recorded before it is sent
 * (`.git/docsync/adopting/`, see Adopting), and the record stays when it fails in a way that
 * leaves its outcome unknown, for {@link adoptMainInPush}.
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
  const record: Adopting = { version: 1, changeRequestId: changeRequest.id, revision: changeRequest.revision, main: main.remoteRevision };
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
    // Recorded before it is sent: a lost answer is told by the head it makes (reverts-landed.ts).
    await writeAdopting(dir, {
      ...record,
      reverting: { pages, to: changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial },
    });
    const reverted = (await revert(client, spaceId, changeRequest.id, pages)).changeRequest.revision;
    return updateAfterReverts(client, dir, spaceId, changeRequest, {
      ...record,
      revision: reverted,
      reverted: { pages, held: record.revision },
    });
  }
}

/**
 * adoptMain as push calls it, also after an attempt that lost the answer to one of its writes
 * (or a push killed before it recorded the outcome), from the adopting record:
 * - a revert write pending: at a head that write made (reverts-landed.ts), adopting goes on from
 *   there (the update after the reverts, or the stop after giving the pages back); at the head it
 *   was sent on, it did not land and is sent again (giving back), or adopting starts over;
 * - the reverts landed: at their head, the update after them is sent again;
 * - at the head the update was sent on (or where the branch's state left it), main is brought in;
 *   at that update's result, main came in already and nothing is sent again.
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
  const at = changeRequest.revision;
  if (record?.reverting !== undefined) {
    const { reverting } = record;
    const landed = at !== record.revision && (await revertLanded(client, spaceId, at, record.revision, reverting));
    if (!landed && at !== record.revision) return false;
    if (reverting.stop !== undefined) {
      if (!landed) await revert(client, spaceId, changeRequest.id, reverting.pages, reverting.to);
      await clearAdopting(dir, changeRequest.id);
      throw new SyncError(reverting.stop.code, reverting.stop.message);
    }
    if (landed) {
      const { reverting: _sent, ...rest } = record;
      return resumeAfterReverts(client, dir, spaceId, changeRequest, {
        ...rest,
        revision: at,
        reverted: { pages: reverting.pages, held: record.revision },
      });
    }
  } else if (record?.reverted !== undefined && at === record.revision) {
    return resumeAfterReverts(client, dir, spaceId, changeRequest, { ...record, reverted: record.reverted });
  }
  if (at === base.remoteRevision || at === record?.revision) return adoptMain(client, dir, spaceId, main, head, changeRequest, base.index);
  return record !== undefined && (await updateLanded(client, spaceId, changeRequest, record));
}

type AfterReverts = Adopting & { reverted: NonNullable<Adopting['reverted']> };

/**
 * Main's update sent again at the head docsync's reverts made. Main must be where the record
 * says (the branch merged that head, not a later one): else the pages get back what they held
 * and the push stops, so the change request never keeps docsync's reverts.
 */
async function resumeAfterReverts(client: Client, dir: string, spaceId: string, changeRequest: ChangeRequest, record: AfterReverts) {
  if ((await client.spaces.get(spaceId)).revision === record.main) return updateAfterReverts(client, dir, spaceId, changeRequest, record);
  return giveBack(
    client,
    dir,
    spaceId,
    changeRequest,
    record,
    new SyncError(
      'remote-ahead',
      `main changed on the platform while it was being brought into change request #${changeRequest.number}, so the pages reverted for it were given back what they held; run docsync pull, merge main into the branch, then push`,
    ),
  );
}

/** The update after docsync's reverts; when it still conflicts, the pages are given back and the push stops. */
async function updateAfterReverts(client: Client, dir: string, spaceId: string, changeRequest: ChangeRequest, record: AfterReverts) {
  await writeAdopting(dir, record);
  try {
    await client.changeRequests.update(spaceId, changeRequest.id);
    return true;
  } catch (again) {
    if (!isApiError(again, 409)) throw again;
    // The reverts did not let main in: the pages get back what the change request held, so it
    // never keeps a revert docsync made (a later pull would take it for a reviewer's edit and
    // drop the writer's text from the branch too).
    return giveBack(
      client,
      dir,
      spaceId,
      changeRequest,
      record,
      new SyncError(
        'merge-conflicts',
        `change request #${changeRequest.number} still conflicts with main after its conflicting pages went back to its base, so they were given back what they held (${again.message}); run docsync pull, resolve, then push`,
      ),
    );
  }
}

/**
 * The reverted pages back to what the change request held before them, then the push stops with
 * `stop`; recorded before it is sent, with `stop`, so a lost answer ends the same way.
 */
async function giveBack(
  client: Client,
  dir: string,
  spaceId: string,
  changeRequest: ChangeRequest,
  record: AfterReverts,
  stop: SyncError,
): Promise<never> {
  const { pages, held } = record.reverted;
  await writeAdopting(dir, { ...record, reverting: { pages, to: held, stop: { code: stop.code, message: stop.message } } });
  await revert(client, spaceId, changeRequest.id, pages, held);
  await clearAdopting(dir, changeRequest.id);
  throw stop;
}

/** `revert_page` of each page, to the change request's base or to `revision`. */
const revert = (client: Client, spaceId: string, changeRequestId: string, pages: readonly string[], revision?: string) =>
  client.content.write(
    spaceId,
    changeRequestId,
    pages.map((page) => ({ operation: 'revert_page' as const, page, ...(revision !== undefined ? { revision } : {}) })),
  );

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
