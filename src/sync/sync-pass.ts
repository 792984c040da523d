import type { Client } from '../client/index.js';
import { branchOid, diffTrees, isAncestor, listBranches } from '../git/index.js';
import { isPushRefusal } from './errors.js';
import { pull, type BranchPull } from './pull/pull.js';
import { hasJournal } from './push/journal.js';
import { push, type PushResult } from './push/push.js';
import { isFollowed, readState } from './state/state.js';

export interface SyncPassOptions {
  /** Plan the pushes and send nothing; nothing is pulled either (a pull changes local files). */
  dryRun?: boolean;
  allowMassDelete?: boolean;
  /** Pull only: what `mirror` does without `--push`. */
  pullOnly?: boolean;
}

export interface SyncPass {
  pulled: BranchPull[];
  pushed: PushResult[];
  /** Branches that could not be pushed, and why (the pass goes on with the others). */
  failed: { branch: string; code: string; message: string; details: string[] }[];
  /** Files left with conflict markers by the pull, as `branch:path`. */
  conflicts: string[];
}

/**
 * The branches a pass pushes: every followed branch with commits since its last sync or a push
 * journal left, `main` when it has commits of its own (they go to its outbox change request), and
 * local branches docsync does not track yet that have commits of their own (each opens a change
 * request).
 */
export async function branchesToPush(dir: string): Promise<string[]> {
  const state = await readState(dir);
  const out: string[] = [];
  const mainHead = await branchOid(dir, 'main');
  for (const branch of await listBranches(dir)) {
    const tracked = state.branches[branch];
    if (tracked && !isFollowed(tracked)) continue;
    const head = await branchOid(dir, branch);
    if (head === null) continue;
    const synced = branch === 'main' ? (tracked?.outbox ?? tracked) : (tracked ?? state.branches.main);
    if (!synced) continue;
    // A new branch with no commit of its own (made from main, nothing edited yet) opens no
    // change request: what it holds is main's, which goes in main's own.
    if (!tracked && branch !== 'main' && mainHead !== null && (await isAncestor(dir, head, mainHead))) continue;
    // A push killed mid-way is finished by the next one, even when the branch looks synced (killed
    // once it had recorded its result, it has only its journal to remove).
    if ((await hasJournal(dir, branch)) || (await diffTrees(dir, synced.syncedCommit, head, { renames: false })).length > 0)
      out.push(branch);
  }
  return out;
}

/**
 * One full pass for cron and CI: pull every branch, then push every branch with local changes.
 * A branch whose pull left conflicts is not pushed; a branch whose push is refused (remote
 * ahead, mass delete, unreadable tree) is reported and the pass goes on.
 */
export async function syncPass(client: Client, dir: string, options: SyncPassOptions = {}): Promise<SyncPass> {
  const pass: SyncPass = { pulled: [], pushed: [], failed: [], conflicts: [] };
  if (!options.dryRun) pass.pulled = await pull(client, dir);
  const conflicted = new Set<string>();
  for (const result of pass.pulled) {
    for (const path of result.conflicts) pass.conflicts.push(`${result.branch}:${path}`);
    if (result.conflicts.length > 0) conflicted.add(result.branch);
  }
  if (options.pullOnly) return pass;
  for (const branch of await branchesToPush(dir)) {
    if (conflicted.has(branch)) continue;
    try {
      pass.pushed.push(
        await push(client, dir, { branch, dryRun: options.dryRun === true, allowMassDelete: options.allowMassDelete === true }),
      );
    } catch (error) {
      if (!isPushRefusal(error)) throw error;
      pass.failed.push({ branch, code: error.code, message: error.message, details: error.details });
    }
  }
  return pass;
}
