import { ApiError, ConnectionError, type Client } from '../../client/index.js';
import { countPages, walkPages } from '../../content/index.js';
import type { ChangeRequest, ContentChange } from '../../model/index.js';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  branchOid,
  commitEdits,
  commitWorkingTree,
  currentBranch,
  diffTrees,
  log,
  mergeBase,
  readTreeFiles,
  workingTreeChanges,
  type TreeChange,
} from '../../git/index.js';
import { DOCSYNC_AUTHOR } from '../author.js';
import { SyncError } from '../errors.js';
import { catchUpWithMain } from './catch-up.js';
import { clearJournal, createdPlaces, pushRecorded, readJournal, type PushJournal } from './journal.js';
import { clearOpening, isTransient, openChangeRequest } from './opening.js';
import { finishPull } from '../pull/pulling.js';
import { planPush, type PushPlan } from './plan/plan.js';
import { folderPrefix, readPushSides, renamedIndex, toIndex, type SkippedFile } from './read.js';
import type { WorkspaceIndex } from '../../workspace/index.js';
import { folderPaths, readChangedFiles, type ChangedFiles } from './changed-files.js';
import { adaptPlan } from './extensions.js';
import { pageEditSides } from './page-edits.js';
import { fetchContent } from '../remote/content.js';
import { knownContent } from '../remote/known-content.js';
import { readBack } from './read-back.js';
import { refuseUndoingRemote } from './undo-check.js';
import { adoptMainInPush } from './adopt-main.js';
import { clearAdopting } from './adopting.js';
import { withLf } from '../line-endings.js';
import { matchRenames } from './rename-match.js';
import type { UnsentLink } from './lost-links.js';
import { batchesOf, sendBatches } from './send-batches.js';
import { placesOf, snapshotOf } from '../remote/snapshot.js';
import { readState, writeState, type BranchState, type WorkspaceState } from '../state/state.js';

export interface PushOptions {
  /** The branch to push; the checked-out one when absent. */
  branch?: string;
  /** Subject of a change request the push opens. */
  subject?: string;
  /** Subject when neither `subject` nor an own commit message (one not starting `docsync:`) gives one. @default the branch name */
  defaultSubject?: string;
  /** Plan only: nothing is committed, opened or sent. */
  dryRun?: boolean;
  /**
   * Commit uncommitted edits of the checked-out branch first. The daemon, which commits saves
   * itself once they have settled, turns it off: a save still being written is not pushed. @default true
   */
  commitWorkingTree?: boolean;
  /** Allow a push that deletes more than half of the pages, or all of them. */
  allowMassDelete?: boolean;
  /** Push even when the branch no longer holds platform changes a pull brought in (after a git reset): the push undoes them. */
  force?: boolean;
  onProgress?: (event: { stage: string; done: number; total: number }) => void;
}

export interface PushResult {
  branch: string;
  changeRequest?: { id: string; number: number; url: string; opened: boolean };
  /** The page operations planned (and, unless a dry run, sent). */
  changes: ContentChange[];
  counts: PushPlan['counts'];
  batches: number;
  /** The change request's head after the push. */
  revision?: string;
  /** Files the server stored in another form, committed on the branch as the server has them. */
  normalised: string[];
  /** Files not sent, and why. */
  skipped: SkippedFile[];
  /** `.md` files the branch added or changed that SUMMARY.md does not list: not pages, so not sent (a warning, not an error). */
  unlisted: SkippedFile[];
  /** Links and images the platform did not store (a page not written yet, a missing or unsent asset): kept in the writer's file. */
  unsentLinks: UnsentLink[];
  /** Assets deleted locally that the API cannot delete. */
  undeletableFiles: string[];
  /** The push finished one a killed run had begun. */
  resumed: boolean;
  dryRun: boolean;
  /** The commit that saved uncommitted edits first, when there were any. */
  savedLocalEdits?: string;
}

/** Where a branch's push goes and what it is compared with. */
interface Target {
  /** The synced change request, when the branch has one. */
  entry?: BranchState;
  /** What the branch's changes are measured from. */
  base: BranchState;
  save: (state: WorkspaceState, entry: BranchState) => void;
}

function targetOf(state: WorkspaceState, branch: string): Target {
  const main = state.branches.main;
  if (branch === 'main') {
    if (!main) throw new SyncError('no-branch', 'main is not tracked by docsync (clone the space again)');
    return {
      ...(main.outbox ? { entry: main.outbox } : {}),
      base: main.outbox ?? main,
      save: (s, entry) => {
        s.branches.main = { ...s.branches.main!, outbox: entry };
      },
    };
  }
  const entry = state.branches[branch];
  const save = (s: WorkspaceState, next: BranchState) => {
    s.branches[branch] = next;
  };
  if (entry) return { entry, base: entry, save };
  if (!main) throw new SyncError('no-branch', 'main is not tracked by docsync (clone the space again)');
  return { base: main, save };
}

/** The first own commit message since `base`, for the subject of a new change request. */
async function firstMessage(dir: string, branch: string, base: string): Promise<string | undefined> {
  const commits = await log(dir, branch, 500);
  const own: string[] = [];
  for (const commit of commits) {
    if (commit.oid === base) break;
    if (!commit.message.startsWith('docsync:')) own.push(commit.message.split('\n')[0]!.trim());
  }
  return own.at(-1) || undefined;
}

/** Attempts of one push when the network fails it (each after the client's own retries). */
export const PUSH_ATTEMPTS = 4;

/**
 * Sends a branch's changes since its last sync to its change request, opening one when the
 * branch has none (commits on `main` go to main's outbox change request). The diff of the
 * synced tree and the branch becomes page operations (see `planPush`), sent in batches through
 * the journal; then the stored result is read back and, where the server normalised a file,
 * committed on the branch so the next diff is empty.
 *
 * A push the network fails half-way (no answer, a cut answer, a gateway error: the batch may have
 * landed) goes on as a push killed there and run again would: from the journal, which tells a
 * batch that landed from one that did not by the change request's head, and from the opening
 * record for a change request whose answer was lost. At most {@link PUSH_ATTEMPTS} attempts.
 */
export async function push(client: Client, dir: string, options: PushOptions = {}): Promise<PushResult> {
  // The commit of uncommitted edits an attempt made: a later attempt finds none, yet reports it.
  const saved: { commit?: string } = {};
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await pushOnce(client, dir, options, saved);
      return saved.commit !== undefined && result.savedLocalEdits === undefined ? { ...result, savedLocalEdits: saved.commit } : result;
    } catch (error) {
      if (options.dryRun || !isTransient(error)) throw error;
      if (attempt >= PUSH_ATTEMPTS) throw gaveUp(error as ApiError | ConnectionError, attempt);
      options.onProgress?.({ stage: 'resuming', done: attempt, total: PUSH_ATTEMPTS });
    }
  }
}

/** The last failure, saying the push stopped for good and how it goes on. */
function gaveUp(error: ApiError | ConnectionError, attempts: number): Error {
  const note = ` (push gave up after ${attempts} attempts; run it again: it resumes where it stopped)`;
  const out =
    error instanceof ApiError
      ? new ApiError(error.status, error.message + note, {
          ...(error.request !== undefined ? { request: error.request } : {}),
          ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}),
        })
      : new ConnectionError(error.request, error.causeCode, error.message.slice(error.request.length + 2) + note, error.cause);
  return out;
}

async function pushOnce(client: Client, dir: string, options: PushOptions, saved: { commit?: string }): Promise<PushResult> {
  const state = await readState(dir);
  const checkedOut = await currentBranch(dir);
  const branch = options.branch ?? checkedOut;
  if (branch === null || branch === undefined)
    throw new SyncError('no-branch', 'HEAD is detached: check out a branch, or name one (docsync push BRANCH)');
  if ((await branchOid(dir, branch)) === null) throw new SyncError('no-branch', `there is no branch ${branch} in ${dir}`);
  const spaceId = state.binding.spaceId;
  // A pull killed before the files held what it pulled: they are not edits to push.
  await finishPull(dir);

  let savedLocalEdits: string | undefined;
  const uncommitted = !options.dryRun && options.commitWorkingTree !== false && branch === checkedOut ? await workingTreeChanges(dir) : [];
  if (uncommitted.length > 0) {
    const changed = uncommitted.map((c) => c.path);
    savedLocalEdits =
      (await commitWorkingTree(dir, {
        message: `docsync: local edits to ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''}`,
        author: DOCSYNC_AUTHOR,
      })) ?? undefined;
    if (savedLocalEdits !== undefined) saved.commit = savedLocalEdits;
  }
  let head = (await branchOid(dir, branch))!;
  // A dry run commits nothing, but plans what the push would send: uncommitted edits included,
  // from a commit of them that no branch points at.
  if (options.dryRun && options.commitWorkingTree !== false && branch === checkedOut) head = await uncommittedCommit(dir, head);

  let target = targetOf(state, branch);
  const journal = await readJournal(dir, branch);
  let changeRequest: ChangeRequest | undefined;
  if (target.entry?.changeRequestId !== undefined) {
    changeRequest = await client.changeRequests.get(spaceId, target.entry.changeRequestId);
    if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
      if (branch !== 'main') {
        throw new SyncError(
          'change-request-closed',
          `change request #${changeRequest.number} of ${branch} is ${changeRequest.status}; reopen it (docsync cr open ${branch}) or push from a new branch`,
        );
      }
      // main's outbox was merged or archived: later commits on main open a new one.
      delete state.branches.main!.outbox;
      await writeState(dir, state);
      target = targetOf(state, branch);
      changeRequest = undefined;
    }
  }
  // Killed after recording the change request it opened, before removing the opening record.
  if (target.entry?.changeRequestId !== undefined) await clearOpening(dir, branch);
  // A journal of another change request, or of a push that recorded its result (killed before
  // removing the journal), is not a push in flight: resumed, it would send nothing and read back
  // the server's older form over the commits made since.
  const inFlight =
    journal !== undefined &&
    changeRequest !== undefined &&
    journal.changeRequestId === changeRequest.id &&
    !pushRecorded(journal, target.base);
  if (journal !== undefined && !inFlight) await clearJournal(dir, branch);
  const resuming = inFlight ? journal : undefined;

  // main merged into the branch the git way: main comes into the change request first, so that
  // the branch's resolution is what the change request holds, and it can be merged.
  let adopted = false;
  if (!resuming && !options.dryRun && branch !== 'main' && changeRequest !== undefined) {
    adopted = await adoptMainInPush(client, dir, spaceId, state.branches.main, head, changeRequest, target.base);
    if (adopted) changeRequest = await client.changeRequests.get(spaceId, changeRequest.id);
  }
  if (!resuming) {
    if (changeRequest !== undefined && !adopted && changeRequest.revision !== target.base.remoteRevision) {
      throw new SyncError(
        'remote-ahead',
        `change request #${changeRequest.number} has changes made since ${branch} was last synced; run docsync pull, then push`,
      );
    }
    if (changeRequest === undefined) {
      if (branch !== 'main' && (await mergeBase(dir, head, target.base.syncedCommit)) !== target.base.syncedCommit) {
        throw new SyncError(
          'not-based-on-main',
          `${branch} does not contain main's last synced commit; merge main into it (git merge main), then push`,
        );
      }
      const space = await client.spaces.get(spaceId);
      if (space.revision !== target.base.remoteRevision) {
        if (branch === 'main' || options.dryRun) {
          throw new SyncError(
            'remote-ahead',
            `the space changed since main was last synced; run docsync pull${branch === 'main' ? '' : `, merge main into ${branch}`}, then push`,
          );
        }
        // A new change request starts from main as it is now: the branch catches up with it first.
        ({ base: target.base, head } = await catchUpWithMain(client, dir, spaceId, branch, target.base, head, branch === checkedOut));
      }
    }
    if (!options.force) {
      const main = state.branches.main;
      const pulled =
        branch === 'main'
          ? [main?.pulledCommit, main?.outbox?.pulledCommit]
          : [target.entry?.pulledCommit ?? (target.entry ? undefined : main?.pulledCommit)];
      await refuseUndoingRemote(dir, branch, head, pulled);
    }
  }

  const localChanges: TreeChange[] = await diffTrees(dir, target.base.syncedCommit, head);
  let journalToSend: PushJournal | undefined;
  let remoteIndex = toIndex(target.base.index);
  let read: ChangedFiles;
  // A push resumed at another commit than it planned from (the writer, or the daemon, committed
  // since) has more to send than its batches: it compares the whole branch, as when it moved.
  const moved = adopted || (resuming !== undefined && (changeRequest!.revision !== resuming.revision || resuming.head !== head));
  if (resuming && !moved) journalToSend = resuming;
  if (moved) {
    // The batch in flight landed (or someone else wrote, or the branch moved on): compare all of
    // the branch with what the change request holds now. Pages main's update brought in are where
    // main's last sync has them (the branch merged main, so its files are there too), pages the
    // resumed push created where the journal says; read otherwise at GitBook's rule path, a page
    // main added in a hand-placed file (`f/new.md`) was deleted and the writer's file sent as a
    // new page, with a new id.
    const places = new Map(placesOf(target.base.index, adopted ? state.branches.main?.index : undefined));
    if (resuming) for (const [id, path] of createdPlaces(resuming)) if (!places.has(id)) places.set(id, path);
    const now = snapshotOf(
      await fetchContent(client, { space: spaceId, changeRequest: changeRequest!.id }, undefined, knownContent(dir)),
      places,
    );
    read = { base: now.files, local: await readTreeFiles(dir, head), unloaded: undefined };
    remoteIndex = toIndex(now.index);
  } else {
    // Only the files the branch changed, and the folder's own: what did not change reads alike on both sides.
    read = await readChangedFiles(dir, target.base.syncedCommit, head, localChanges);
  }
  const prefix = folderPrefix(read.local);

  const folder = folderPaths(read.local);
  // A change to pages' own files only is read page by page; anything else reads the folder.
  // The platform gets LF: a CRLF file is read as LF (its endings are kept on disk, line-endings.ts).
  const [baseLf, localLf] = [withLf(read.base), withLf(read.local)];
  const quick = moved ? undefined : pageEditSides(localChanges, baseLf, localLf, remoteIndex, { prefix, summary: folder.summary });
  // Renames git's similarity misses (a small page moved and edited) are paired by title, front matter and place.
  const renames = matchRenames(localChanges, baseLf, localLf, folder.summary);
  const sides =
    quick ??
    readPushSides(
      baseLf,
      remoteIndex,
      localLf,
      renamedIndex(adopted ? heldNow(toIndex(target.base.index), remoteIndex) : toIndex(target.base.index), renames, prefix, remoteIndex),
      read.unloaded,
    );
  if (sides.blocking.length > 0) {
    throw new SyncError('unreadable-tree', `${branch}: the page tree cannot be read, so nothing was sent`, sides.blocking);
  }
  const planned = planPush(sides.remote, sides.local, { pathOf: (id) => sides.paths.get(id) ?? 'README.md' });
  const adapted = adaptPlan(planned, sides.remote, sides.local, client.capabilities.extensions, folder);
  const plan = { ...planned, changes: adapted.changes, undeletableFiles: adapted.undeletableFiles };
  sides.skipped.push(...adapted.skipped);
  const before = countPages(sides.remote.pages);
  const after = countPages(sides.local.pages);
  const idsOf = (pages: typeof sides.local.pages) => new Set(Array.from(walkPages(pages), (page) => page.id));
  const remoteIds = idsOf(sides.remote.pages);
  const removed = before - [...idsOf(sides.local.pages)].filter((id) => remoteIds.has(id)).length;
  if (!options.allowMassDelete && before > 0 && (after === 0 || removed * 2 > before)) {
    throw new SyncError(
      'mass-delete',
      `${branch}: the push would delete ${removed} of ${before} pages${after === 0 ? ' (the workspace has no pages)' : ''}; nothing was sent. If that is what you want, push with --allow-mass-delete`,
    );
  }

  const result: PushResult = {
    branch,
    changes: plan.changes,
    counts: plan.counts,
    batches: 0,
    normalised: [],
    skipped: sides.skipped,
    unlisted: [...keptUnlisted(sides.unlisted ?? [], client.capabilities.extensions), ...adapted.keptHere],
    unsentLinks: [],
    undeletableFiles: plan.undeletableFiles,
    resumed: resuming !== undefined,
    dryRun: options.dryRun === true,
    ...(savedLocalEdits ? { savedLocalEdits } : {}),
  };
  if (!options.dryRun) result.unlisted = await sayOnce(dir, state, result.unlisted, read.local);
  if (options.dryRun) {
    result.batches = batchesOf(plan.changes, plan.refs).length;
    if (changeRequest !== undefined)
      result.changeRequest = { id: changeRequest.id, number: changeRequest.number, url: changeRequest.urls.app, opened: false };
    return result;
  }
  if (plan.changes.length === 0 && journalToSend === undefined && resuming === undefined && !adopted) {
    if (changeRequest !== undefined)
      result.changeRequest = { id: changeRequest.id, number: changeRequest.number, url: changeRequest.urls.app, opened: false };
    return result;
  }

  let opened = false;
  if (changeRequest === undefined) {
    const subject = options.subject ?? (await firstMessage(dir, branch, target.base.syncedCommit)) ?? options.defaultSubject ?? branch;
    changeRequest = await openChangeRequest(client, dir, spaceId, branch, subject, state);
    opened = true;
    const entry: BranchState = {
      ...target.base,
      changeRequestId: changeRequest.id,
      changeRequestNumber: changeRequest.number,
      remoteRevision: changeRequest.revision,
    };
    delete entry.outbox;
    target.save(state, entry);
    await writeState(dir, state);
    await clearOpening(dir, branch);
  }
  result.changeRequest = { id: changeRequest.id, number: changeRequest.number, url: changeRequest.urls.app, opened };

  journalToSend ??= {
    version: 1,
    branch,
    changeRequestId: changeRequest.id,
    startRevision: changeRequest.revision,
    batches: batchesOf(plan.changes, plan.refs),
    landed: 0,
    revision: changeRequest.revision,
    created: {},
    head,
    places: refPlaces(sides.paths, plan.refs),
  };
  if (journalToSend === resuming) result.changes = journalToSend.batches.slice(journalToSend.landed).flat();
  result.batches = journalToSend.batches.length - journalToSend.landed;
  const sent = await sendBatches(client, dir, spaceId, journalToSend, (done, total) =>
    options.onProgress?.({ stage: 'batches', done, total }),
  );

  const synced = await readBack({
    client,
    dir,
    spaceId,
    branch,
    checkedOut: branch === checkedOut,
    head,
    base: target.base,
    changeRequest,
    revision: sent.revision,
    changes: plan.changes,
    wholeCompare: moved,
    local: read.local,
    prefix,
    pathOf: (id) => sides.paths.get(id)!,
    localChanges,
    skipped: new Set([...sides.skipped, ...adapted.keptHere].map((s) => s.path)),
    places: placesAfter(sides.paths, plan.refs, sent.created),
  });
  result.normalised = synced.normalised;
  result.unsentLinks = synced.unsentLinks;
  const latest = await readState(dir);
  const entry: BranchState = {
    ...(targetOf(latest, branch).entry ?? target.base),
    changeRequestId: changeRequest.id,
    changeRequestNumber: changeRequest.number,
    remoteRevision: synced.revision,
    syncedCommit: synced.commit,
    index: synced.index,
  };
  delete entry.outbox;
  target.save(latest, entry);
  await writeState(dir, latest);
  await clearJournal(dir, branch);
  await clearAdopting(dir, changeRequest.id);
  result.revision = synced.revision;
  return result;
}

/**
 * The branch's synced index after adopt-main: a file whose page the change request no longer
 * holds belongs to the page it holds there now. The branch had pushed its own copy of a page
 * main had not sent yet; main then sent its copy of that file, and adopt-main reverted the
 * branch's so that main's update came in. Read with the old id, the writer's file was sent as a
 * new page and main's deleted: the page changed id (model seed 424242).
 */
function heldNow(synced: WorkspaceIndex, now: WorkspaceIndex): WorkspaceIndex {
  const held = new Set(now.pages.values());
  const known = new Set(synced.pages.values());
  const pages = new Map(synced.pages);
  for (const [key, id] of synced.pages) {
    const there = now.pages.get(key);
    if (!held.has(id) && there !== undefined && !known.has(there)) pages.set(key, there);
  }
  return { ...synced, pages };
}

/**
 * The notes of files kept here that were not said before in this version: what a push says of a
 * file the server cannot keep, it says once per version of the file (recorded in the state).
 */
async function sayOnce(
  dir: string,
  state: WorkspaceState,
  notes: readonly SkippedFile[],
  local: ReadonlyMap<string, Uint8Array>,
): Promise<SkippedFile[]> {
  if (notes.length === 0) return [];
  const said = { ...state.saidKeptHere };
  const fresh = notes.filter((note) => {
    const bytes = local.get(note.path);
    const version = bytes === undefined ? '' : createHash('sha1').update(bytes).digest('hex');
    if (said[note.path] === version) return false;
    said[note.path] = version;
    return true;
  });
  // Into the push's own state too, which it writes again when it opens a change request.
  state.saidKeptHere = said;
  if (fresh.length > 0) await writeState(dir, state);
  return fresh;
}

/** Unlisted page files, said once: a server with `git-files` keeps them as files of the folder. */
function keptUnlisted(unlisted: readonly SkippedFile[], extensions: ReadonlySet<string>): SkippedFile[] {
  if (!extensions.has('git-files')) return [...unlisted];
  return unlisted.map((file) => ({
    ...file,
    reason: `${file.reason.replace(/ and is not sent \(list it there to make it one\)$/, '')}; the platform keeps it as a file of the folder (list it there to make it one)`,
  }));
}

/** A commit of `head` with the working tree's uncommitted edits, on a scratch ref (`head` when there are none). */
async function uncommittedCommit(dir: string, head: string): Promise<string> {
  const changes = await workingTreeChanges(dir);
  if (changes.length === 0) return head;
  const edits = new Map<string, Uint8Array | null>();
  for (const change of changes)
    edits.set(change.path, change.status === 'deleted' ? null : new Uint8Array(await readFile(join(dir, change.path))));
  const ref = 'refs/docsync/dry-run';
  return commitEdits(dir, {
    branch: ref,
    parent: await branchOid(dir, ref),
    from: head,
    edits,
    message: 'docsync: uncommitted edits (dry run)',
    author: DOCSYNC_AUTHOR,
  });
}

/** The file of each page the push creates, by its batch ref (kept in the journal). */
function refPlaces(paths: ReadonlyMap<string, string>, refs: ReadonlyMap<string, string>): Record<string, string> {
  const places: Record<string, string> = {};
  for (const [localId, path] of paths) {
    const ref = refs.get(localId);
    if (ref !== undefined) places[ref] = path;
  }
  return places;
}

/** Each pushed page's local file by its id on the platform (pages the push created by their new ids). */
function placesAfter(
  paths: ReadonlyMap<string, string>,
  refs: ReadonlyMap<string, string>,
  created: Readonly<Record<string, string>>,
): Map<string, string> {
  const places = new Map<string, string>();
  for (const [localId, path] of paths) {
    const ref = refs.get(localId);
    const id = ref === undefined ? localId : created[ref];
    if (id !== undefined) places.set(id, path);
  }
  return places;
}
