import type { Client } from '../../client/index.js';
import type { ChangeRequestStatus } from '../../model/index.js';
import { isFollowed, readState } from '../state/state.js';

/** A change request of the space, with the local branch that mirrors it. */
export interface ChangeRequestEntry {
  number: number;
  id: string;
  status: ChangeRequestStatus;
  subject: string;
  /** Main moved since the change request last took it in: `docsync update` brings it in. */
  outdated: boolean;
  updatedAt: string;
  url: string;
  /** The local branch docsync made for it, or null when it has none. */
  branch: string | null;
  /** Pull follows the branch (false once merged or archived, and when there is no branch). */
  followed: boolean;
}

/**
 * The space's change requests of one status (default `open`, as the API's own default), every
 * page of the listing, each with its local branch from the workspace state.
 */
export async function listChangeRequests(
  client: Client,
  dir: string,
  options: { status?: ChangeRequestStatus } = {},
): Promise<ChangeRequestEntry[]> {
  const state = await readState(dir);
  const branches = new Map(
    Object.entries(state.branches)
      .filter(([, b]) => b.changeRequestId !== undefined)
      .map(([name, b]) => [b.changeRequestId!, name]),
  );
  // Commits on main go to its outbox change request (push.ts): main is its branch.
  const outbox = state.branches.main?.outbox?.changeRequestId;
  if (outbox !== undefined) branches.set(outbox, 'main');
  const entries: ChangeRequestEntry[] = [];
  for await (const cr of client.changeRequests.list(state.binding.spaceId, { status: options.status ?? 'open' })) {
    const branch = branches.get(cr.id) ?? null;
    entries.push({
      number: cr.number,
      id: cr.id,
      status: cr.status,
      subject: cr.subject,
      outdated: cr.outdated,
      updatedAt: cr.updatedAt,
      url: cr.urls.app,
      branch,
      followed: branch !== null && isFollowed(state.branches[branch]!),
    });
  }
  return entries;
}
