import type { Client } from '../../client/index.js';
import type { ChangeRequest } from '../../model/index.js';
import { branchOid, commitEdits, commitFiles, currentBranch, deleteBranch, log } from '../../git/index.js';
import { fetchContent, type FetchProgress } from '../remote/content.js';
import { knownContent, type KnownContent } from '../remote/known-content.js';
import { snapshotOf, type Snapshot } from '../remote/snapshot.js';
import { changeRequestBranch, remoteRef } from './branch-names.js';
import { DOCSYNC_AUTHOR } from '../author.js';
import type { BranchState } from '../state/state.js';
import type { WorkspaceProblem } from '../../workspace/index.js';

export interface TrackedChangeRequest {
  branch: string;
  state: BranchState;
  commit: string;
  problems: WorkspaceProblem[];
}

/** A change request's content, and its base's when the base is not main's synced revision. */
export interface FetchedChangeRequest {
  changeRequest: ChangeRequest;
  snapshot: Snapshot;
  base?: Snapshot;
}

export interface FetchChangeRequestOptions {
  /** Main's synced revision, or the promise of it while main is still being fetched. */
  mainRevision: string | Promise<string>;
  /** Bases being fetched, by revision: change requests on one base read it once. */
  bases?: Map<string, Promise<Snapshot>>;
  /** Gives each fetch (the change request's, its base's) its own progress callback. */
  progress?: () => (event: FetchProgress) => void;
  /** Bodies and files already held: not fetched again. */
  known?: KnownContent;
}

const baseRevisionOf = (cr: ChangeRequest) => cr.revisionMergedAncestor ?? cr.revisionInitial;

/**
 * Fetches what the branch of a change request is made of: its content, and its base's when
 * that is not main's revision (a base equal to main's is main's commit, not read again). The
 * two reads run at once; the base's starts once main's revision is known.
 */
export async function fetchChangeRequest(
  client: Client,
  spaceId: string,
  cr: ChangeRequest,
  options: FetchChangeRequestOptions,
): Promise<FetchedChangeRequest> {
  const bases = options.bases ?? new Map<string, Promise<Snapshot>>();
  const baseRevision = baseRevisionOf(cr);
  const base = async (): Promise<Snapshot | undefined> => {
    if ((await options.mainRevision) === baseRevision) return undefined;
    let fetched = bases.get(baseRevision);
    if (!fetched)
      bases.set(
        baseRevision,
        (fetched = fetchContent(client, { space: spaceId, revision: baseRevision }, options.progress?.(), options.known).then(snapshotOf)),
      );
    return fetched;
  };
  const [snapshot, baseSnapshot] = await Promise.all([
    fetchContent(client, { space: spaceId, changeRequest: cr.id }, options.progress?.(), options.known).then(snapshotOf),
    base(),
  ]);
  return { changeRequest: cr, snapshot, ...(baseSnapshot ? { base: baseSnapshot } : {}) };
}

/**
 * Makes the local branch `cr/<number>-<subject>` of a fetched change request: one commit with
 * its content, on top of a commit of its base (main's commit when there is no other base).
 */
export async function commitChangeRequest(
  dir: string,
  fetched: FetchedChangeRequest,
  main: { commit: string },
): Promise<TrackedChangeRequest> {
  const { changeRequest: cr, snapshot, base } = fetched;
  const parent =
    base === undefined
      ? main.commit
      : await commitFiles(dir, {
          branch: await clearedRef(dir, remoteRef(`base/${cr.number}`)),
          parent: null,
          files: base.files,
          message: `docsync: base of change request #${cr.number} (revision ${baseRevisionOf(cr)})`,
          author: DOCSYNC_AUTHOR,
        });
  const branch = changeRequestBranch(cr.number, cr.subject);
  await clearInterruptedBranch(dir, branch, cr.number);
  const commit = await commitFiles(dir, {
    branch,
    parent: null,
    mergeParents: [parent],
    files: snapshot.files,
    message: `docsync: change request #${cr.number} ${cr.subject} at revision ${snapshot.revision}`,
    author: DOCSYNC_AUTHOR,
  });
  return {
    branch,
    commit,
    problems: snapshot.problems,
    state: {
      changeRequestId: cr.id,
      changeRequestNumber: cr.number,
      remoteRevision: snapshot.revision,
      syncedCommit: commit,
      index: snapshot.index,
    },
  };
}

/**
 * A command killed after making a change request's branch and before recording it in the state
 * leaves the branch behind, and making it again would refuse (the branch must not exist). Such a
 * branch is docsync's own: its tip is docsync's one commit of this change request, nothing on
 * top. Only that is removed; any other branch of the name (a writer's) stays and the refusal
 * stands (test/cli/kill-commands.test.ts found it in pull).
 */
async function clearInterruptedBranch(dir: string, branch: string, number: number): Promise<void> {
  if ((await branchOid(dir, branch)) === null) return;
  // Checked out, it is where the writer works: never removed from under them.
  if ((await currentBranch(dir)) === branch) return;
  const [tip] = await log(dir, branch, 1);
  if (
    tip !== undefined &&
    tip.author.email === DOCSYNC_AUTHOR.email &&
    tip.message.startsWith(`docsync: change request #${number} `) &&
    tip.parents.length === 1
  )
    await deleteBranch(dir, branch);
}

/** docsync's own ref (never a writer's), removed when an interrupted command left it, so it is made anew. */
async function clearedRef(dir: string, ref: string): Promise<string> {
  if ((await branchOid(dir, ref)) !== null) await deleteBranch(dir, ref);
  return ref;
}

/** Fetches a change request and makes its branch, on main's synced revision and commit. */
export async function trackChangeRequest(
  client: Client,
  dir: string,
  spaceId: string,
  cr: ChangeRequest,
  main: { revision: string; commit: string },
): Promise<TrackedChangeRequest> {
  return commitChangeRequest(
    dir,
    await fetchChangeRequest(client, spaceId, cr, { mainRevision: main.revision, known: knownContent(dir) }),
    main,
  );
}

/**
 * The branch of a change request that holds main's synced revision (opened on the platform,
 * nothing written in it yet), made without reading its content: main's synced tree committed as
 * the change request's one commit, as commitChangeRequest would make it from the read, with
 * main's page index. A whole read costs a request per 1,000 pages and a commit of every file
 * (seconds in a 5,000-page space), and `docsync watch` makes the branch the moment the change
 * request is opened, before the edit that follows it. Undefined for any other change request.
 */
export async function trackAtMain(
  dir: string,
  cr: ChangeRequest,
  main: { revision: string; commit: string; index: BranchState['index'] },
): Promise<TrackedChangeRequest | undefined> {
  if (cr.revision !== main.revision || baseRevisionOf(cr) !== main.revision) return undefined;
  const branch = changeRequestBranch(cr.number, cr.subject);
  await clearInterruptedBranch(dir, branch, cr.number);
  const commit = await commitEdits(dir, {
    branch,
    parent: null,
    mergeParents: [main.commit],
    from: main.commit,
    edits: new Map(),
    message: `docsync: change request #${cr.number} ${cr.subject} at revision ${cr.revision}`,
    author: DOCSYNC_AUTHOR,
  });
  return {
    branch,
    commit,
    problems: [],
    state: { changeRequestId: cr.id, changeRequestNumber: cr.number, remoteRevision: cr.revision, syncedCommit: commit, index: main.index },
  };
}
