import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as git from 'isomorphic-git';
import { fastPathsEnabled } from '../fast-paths.js';
import type { Person } from './commit-files.js';
import { commitObject } from '../format/commit-object.js';
import { editTree, type TreeBlob } from '../objects/edit-tree.js';
import { editIndex, type NewIndexEntry } from '../format/index-edit.js';
import { indexLocked, withIndexLock } from '../index/index-lock.js';
import { writeRefreshedIndex } from '../index/index-refresh.js';
import { LOCK_WAIT_MS } from '../lock-file.js';
import { isGitError } from '../errors.js';
import { parseIndex, type ParsedIndex, type StoredIndexEntry } from '../format/index-read.js';
import { writeLooseObjects } from '../objects/loose-objects.js';
import { commitTree } from '../objects/tree-and-commit-reads.js';
import type { FileMode } from '../format/object-format.js';
import { checkPath } from '../format/paths.js';
import type { Repo } from '../repo.js';
import { stagedPaths } from '../index/staged-paths.js';
import { fastStatusRows } from '../working-tree/status-matrix.js';
import { updateRef } from '../refs/update-ref.js';
import { commitNote } from '../refs/reflog.js';
import { workingBlobs } from '../working-tree/working-blobs.js';

/** Returned where this path does not apply: commitWorkingTree then does it the general way. */
export const FALLBACK = Symbol('fallback');

export interface FastCommitOptions {
  message: string;
  author: Person;
  timestamp: number;
  /** The paths that differ from HEAD, vouched current by the caller; undefined: find them with a status walk. */
  changes?: readonly { path: string }[];
}

const EMPTY_INDEX: { data: Buffer; parsed: ParsedIndex } = {
  data: Buffer.from('DIRC\0\0\0\x02\0\0\0\0'),
  parsed: { version: 2, entries: [], extensions: [] },
};

/** What git add -A would stage differently from git, or this index writer does not keep. */
export const unusual = (entry: StoredIndexEntry) =>
  entry.stage !== 0 || entry.mode >>> 12 === 0o16 || entry.assumeValid || entry.skipWorktree;

function validPath(path: string): boolean {
  try {
    return checkPath(path) === path;
  } catch {
    return false;
  }
}

/** The index's bytes and entries for an edit (an empty one when there is no index yet); null when our reader does not take it. */
export async function readIndex(r: Repo): Promise<{ data: Buffer; parsed: ParsedIndex } | null> {
  let data: Buffer;
  try {
    data = await readFile(join(r.gitdir, 'index'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_INDEX;
    throw error;
  }
  const parsed = parseIndex(data);
  return 'unsupported' in parsed ? null : { data, parsed };
}

/**
 * commitWorkingTree at the cost of the change, not of the repository: the paths that differ
 * (from one status walk, or the caller's `changes`, plus whatever the index stages differently
 * from HEAD) are hashed, HEAD's tree is edited at those paths only, and the index entries of
 * those paths alone are rewritten, with the stat data of the files as read, under `index.lock`.
 * The index is written first and the branch moved second (a kill in between leaves the change
 * staged, for the next commit); when the branch has moved meanwhile (`ref-moved`) the index goes
 * back to what it was. An `index.lock` that exists is refused as git refuses it (`ref-locked`).
 * @returns the new commit, null when the tree is HEAD's (the index is still brought up to date),
 *   or FALLBACK for an unborn branch, an index or working tree the fast status does not take, an
 *   index stage of an unresolved merge, or a read-only repository.
 */
export async function fastCommitWorkingTree(
  r: Repo,
  ref: string,
  tip: string | null,
  options: FastCommitOptions,
): Promise<string | null | typeof FALLBACK> {
  if (tip === null || !fastPathsEnabled()) return FALLBACK;
  const config = (path: string) => git.getConfig({ fs: r.fs, dir: r.dir, gitdir: r.gitdir, path });
  if ((await config('core.autocrlf')) === 'true') return FALLBACK;
  const filemode = (await config('core.filemode')) !== false;

  let candidates: Set<string> | undefined;
  if (options.changes === undefined) {
    const rows = await fastStatusRows(r);
    if (rows === null) return FALLBACK;
    candidates = new Set(rows.filter(([, , workdir, stage]) => !(workdir === 1 && stage === 1)).map(([path]) => path));
    if (candidates.size === 0) return null;
  }

  const outcome = await withIndexLock(r, async (lock) => {
    const index = await readIndex(r);
    if (index === null || index.parsed.entries.some(unusual)) return FALLBACK;
    const { entries } = index.parsed;
    const base = await commitTree(r, tip);
    if (candidates === undefined) {
      const staged = await stagedPaths(r, base, entries);
      if (staged === null) return FALLBACK;
      candidates = new Set([...(options.changes ?? []).map((change) => checkPath(change.path)), ...staged]);
    }
    if (candidates.size === 0) return null;
    if (![...candidates].every(validPath)) return FALLBACK;

    const modes = new Map<string, number>();
    for (const entry of entries) if (candidates.has(entry.path)) modes.set(entry.path, entry.mode);
    const working = await workingBlobs(r.dir, candidates, { filemode, indexMode: (path) => modes.get(path) });
    writeLooseObjects(
      r,
      [...working.values()].flatMap((found) => (found === null ? [] : [found.blob])),
    );
    const treeEdits = new Map<string, TreeBlob | null>();
    const indexEdits = new Map<string, NewIndexEntry | null>();
    for (const [path, found] of working) {
      // workingBlobs gives only a file's or a symbolic link's mode.
      treeEdits.set(path, found && { mode: found.mode.toString(8) as FileMode, oid: found.blob.oid });
      indexEdits.set(path, found && { oid: found.blob.oid, mode: found.mode, stat: found.stat });
    }

    const tree = await editTree(r, base, treeEdits);
    // The index is the commit's tree: its cache tree is made whole against it (see editIndex).
    // Before anything is committed (the trees written are no commit yet): an index this writer
    // cannot write leaves all to the general way.
    const next = editIndex(index.data, index.parsed, indexEdits, { tree });
    if (next === null) return FALLBACK;
    lock.replace(next);
    if (tree === base) return null;
    const person = { ...options.author, timestamp: options.timestamp };
    const object = commitObject({ tree, parents: [tip], author: person, committer: person, message: options.message });
    writeLooseObjects(r, [object]);
    return { commit: object.oid, person, before: index.data, next };
  });
  if (outcome === 'locked') throw indexLocked(r);
  if (outcome === 'read-only') return FALLBACK;
  if (outcome === null || outcome === FALLBACK) return outcome;
  // The index is written first, the branch moved second: a process killed in between leaves the
  // files staged and not committed, which the next commit of the working tree commits (the
  // other order left HEAD ahead of the index, which no later commit repaired: the files showed
  // as staged deletions and untracked, test/cli/kill-commands.test.ts).
  try {
    await updateRef(r, ref, tip, outcome.commit, commitNote(options.message, 1, outcome.person));
  } catch (error) {
    // The branch moved meanwhile: the index goes back to what it was, unless written since.
    if (isGitError(error, 'ref-moved')) await writeRefreshedIndex(r, outcome.next, outcome.before, LOCK_WAIT_MS);
    throw error;
  }
  return outcome.commit;
}
