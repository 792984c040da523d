import { existsSync, readdirSync } from 'node:fs';
import type { Client } from '../client/index.js';
import { DocsyncError, type ChangeRequest } from '../model/index.js';
import { commitFiles, initRepo } from '../git/index.js';
import { DOCSYNC_AUTHOR } from './author.js';
import { trackChangeRequest } from './track-change-request.js';
import type { WorkspaceProblem } from '../workspace/index.js';
import { fetchContent } from './remote-content.js';
import { snapshotOf } from './snapshot.js';
import { writeState, type BranchState, type WorkspaceState } from './state.js';

export { DOCSYNC_AUTHOR };

export interface CloneOptions {
  client: Client;
  apiUrl: string;
  spaceId: string;
  dir: string;
  /** Called as pages and files arrive: what `docsync clone` shows on a terminal. */
  onProgress?: (event: { stage: string; done: number; total: number }) => void;
}

export interface CloneResult {
  dir: string;
  spaceTitle: string;
  revision: string;
  branches: { branch: string; changeRequest?: number; revision: string; commit: string }[];
  problems: WorkspaceProblem[];
  requests: number;
}

/**
 * Clones a space into a new git repository: `main` holds the space's live content (one commit
 * whose message names the revision), and each open change request gets a branch
 * `cr/<number>-<subject>` with one commit on top of its base. The sync state goes to
 * `.git/docsync/` so pull and push know what each branch last synced.
 */
export async function clone(options: CloneOptions): Promise<CloneResult> {
  const { client, dir, spaceId } = options;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new DocsyncError('conflict', `${dir} exists and is not empty; clone into a new folder`);
  }
  const space = await client.spaces.get(spaceId);
  const main = snapshotOf(await fetchContent(client, { space: spaceId }, (done, total) => options.onProgress?.({ stage: 'files', done, total })));
  await initRepo(dir, { defaultBranch: 'main' });
  // The folder is new, so main's files go straight from memory to the working tree and index.
  const mainCommit = await commitFiles(dir, {
    branch: 'main', parent: null, files: main.files, message: `docsync: ${space.title || spaceId} at revision ${main.revision}`, author: DOCSYNC_AUTHOR, checkout: true,
  });
  const branches: Record<string, BranchState> = {
    main: { remoteRevision: main.revision, syncedCommit: mainCommit, index: main.index },
  };
  const result: CloneResult = {
    dir, spaceTitle: space.title, revision: main.revision, branches: [{ branch: 'main', revision: main.revision, commit: mainCommit }],
    problems: [...main.problems], requests: 0,
  };

  const open: ChangeRequest[] = [];
  for await (const cr of client.changeRequests.list(spaceId, { status: 'open' })) open.push(cr);
  let done = 0;
  for (const cr of open) {
    options.onProgress?.({ stage: 'change requests', done, total: open.length });
    const tracked = await trackChangeRequest(client, dir, spaceId, cr, { revision: main.revision, commit: mainCommit });
    branches[tracked.branch] = tracked.state;
    result.branches.push({ branch: tracked.branch, changeRequest: cr.number, revision: tracked.state.remoteRevision, commit: tracked.commit });
    result.problems.push(...tracked.problems);
    done += 1;
  }
  options.onProgress?.({ stage: 'change requests', done, total: open.length });

  const state: WorkspaceState = { version: 1, binding: { apiUrl: options.apiUrl, spaceId }, branches };
  await writeState(dir, state);
  result.requests = client.stats.requests;
  return result;
}
