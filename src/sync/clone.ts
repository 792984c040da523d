import { existsSync, readdirSync } from 'node:fs';
import type { Client } from '../client/index.js';
import type { ChangeRequest } from '../model/index.js';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { commitFiles, initRepo, listBranches } from '../git/index.js';
import { DOCSYNC_AUTHOR } from './author.js';
import { SyncError } from './errors.js';
import { commitChangeRequest, fetchChangeRequest } from './change-requests/track.js';
import type { WorkspaceProblem } from '../workspace/index.js';
import { fetchContent } from './remote/content.js';
import { memoryKnownContent } from './remote/known-content.js';
import { summedProgress, type ProgressEvent } from './remote/fetch-progress.js';
import { snapshotOf, type Snapshot } from './remote/snapshot.js';
import { stateDir, writeState, type BranchState, type WorkspaceState } from './state/state.js';

export { DOCSYNC_AUTHOR };

export interface CloneOptions {
  client: Client;
  apiUrl: string;
  spaceId: string;
  dir: string;
  /**
   * What `docsync clone` shows on a terminal: `pages` (pages whose markdown is in hand, of those
   * of every revision read so far), `files` (likewise), then `change requests` (branches made).
   */
  onProgress?: (event: ProgressEvent) => void;
}

export interface CloneResult {
  dir: string;
  spaceTitle: string;
  revision: string;
  branches: { branch: string; changeRequest?: number; revision: string; commit: string }[];
  problems: WorkspaceProblem[];
  requests: number;
}

/** `.git/docsync/cloning`: there from the repository's start to the sync state's, while a clone runs. */
const CLONING = 'cloning';

/**
 * Whether `dir` holds what a killed clone left: its marker, or a repository
 * with no branch and nothing beside it (killed right after `git init`, before the marker).
 */
async function unfinishedClone(dir: string): Promise<boolean> {
  // The marker goes after the state: a clone killed between the two is done again, whole.
  if (existsSync(join(stateDir(dir), CLONING))) return true;
  if (existsSync(join(stateDir(dir), 'state.json'))) return false;
  const entries = readdirSync(dir);
  if (entries.length !== 1 || entries[0] !== '.git' || existsSync(stateDir(dir))) return false;
  return (await listBranches(dir).catch(() => ['?'])).length === 0;
}

/** Change requests fetched ahead of the one being committed: bounds the snapshots held at once. */
const FETCH_AHEAD = 8;

async function openChangeRequests(client: Client, spaceId: string): Promise<ChangeRequest[]> {
  const open: ChangeRequest[] = [];
  for await (const cr of client.changeRequests.list(spaceId, { status: 'open' })) open.push(cr);
  return open;
}

/**
 * The results of `fetch` over `items`, in order. The first `ahead + 1` fetches start at once;
 * each step starts the next, so at most that many results wait to be consumed. A fetch that
 * fails before its turn is reported at its turn, not as an unhandled rejection.
 */
function fetchedInOrder<T, R>(items: readonly T[], ahead: number, fetch: (item: T) => Promise<R>): AsyncIterable<R> {
  const started: Promise<R>[] = [];
  const startUpTo = (last: number) => {
    for (let i = started.length; i <= Math.min(last, items.length - 1); i += 1) {
      started.push(fetch(items[i]!));
      started[i]!.catch(() => undefined);
    }
  };
  startUpTo(ahead);
  return {
    async *[Symbol.asyncIterator]() {
      for (let i = 0; i < items.length; i += 1) {
        startUpTo(i + ahead);
        yield await started[i]!;
      }
    },
  };
}

/**
 * Clones a space into a new git repository: `main` holds the space's live content (one commit
 * whose message names the revision), and each open change request gets a branch
 * `cr/<number>-<subject>` with one commit on top of its base. The sync state goes to
 * `.git/docsync/` so pull and push know what each branch last synced.
 *
 * Main's content and the change requests' are fetched at once through the client's queue;
 * a change request based on main's revision uses main's commit as its base.
 */
export async function clone(options: CloneOptions): Promise<CloneResult> {
  const { client, dir, spaceId } = options;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    if (!(await unfinishedClone(dir))) throw new SyncError('folder-not-empty', `${dir} exists and is not empty; clone into a new folder`);
    // A clone killed half-way: what it wrote is docsync's own, and the clone starts again.
    for (const entry of readdirSync(dir)) await rm(join(dir, entry), { recursive: true, force: true });
  }
  const progress = summedProgress(options.onProgress);
  // One store of bodies and files for every scope: main and its change requests share most of them.
  const known = memoryKnownContent();
  const mainFetch = fetchContent(client, { space: spaceId }, progress(), known).then(snapshotOf);
  const mainRevision = mainFetch.then((main) => main.revision);
  // Awaited only by change requests on another base; a failure is reported through mainFetch.
  mainRevision.catch(() => undefined);
  const bases = new Map<string, Promise<Snapshot>>();
  const fetchOne = (cr: ChangeRequest) => fetchChangeRequest(client, spaceId, cr, { mainRevision, bases, progress, known });
  const listing = openChangeRequests(client, spaceId);
  // The first change requests' fetches start with main's, not after it.
  const changeRequests = listing.then((open) => ({ open, fetched: fetchedInOrder(open, FETCH_AHEAD, fetchOne) }));
  const [space, main, { open, fetched }] = await Promise.all([client.spaces.get(spaceId), mainFetch, changeRequests]);

  await initRepo(dir, { defaultBranch: 'main' });
  await mkdir(stateDir(dir), { recursive: true });
  await writeFile(join(stateDir(dir), CLONING), `${spaceId}\n`);
  // The folder is new, so main's files go straight from memory to the working tree and index.
  const mainCommit = await commitFiles(dir, {
    branch: 'main',
    parent: null,
    files: main.files,
    message: `docsync: ${space.title || spaceId} at revision ${main.revision}`,
    author: DOCSYNC_AUTHOR,
    checkout: true,
  });
  const branches: Record<string, BranchState> = {
    main: { remoteRevision: main.revision, syncedCommit: mainCommit, index: main.index },
  };
  const result: CloneResult = {
    dir,
    spaceTitle: space.title,
    revision: main.revision,
    branches: [{ branch: 'main', revision: main.revision, commit: mainCommit }],
    problems: [...main.problems],
    requests: 0,
  };

  let done = 0;
  options.onProgress?.({ stage: 'change requests', done, total: open.length });
  for await (const changeRequest of fetched) {
    const tracked = await commitChangeRequest(dir, changeRequest, { commit: mainCommit });
    branches[tracked.branch] = tracked.state;
    result.branches.push({
      branch: tracked.branch,
      changeRequest: changeRequest.changeRequest.number,
      revision: tracked.state.remoteRevision,
      commit: tracked.commit,
    });
    result.problems.push(...tracked.problems);
    done += 1;
    options.onProgress?.({ stage: 'change requests', done, total: open.length });
  }

  const state: WorkspaceState = { version: 1, binding: { apiUrl: options.apiUrl, spaceId }, branches };
  await known.saveTo(dir);
  await writeState(dir, state);
  await rm(join(stateDir(dir), CLONING), { force: true });
  result.requests = client.stats.requests;
  return result;
}
