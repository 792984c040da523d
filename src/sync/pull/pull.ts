import type { Client, ContentScope } from '../../client/index.js';
import { SyncError } from '../errors.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  branchOid,
  checkoutBranch,
  checkoutPaths,
  commitEdits,
  commitFiles,
  commitWorkingTree,
  currentBranch,
  diffTrees,
  isGitError,
  readBlob,
  readTreeFiles,
  workingTreeChanges,
  workingTreeChangesAt,
  type TreeChange,
} from '../../git/index.js';
import { sameBytes } from '../bytes.js';
import { fetchContent } from '../remote/content.js';
import { knownContent } from '../remote/known-content.js';
import { pushRecorded, readJournal } from '../push/journal.js';
import { isOpenedBy, readOpenings } from '../push/opening.js';
import { endPull, finishPull, startPull } from './pulling.js';
import { placesOf, snapshotOf, type Places, type Snapshot } from '../remote/snapshot.js';
import { commitRemoteEdits, commitRemoteSnapshot } from '../remote/commit.js';
import { changedPageFiles, readChangedPages, type ChangedPageFiles } from './changed-pages.js';
import { mergeFiles } from './merge-files.js';
import { keepDeletedEdited, type KeptFile } from './deleted-edited.js';
import { keepEndings } from './keep-endings.js';
import { followLocalRenames, followRemoteRenames, remotePlaceOf } from './follow-renames.js';
import { matchRenames } from '../push/rename-match.js';
import { folderPaths } from '../push/changed-files.js';
import { folderPrefix } from '../push/read.js';
import { remoteHead } from '../remote/heads.js';
import { DOCSYNC_AUTHOR } from '../author.js';
import { trackAtMain, trackChangeRequest } from '../change-requests/track.js';
import type { ChangeRequest } from '../../model/index.js';
import { isFollowed, readState, writeState, type BranchState, type WorkspaceState } from '../state/state.js';

export interface BranchPull {
  branch: string;
  /** Remote revision before and after; equal when nothing came. */
  from: string;
  to: string;
  /** Files the remote changed, as git names them. */
  changes: TreeChange[];
  /** Files left with conflict markers. */
  conflicts: string[];
  /** Files one side deleted and the other edited (the edit kept), or binary files both changed (ours kept): no markers. */
  kept?: KeptFile[];
  /** The commit that saved uncommitted edits before the pull, when there were any. */
  savedLocalEdits?: string;
  /** A new branch for a change request opened on the platform since the last sync. */
  created?: boolean;
  /**
   * The change request was merged or archived on the platform, or the git branch was deleted
   * (`deleted`, said by the one pull that finds it gone): pull stops following the branch.
   */
  closed?: 'merged' | 'archived' | 'deleted';
  /** An archived change request opened again on the platform: pull follows its branch again. */
  reopened?: boolean;
  /** `main` only: its outbox change request was merged or archived on the platform and is dropped. */
  outboxClosed?: 'merged' | 'archived';
}

export interface PullOptions {
  /**
   * Only these branches, and no new branches for change requests opened since the last sync:
   * what merge and update use to pull what they changed. @default every followed branch
   */
  branches?: readonly string[];
}

function selected(state: WorkspaceState, only: readonly string[] | undefined): string[] {
  if (only === undefined) return Object.keys(state.branches).filter((b) => isFollowed(state.branches[b]!));
  for (const branch of only) {
    const synced = state.branches[branch];
    if (!synced) throw new SyncError('no-branch', `branch ${branch} is not tracked by docsync`);
    if (!isFollowed(synced))
      throw new SyncError(
        'not-followed',
        `branch ${branch} is no longer followed (its change request is ${synced.closed}); run docsync cr open ${branch} to follow it again`,
      );
  }
  return [...only];
}

const closedBy = (status: string | undefined) => (status === 'merged' || status === 'archived' ? status : undefined);

/**
 * Brings every followed branch (or only `options.branches`) to its remote head. The remote
 * content becomes a commit on top of the last synced one; local commits are merged with it
 * three-way (the last synced content is the base), file by file and line by line. Uncommitted
 * edits on the checked-out branch are committed first, so nothing local is ever overwritten
 * without being recoverable with git. Conflicting lines are left with git-style markers.
 * A branch whose change request was merged or archived on the platform is pulled one last time
 * and then no longer followed; one opened again is followed again.
 */
export async function pull(client: Client, dir: string, options: PullOptions = {}): Promise<BranchPull[]> {
  const state = await readState(dir);
  await finishPull(dir);
  const checkedOut = await currentBranch(dir);
  const results: BranchPull[] = [];
  for (const branch of selected(state, options.branches)) results.push(await pullBranch(client, dir, state, branch, checkedOut));
  if (options.branches === undefined) results.push(...(await followOpened(client, dir, state, checkedOut)));
  return results;
}

async function pullBranch(
  client: Client,
  dir: string,
  state: WorkspaceState,
  branch: string,
  checkedOut: string | null,
): Promise<BranchPull> {
  const synced = state.branches[branch]!;
  if (branch !== 'main' && (await branchOid(dir, branch)) === null) {
    // The writer deleted the branch (git branch -D): no longer followed, said once; the change
    // request stays on the platform, and docsync cr open makes the branch again.
    state.branches[branch] = { ...synced, closed: 'deleted' };
    await writeState(dir, state);
    return { branch, from: synced.remoteRevision, to: synced.remoteRevision, changes: [], conflicts: [], closed: 'deleted' };
  }
  const spaceId = state.binding.spaceId;
  const head = await remoteHead(client, spaceId, synced);
  const closed = closedBy(head.status);
  // Main's outbox: its change request may have been merged or closed, or edited, on the platform.
  const outboxHead = synced.outbox?.changeRequestId !== undefined ? await remoteHead(client, spaceId, synced.outbox) : undefined;
  const outboxClosed = closedBy(outboxHead?.status);
  // A push in flight to the outbox (its journal still there: killed mid-push) moved it itself;
  // resuming that push brings it in line, so it is not a reviewer's edit to merge.
  const journal = await readJournal(dir, branch);
  const pushInFlight =
    journal !== undefined && journal.changeRequestId === synced.outbox?.changeRequestId && !pushRecorded(journal, synced.outbox);
  const outboxMoved =
    outboxHead !== undefined && outboxClosed === undefined && outboxHead.revision !== synced.outbox!.remoteRevision && !pushInFlight;
  const done = async (next: BranchState, result: BranchPull): Promise<BranchPull> => {
    state.branches[branch] = closed ? { ...next, closed } : next;
    if (closed || next !== synced) await writeState(dir, state);
    return closed ? { ...result, closed } : result;
  };
  if (head.revision === synced.remoteRevision && !outboxMoved && outboxClosed === undefined) {
    return done(synced, { branch, from: synced.remoteRevision, to: head.revision, changes: [], conflicts: [] });
  }
  if ((await branchOid(dir, branch)) === null)
    throw new SyncError('no-branch', `branch ${branch} is tracked by docsync but missing from the repository`);
  // A platform edit of pages' own files only (a server with `changed-pages` says so): the pull
  // reads and writes just those files, and looks for uncommitted edits at those files alone.
  let changed =
    !outboxMoved && outboxClosed === undefined ? await changedPageFiles(client, dir, spaceId, synced, head.revision) : undefined;
  let savedLocalEdits: string | undefined;
  if (branch === checkedOut) {
    const paths = new Set(changed?.pages.map((page) => page.path) ?? []);
    // Without git's fast paths (DOCSYNC_GIT_FAST_PATHS=off) the look at a few paths is not
    // available: the whole walk, kept to those paths, gives the same answer.
    const touched = changed
      ? ((await workingTreeChangesAt(dir, [...paths])) ?? (await workingTreeChanges(dir)).filter((change) => paths.has(change.path)))
      : null;
    // Edits elsewhere stay uncommitted, as a git merge leaves them: the pull does not touch those files.
    if (touched === null ? (await workingTreeChanges(dir)).length > 0 : touched.length > 0) {
      savedLocalEdits =
        (await commitWorkingTree(dir, { message: 'docsync: save local edits before pulling', author: DOCSYNC_AUTHOR })) ?? undefined;
      changed = undefined;
    }
  }
  const before = (await branchOid(dir, branch))!;
  if (branch === checkedOut) await startPull(dir, branch, before);
  // Pages stay in the files the branch has them in (hand-placed ones included): as last synced,
  // else as main's outbox had them (its pages are main's once merged), else as another branch has them.
  // Read when a whole revision is written: every branch's index is read for it.
  const places = () =>
    placesOf(
      synced.outbox?.index,
      synced.index,
      ...Object.values(state.branches)
        .filter((b) => b !== synced)
        .flatMap((b) => [b.index, b.outbox?.index]),
    );

  let next: BranchState = synced;
  const changes: TreeChange[] = [];
  const conflicts: string[] = [];
  const kept: KeptFile[] = [];
  if (head.revision !== synced.remoteRevision || outboxClosed !== undefined) {
    // Main's outbox merged on the platform: what the push sent is in main now, and the branch
    // holds it, so it is the base (a later local edit of a pushed line is no conflict with it).
    const base = outboxClosed === 'merged' ? synced.outbox!.syncedCommit : synced.syncedCommit;
    const baseIndex = outboxClosed === 'merged' ? synced.outbox!.index : synced.index;
    const merged = await mergeRemote(client, dir, branch, head.scope, {
      synced: synced.syncedCommit,
      base,
      baseIndex,
      places,
      label: branch,
      ...(changed && outboxClosed === undefined ? { changed: { pages: changed, state: synced } } : {}),
    });
    changes.push(...merged.changes);
    conflicts.push(...merged.conflicts);
    kept.push(...merged.kept);
    const { outbox: _outbox, ...rest } = synced;
    next = {
      ...(outboxClosed !== undefined ? rest : synced),
      remoteRevision: merged.snapshot.revision,
      syncedCommit: merged.remoteCommit,
      pulledCommit: merged.remoteCommit,
      index: merged.snapshot.index,
    };
  }
  if (outboxMoved) {
    // Main's change request was edited on the platform (a reviewer): its edits come into main,
    // so the next push of main starts from what the change request holds.
    const outbox = synced.outbox!;
    const merged = await mergeRemote(client, dir, branch, outboxHead.scope, {
      synced: outbox.syncedCommit,
      base: outbox.syncedCommit,
      baseIndex: outbox.index,
      places,
      label: `${branch} (change request #${outbox.changeRequestNumber ?? 0})`,
    });
    changes.push(...merged.changes);
    conflicts.push(...merged.conflicts.filter((path) => !conflicts.includes(path)));
    kept.push(...merged.kept.filter((k) => !kept.some((e) => e.path === k.path)));
    next = {
      ...next,
      outbox: {
        ...outbox,
        remoteRevision: merged.snapshot.revision,
        syncedCommit: merged.remoteCommit,
        pulledCommit: merged.remoteCommit,
        index: merged.snapshot.index,
      },
    };
  }
  if (branch === checkedOut) {
    await checkoutPulled(dir, branch, before, (await branchOid(dir, branch))!);
    await endPull(dir);
  }
  return done(next, {
    branch,
    from: synced.remoteRevision,
    to: next.remoteRevision,
    changes,
    conflicts,
    ...(kept.length > 0 ? { kept } : {}),
    ...(savedLocalEdits ? { savedLocalEdits } : {}),
    ...(outboxClosed !== undefined ? { outboxClosed } : {}),
  });
}

interface RemoteMerge {
  snapshot: Snapshot;
  remoteCommit: string;
  changes: TreeChange[];
  conflicts: string[];
  kept: KeptFile[];
}

/**
 * Brings one remote scope into a branch: its content becomes a commit on
 * `refs/docsync/remote/<branch>` on top of `synced`, which the branch then merges three-way
 * against `base` (the content both sides last had in common), file by file and line by line.
 */
async function mergeRemote(
  client: Client,
  dir: string,
  branch: string,
  scope: ContentScope,
  options: {
    synced: string;
    base: string;
    baseIndex: BranchState['index'];
    /** Each page's file (see placesOf), when a whole revision is written. */
    places: () => Places;
    label: string;
    /** Only these pages' files changed on the platform since `synced` (see changedPageFiles). */
    changed?: { pages: ChangedPageFiles; state: BranchState };
  },
): Promise<RemoteMerge> {
  const ours = (await branchOid(dir, branch))!;
  if (options.changed !== undefined && options.base === options.synced && !(await hasLocalWork(dir, options.base, ours))) {
    return pullPages(client, dir, branch, scope.space, ours, options.synced, options.changed);
  }
  const fetched = snapshotOf(await fetchContent(client, scope, undefined, knownContent(dir)), options.places());
  const snapshot = { ...fetched, files: await keepEndings(dir, ours, fetched.files) };
  const message = `docsync: remote ${options.label} at revision ${snapshot.revision}`;
  const remoteCommit = await commitRemoteSnapshot(dir, branch, options.synced, snapshot.files, message);
  const changes = await diffTrees(dir, options.synced, remoteCommit);
  if (!(await hasLocalWork(dir, options.base, ours))) {
    await commitFiles(dir, {
      branch,
      parent: ours,
      mergeParents: [remoteCommit],
      files: snapshot.files,
      message: `docsync: pull revision ${snapshot.revision}`,
      author: DOCSYNC_AUTHOR,
    });
    return { snapshot, remoteCommit, changes, conflicts: [], kept: [] };
  }
  const read = [await readTreeFiles(dir, options.base), await readTreeFiles(dir, ours)] as const;
  const { base: baseFiles, ours: ourFiles } = followRemoteRenames(
    read[0],
    read[1],
    options.baseIndex,
    snapshot.index,
    folderPrefix(read[1]),
  );
  // The branch's own renames, as push pairs them: the platform's edits follow the page to its new file.
  const summary = folderPaths(read[1]).summary;
  const renames = matchRenames(await diffTrees(dir, options.base, ours), read[0], read[1], summary).flatMap((c) =>
    c.status === 'renamed' && /\.md$/i.test(c.to) && c.to !== summary ? [{ from: c.from, to: c.to }] : [],
  );
  const { base: mergeBase, theirs } = followLocalRenames(
    baseFiles,
    ourFiles,
    snapshot.files,
    renames,
    remotePlaceOf(options.baseIndex, snapshot.index, folderPrefix(read[1])),
  );
  const merged = keepDeletedEdited(mergeBase, ourFiles, theirs, mergeFiles(mergeBase, ourFiles, theirs));
  const { conflicts, kept } = merged;
  const notes = [
    ...(conflicts.length > 0 ? [`with conflicts in ${conflicts.join(', ')}`] : []),
    ...kept.map((k) => `${k.path} ${k.what}, kept`),
  ];
  const text = `docsync: merge remote revision ${snapshot.revision}${notes.length > 0 ? `, ${notes.join('; ')}` : ''}`;
  await commitFiles(dir, {
    branch,
    parent: ours,
    mergeParents: [remoteCommit],
    files: merged.files,
    message: text,
    author: DOCSYNC_AUTHOR,
  });
  return { snapshot, remoteCommit, changes, conflicts, kept };
}

/**
 * Whether the branch (`ours`) holds work of its own since `base`. None when the branch holds the
 * base: after an earlier pull its commit is a merge on top of the synced one, with the same tree
 * (compared without reading a file).
 */
async function hasLocalWork(dir: string, base: string, ours: string): Promise<boolean> {
  return ours !== base && (await diffTrees(dir, base, ours, { renames: false })).length > 0;
}

/**
 * The pull of a platform edit of some pages' own files into a branch without work of its own:
 * those pages are read (one request each) and their files written on top of the synced commit
 * (the remote commit) and of the branch, at the cost of the change, with the synced index as it
 * was (the tree's shape did not change). What a read of the whole revision would give, file for file.
 */
async function pullPages(
  client: Client,
  dir: string,
  branch: string,
  spaceId: string,
  ours: string,
  synced: string,
  changed: { pages: ChangedPageFiles; state: BranchState },
): Promise<RemoteMerge> {
  const { revision } = changed.pages;
  const files = await readChangedPages(client, dir, spaceId, changed.pages, changed.state, ours);
  const remoteCommit = await commitRemoteEdits(dir, branch, synced, files, `docsync: remote ${branch} at revision ${revision}`);
  const changes = await diffTrees(dir, synced, remoteCommit);
  await commitEdits(dir, {
    branch,
    parent: ours,
    mergeParents: [remoteCommit],
    from: ours,
    edits: files,
    message: `docsync: pull revision ${revision}`,
    author: DOCSYNC_AUTHOR,
  });
  const snapshot: Snapshot = { revision, files, index: changed.state.index, problems: [] };
  return { snapshot, remoteCommit, changes, conflicts: [], kept: [] };
}

/**
 * Up to this many files a pull changed are written and staged one by one (checkoutPaths, about
 * 20 ms each in a 5,000-file workspace, most of it the index); beyond, a checkout of the whole
 * branch (0.5 to 0.7 s there) costs less.
 */
const CHECKOUT_PATHS_MAX = 25;

/**
 * Brings what the pull changed on the checked-out branch (`ours` to `pulled`) into the working
 * tree and the index, so the cost follows the change, not the size of the space. Local edits
 * were committed in `ours` before the pull began: a file whose bytes on disk are no longer
 * `ours`' was edited while the pull ran, and is left as it is, never overwritten (a checkout of
 * the whole branch refuses to overwrite it too; the files are then written one by one).
 */
async function checkoutPulled(dir: string, branch: string, ours: string, pulled: string): Promise<void> {
  const unedited: string[] = [];
  for (const change of await diffTrees(dir, ours, pulled, { renames: false })) {
    const onDisk = await readFile(join(dir, change.path)).catch(() => undefined);
    const committed = change.status === 'added' ? undefined : await readBlob(dir, change.oldOid);
    if (sameBytes(onDisk, committed)) unedited.push(change.path);
  }
  if (unedited.length > CHECKOUT_PATHS_MAX) {
    try {
      return await checkoutBranch(dir, branch);
    } catch (error) {
      if (!isGitError(error, 'dirty-working-tree')) throw error;
    }
  }
  await checkoutPaths(dir, pulled, unedited);
}

/**
 * Change requests open on the platform that pull does not follow: a new one gets its branch; an
 * archived one opened again is followed again from its last synced state, then pulled.
 */
async function followOpened(client: Client, dir: string, state: WorkspaceState, checkedOut: string | null): Promise<BranchPull[]> {
  const main = state.branches.main;
  if (!main) return [];
  const byId = new Map(
    Object.entries(state.branches)
      .filter(([, b]) => b.changeRequestId !== undefined)
      .map(([name, b]) => [b.changeRequestId!, name]),
  );
  // Main's outbox change request holds main's own commits (push.ts): no branch of its own.
  const outboxes = new Set(Object.values(state.branches).flatMap((b) => (b.outbox?.changeRequestId ? [b.outbox.changeRequestId] : [])));
  // A change request a push is opening (its answer lost, or the push killed before it recorded
  // it) is that push's: the push takes it when it goes on.
  const openings = await readOpenings(dir);
  const open: ChangeRequest[] = [];
  for await (const cr of client.changeRequests.list(state.binding.spaceId, { status: 'open' })) {
    if (outboxes.has(cr.id)) continue;
    const known = byId.get(cr.id);
    if (known === undefined && openings.some((opening) => isOpenedBy(cr, opening))) continue;
    // A branch the writer deleted stays unfollowed until cr open: its change request is still open.
    if (known === undefined || (!isFollowed(state.branches[known]!) && state.branches[known]!.closed !== 'deleted')) open.push(cr);
  }
  const results: BranchPull[] = [];
  for (const cr of open) {
    const known = byId.get(cr.id);
    if (known !== undefined) {
      const { closed: _closed, ...followed } = state.branches[known]!;
      state.branches[known] = followed;
      await writeState(dir, state);
      results.push({ ...(await pullBranch(client, dir, state, known, checkedOut)), reopened: true });
      continue;
    }
    // Opened on the platform with nothing written yet (what watch sees first): main's tree, no read.
    const added =
      (await trackAtMain(dir, cr, { revision: main.remoteRevision, commit: main.syncedCommit, index: main.index })) ??
      (await trackChangeRequest(client, dir, state.binding.spaceId, cr, {
        revision: main.remoteRevision,
        commit: main.syncedCommit,
      }));
    state.branches[added.branch] = added.state;
    await writeState(dir, state);
    results.push({ branch: added.branch, from: '', to: added.state.remoteRevision, changes: [], conflicts: [], created: true });
  }
  return results;
}
