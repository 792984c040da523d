import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '../../client/index.js';
import type { ChangeRequest } from '../../model/index.js';
import type { SyncErrorCode } from '../errors.js';
import { removeJsonFile, writeJsonFile } from '../state/json-file.js';
import { stateDir } from '../state/state.js';

/**
 * Main being brought into a change request by adopt-main (`.git/docsync/adopting/<id>.json`),
 * written before each write adopt-main sends: the update, and the revert writes around it. None
 * is safe to send twice blindly, and each answer can be lost after the server applied the write
 * (a cut connection, a kill before the state is written): the change request then stands at a
 * revision the branch's state does not know, which the next attempt would refuse as a reviewer's
 * edit, keeping docsync's revert. The record tells that revision for docsync's own.
 */
export interface Adopting {
  version: 1;
  changeRequestId: string;
  /** The change request's head the update is sent on (after docsync's own reverts, if any). */
  revision: string;
  /** Main's head the update brings in. */
  main: string;
  /**
   * The pages docsync reverted to the change request's base at `revision` (the reverts landed),
   * and `held`, the head before them, which they get back if the update still conflicts.
   */
  reverted?: { pages: string[]; held: string };
  /** A revert write sent on `revision`, not yet answered: see {@link Reverting}. */
  reverting?: Reverting;
}

/**
 * The `revert_page` write adopt-main sent on the record's `revision`: `pages` back to revision
 * `to` (the change request's base, to let main in; or `held`, giving them back). `stop`, only
 * when giving back: the failure the push stops with once they are back.
 */
export interface Reverting {
  pages: string[];
  to: string;
  stop?: { code: SyncErrorCode; message: string };
}

const adoptingPath = (dir: string, changeRequestId: string) =>
  join(stateDir(dir), 'adopting', `${encodeURIComponent(changeRequestId)}.json`);

export async function readAdopting(dir: string, changeRequestId: string): Promise<Adopting | undefined> {
  try {
    const record = JSON.parse(await readFile(adoptingPath(dir, changeRequestId), 'utf8')) as Adopting;
    return record.version === 1 && record.changeRequestId === changeRequestId ? record : undefined;
  } catch {
    return undefined; // none (written atomically, so never half a file)
  }
}

export async function writeAdopting(dir: string, record: Adopting): Promise<void> {
  await mkdir(join(stateDir(dir), 'adopting'), { recursive: true });
  await writeJsonFile(adoptingPath(dir, record.changeRequestId), record, { pretty: false, flush: true });
}

export async function clearAdopting(dir: string, changeRequestId: string): Promise<void> {
  await removeJsonFile(adoptingPath(dir, changeRequestId));
}

/**
 * Whether the change request's head is the update `record` sent, applied though its answer was
 * lost: an update revision whose parents are the head it was sent on and main's head.
 */
export async function updateLanded(client: Client, spaceId: string, changeRequest: ChangeRequest, record: Adopting): Promise<boolean> {
  if (changeRequest.outdated) return false;
  const revision = await client.revisions.get({ space: spaceId, revision: changeRequest.revision });
  return revision.parents[0] === record.revision && revision.parents.includes(record.main);
}
