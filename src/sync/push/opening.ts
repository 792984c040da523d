import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, ConnectionError, type Client } from '../../client/index.js';
import type { ChangeRequest } from '../../model/index.js';
import { removeJsonFile, writeJsonFile } from '../state/json-file.js';
import { stateDir, type WorkspaceState } from '../state/state.js';

/**
 * A change request being opened (`.git/docsync/opening/<branch>.json`), written before the
 * request that opens it. Opening one is not safe to send twice, and its answer can be lost after
 * the server acted (a connection cut, a process killed before the state was written): the next
 * attempt then finds the change request it opened, instead of opening a second one, and pull
 * does not take it for one opened on the platform.
 */
export interface Opening {
  version: 1;
  branch: string;
  subject: string;
  /** When the first attempt began (ISO). */
  since: string;
  /**
   * The id of the user who opens it (`GET /v1/user`), asked for only when a lost answer is looked
   * for: a change request another person opened with the same subject is never taken for this one.
   */
  creator?: string;
}

/** How far the server's clock may be behind ours when a change request is matched to its opening. */
const CLOCK_SLACK_MS = 10 * 60_000;

const openingDir = (dir: string) => join(stateDir(dir), 'opening');
const openingPath = (dir: string, branch: string) => join(openingDir(dir), `${encodeURIComponent(branch)}.json`);

export async function readOpenings(dir: string): Promise<Opening[]> {
  let names: string[];
  try {
    names = await readdir(openingDir(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: Opening[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    try {
      const opening = JSON.parse(await readFile(join(openingDir(dir), name), 'utf8')) as Opening;
      if (opening.version === 1 && typeof opening.subject === 'string') out.push(opening);
    } catch {
      // A file cut by a crash before its rename cannot exist (writes are atomic); anything else unreadable is ignored.
    }
  }
  return out;
}

export async function writeOpening(dir: string, opening: Opening): Promise<void> {
  await mkdir(openingDir(dir), { recursive: true });
  await writeJsonFile(openingPath(dir, opening.branch), opening, { pretty: false, flush: true });
}

export async function clearOpening(dir: string, branch: string): Promise<void> {
  await removeJsonFile(openingPath(dir, branch));
}

/** Change requests the workspace tracks already, a branch's or main's outbox. */
function trackedIds(state: WorkspaceState): Set<string> {
  const ids = new Set<string>();
  for (const branch of Object.values(state.branches)) {
    if (branch.changeRequestId !== undefined) ids.add(branch.changeRequestId);
    if (branch.outbox?.changeRequestId !== undefined) ids.add(branch.outbox.changeRequestId);
  }
  return ids;
}

/**
 * Whether `cr` may be the one an opening began: its subject, open, no edits yet, created after the
 * opening began, and by the opening's user when the opening knows who that is. Pure.
 */
export function isOpenedBy(cr: ChangeRequest, opening: Opening): boolean {
  return (
    cr.status === 'open' &&
    cr.subject === opening.subject &&
    cr.revision === cr.revisionInitial &&
    Date.parse(cr.createdAt) >= Date.parse(opening.since) - CLOCK_SLACK_MS &&
    (opening.creator === undefined || cr.createdBy?.id === opening.creator)
  );
}

/**
 * `opening` with its creator: the token's user, asked once and kept in the record (so that pull,
 * which sends no request for it, tells the opening's change request from another person's too).
 */
async function withCreator(client: Client, dir: string, opening: Opening): Promise<Opening & { creator: string }> {
  if (opening.creator !== undefined) return { ...opening, creator: opening.creator };
  const known = { ...opening, creator: (await client.user.get()).id };
  await writeOpening(dir, known);
  return known;
}

/**
 * The change request an earlier attempt of `opening` opened, if it did: the latest that matches
 * (created by the opening's user: another person's of the same subject is not it) and nothing tracks.
 */
export async function findOpened(
  client: Client,
  spaceId: string,
  opening: Opening & { creator: string },
  state: WorkspaceState,
): Promise<ChangeRequest | undefined> {
  const tracked = trackedIds(state);
  let found: ChangeRequest | undefined;
  for await (const cr of client.changeRequests.list(spaceId, { status: 'open' })) {
    if (tracked.has(cr.id) || !isOpenedBy(cr, opening)) continue;
    if (found === undefined || cr.number > found.number) found = cr;
  }
  return found;
}

/**
 * A failure after which a write may or may not have been applied, or that a later attempt may
 * not meet: no answer (a reset, a cut answer, a timeout) or a gateway's or a rate limiter's
 * answer. Everything else (4xx) is the server's word on the request.
 */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  return error instanceof ApiError && [429, 502, 503, 504].includes(error.status);
}

/**
 * Opens the branch's change request once: an opening left by an attempt whose answer was lost is
 * looked for first, and a lost answer now is looked for at once. The opening stays until the
 * caller has recorded the change request in the state (`clearOpening`).
 */
export async function openChangeRequest(
  client: Client,
  dir: string,
  spaceId: string,
  branch: string,
  subject: string,
  state: WorkspaceState,
): Promise<ChangeRequest> {
  const earlier = (await readOpenings(dir)).find((o) => o.branch === branch);
  if (earlier !== undefined) {
    const found = await findOpened(client, spaceId, await withCreator(client, dir, earlier), state);
    if (found !== undefined) return found;
  }
  const opening: Opening = {
    version: 1,
    branch,
    subject,
    since: earlier?.since ?? new Date().toISOString(),
    ...(earlier?.creator !== undefined ? { creator: earlier.creator } : {}),
  };
  await writeOpening(dir, opening);
  try {
    return await client.changeRequests.create(spaceId, { subject });
  } catch (error) {
    if (!isTransient(error)) throw error;
    const found = await findOpened(client, spaceId, await withCreator(client, dir, opening), state);
    if (found !== undefined) return found;
    throw error;
  }
}
