import { isApiError, type Client } from '../../client/index.js';
import { locateConflicts, parseConflicts } from './conflicts.js';
import type { BranchMerge } from './merge.js';
import type { SkippedFile } from '../push/read.js';
import { pull } from '../pull/pull.js';
import { readState } from '../state/state.js';

/**
 * Merges main's outbox change request (where commits on `main` go, see `push`), drops it so the
 * next commits on main open a new one, and pulls `main`.
 */
export async function mergeOutbox(client: Client, dir: string, notSent: SkippedFile[] = []): Promise<BranchMerge> {
  const branch = 'main';
  const state = await readState(dir);
  const outbox = state.branches.main?.outbox;
  if (outbox?.changeRequestId === undefined) throw new Error('mergeOutbox: main has no outbox change request (push first)');
  const base = { branch, changeRequest: outbox.changeRequestNumber ?? 0 };
  let revision: string;
  try {
    revision = (await client.changeRequests.merge(state.binding.spaceId, outbox.changeRequestId)).revision;
  } catch (error) {
    if (!isApiError(error, 409)) throw error;
    const conflicts = locateConflicts(parseConflicts(error.message), [outbox.index, state.branches.main!.index]);
    return { kind: 'conflict', ...base, message: error.message, conflicts };
  }
  // The pull finds the outbox merged and drops it itself, after using it: its synced commit is
  // the merge's base, and its index keeps each page in the file main has it in.
  const pulled = await pull(client, dir, { branches: ['main'] });
  return { kind: 'merged', ...base, revision, already: false, pulled, notSent };
}
