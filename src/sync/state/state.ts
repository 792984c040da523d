import { writeJsonFile } from './json-file.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
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
    for (const branch of Object.values(state.branches)) {
      for (const entry of [branch, branch.outbox]) if (entry) lazyIndex(workspace, entry as StoredBranch);
    }
    return state;
  } catch (error) {
    throw new SyncError('damaged-state', `${statePath(workspace)} is damaged (${(error as Error).message}); clone the space again`);
  }
}

/**
 * The sync index (page ids by place, a line per page: 300 KB for 5,000 pages) is kept out of
 * state.json, in `.git/docsync/index/<sha1 of its JSON>.json`, and read only when a command asks
 * for a branch's `index`: reading and writing the state costs what it holds, not the space's size,
 * and an index that did not change is never written again (its file is named by its content).
 */
interface StoredBranch extends Omit<BranchState, 'outbox'> {
  /** The file holding `index`, in state.json in its stead. */
  indexFile?: string;
  outbox?: StoredBranch;
}

const indexDir = (workspace: string) => join(stateDir(workspace), 'index');
const INDEX_FILE = /^[0-9a-f]{40}\.json$/;
/** Index files nothing names are removed once this old (another command may have just written one). */
const UNUSED_INDEX_AGE_MS = 10 * 60_000;

/** The file (and workspace) each index object was read from or written to: writing it again costs a stat. */
const indexFiles = new WeakMap<object, { workspace: string; file: string }>();
/** Branch entries whose index is not read yet, with its file. */
const unread = new WeakMap<object, string>();

function settle(entry: StoredBranch, index: BranchState['index']): void {
  unread.delete(entry);
  Object.defineProperty(entry, 'index', { value: index, writable: true, enumerable: true, configurable: true });
}

/** Makes `entry.index` read its file when first asked for (an older state.json holds it inline: kept as it is). */
function lazyIndex(workspace: string, entry: StoredBranch): void {
  const file = entry.indexFile;
  delete entry.indexFile;
  if (file === undefined || !INDEX_FILE.test(file)) {
    if (entry.index === undefined) throw new Error('a branch has no index');
    return;
  }
  unread.set(entry, file);
  Object.defineProperty(entry, 'index', {
    enumerable: true,
    configurable: true,
    get() {
      const path = join(indexDir(workspace), file);
      let index: BranchState['index'];
      try {
        index = JSON.parse(readFileSync(path, 'utf8')) as BranchState['index'];
      } catch (error) {
        throw new SyncError('damaged-state', `${path} is damaged or missing (${(error as Error).message}); clone the space again`);
      }
      indexFiles.set(index, { workspace, file });
      settle(entry, index);
      return index;
    },
    set(index: BranchState['index']) {
      settle(entry, index);
    },
  });
}

/** The index file of `entry`: the one it was read from, or a new one holding it. */
async function indexFileOf(workspace: string, entry: BranchState): Promise<string> {
  const pending = unread.get(entry);
  if (pending !== undefined) return pending;
  const index = entry.index;
  const exists = (file: string) =>
    stat(join(indexDir(workspace), file)).then(
      () => true,
      () => false,
    );
  // An index read or written before, still there (a long-lived daemon's may have been removed as unused).
  const known = indexFiles.get(index);
  if (known !== undefined && known.workspace === workspace && (await exists(known.file))) return known.file;
  const text = `${JSON.stringify(index)}\n`;
  const file = `${createHash('sha1').update(text).digest('hex')}.json`;
  const path = join(indexDir(workspace), file);
  // Named by its content: a file already there holds these bytes (a crash mid-write leaves only a temporary file).
  if (!(await exists(file))) {
    await mkdir(indexDir(workspace), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, path);
  }
  indexFiles.set(index, { workspace, file });
  return file;
}

async function stored(workspace: string, entry: BranchState): Promise<StoredBranch> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(entry)) {
    if (key === 'index') continue;
    // Read through the descriptor: an unread index is not read to be written.
    out[key] = (entry as unknown as Record<string, unknown>)[key];
  }
  out.indexFile = await indexFileOf(workspace, entry);
  if (entry.outbox) out.outbox = await stored(workspace, entry.outbox);
  return out as unknown as StoredBranch;
}

/** Writes the state atomically: a crash leaves the old state or the new one, never half of one. */
export async function writeState(workspace: string, state: WorkspaceState): Promise<void> {
  await mkdir(stateDir(workspace), { recursive: true });
  const branches: Record<string, StoredBranch> = {};
  for (const [name, branch] of Object.entries(state.branches)) branches[name] = await stored(workspace, branch);
  const target = statePath(workspace);
  await writeJsonFile(target, { ...state, branches });
  await removeUnusedIndexes(workspace, branches);
}

/** Removes index files the state no longer names, once old enough that no other command can be about to name one. */
async function removeUnusedIndexes(workspace: string, branches: Record<string, StoredBranch>): Promise<void> {
  const used = new Set(Object.values(branches).flatMap((b) => [b.indexFile, b.outbox?.indexFile]));
  const names = await readdir(indexDir(workspace)).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (used.has(name) || !INDEX_FILE.test(name)) continue;
    const path = join(indexDir(workspace), name);
    const at = await stat(path).then(
      (s) => s.mtimeMs,
      () => now,
    );
    if (now - at > UNUSED_INDEX_AGE_MS) await rm(path, { force: true });
  }
}
