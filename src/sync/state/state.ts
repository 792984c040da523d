import { writeJsonFile } from './json-file.js';
import { access, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SyncError } from '../errors.js';

/** Where a workspace syncs to. */
export interface Binding {
  apiUrl: string;
  spaceId: string;
}

/** What docsync last synced on one local branch. */
export interface BranchState {
  /** The change request the branch maps to; absent for `main`. */
  changeRequestId?: string;
  changeRequestNumber?: number;
  /** Remote revision the branch was last synced with. */
  remoteRevision: string;
  /** Local commit holding exactly that remote revision's content. */
  syncedCommit: string;
  /**
   * The last remote commit a pull merged into the branch: the branch contains it for as long as
   * it holds the platform's changes. A push refuses a branch that does not (a `git reset` undid
   * the pull), since it would undo those changes. Absent before the first pull.
   */
  pulledCommit?: string;
  /** Ids by place at that point (workspace `WorkspaceIndex`): how files find their page again. */
  index: { pages: Record<string, string>; files: Record<string, string>; includes: Record<string, string> };
  /**
   * Set once the change request was merged or archived, or the git branch was deleted by the
   * writer (`deleted`): pull no longer follows the branch, and the entry stays so that
   * `docsync cr open` can follow it again from where it was (a deleted branch is made again at
   * its synced commit). docsync itself never deletes a git branch.
   */
  closed?: 'merged' | 'archived' | 'deleted';
  /**
   * `main` only: the change request that commits made on `main` go to (main itself moves only
   * by merges), with what was last synced with it. Dropped once it is merged or archived.
   */
  outbox?: BranchState;
}

export interface WorkspaceState {
  version: 1;
  binding: Binding;
  branches: Record<string, BranchState>;
  /**
   * Files push named as not sent to a server that cannot keep them (`.gitbook.yaml` and unlisted
   * `.md` files without the `git-files` extension), by path, with the text they had then: each
   * version is said once (the synced point holds the server's form, so every push sees them again).
   */
  saidKeptHere?: Record<string, string>;
}

/** True while pull follows the branch: `main`, and change requests neither merged nor archived. */
export const isFollowed = (branch: BranchState): boolean => branch.closed === undefined;

/** `.git/docsync/`: never committed, so state never travels with a push to a git host. */
export const stateDir = (workspace: string) => join(workspace, '.git', 'docsync');
const statePath = (workspace: string) => join(stateDir(workspace), 'state.json');

export async function readState(workspace: string): Promise<WorkspaceState> {
  let text: string;
  try {
    text = await readFile(statePath(workspace), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (
        await access(join(stateDir(workspace), 'unbound.json')).then(
          () => true,
          () => false,
        )
      ) {
        throw new SyncError('not-published', `${workspace} has no space yet (made by docsync init); run docsync push to create it`);
      }
      throw new SyncError(
        'not-a-workspace',
        `${workspace} is not a docsync workspace (no .git/docsync/state.json); run docsync clone first`,
      );
    }
    throw error;
  }
  try {
    const state = JSON.parse(text) as WorkspaceState;
    if (state.version !== 1 || typeof state.binding?.spaceId !== 'string') throw new Error('unknown layout');
    return state;
  } catch (error) {
    throw new SyncError('damaged-state', `${statePath(workspace)} is damaged (${(error as Error).message}); clone the space again`);
  }
}

/** Writes the state atomically: a crash leaves the old state or the new one, never half of one. */
export async function writeState(workspace: string, state: WorkspaceState): Promise<void> {
  await mkdir(stateDir(workspace), { recursive: true });
  const target = statePath(workspace);
  await writeJsonFile(target, state);
}
