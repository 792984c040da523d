import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '../../client/index.js';
import type { ChangeRequest } from '../../model/index.js';
import { removeJsonFile, writeJsonFile } from '../state/json-file.js';
import { stateDir } from '../state/state.js';

/**
 * Main being brought into a change request by adopt-main (`.git/docsync/adopting/<id>.json`),
 * written before the update is sent. The update is not safe to send twice blindly, and its answer
 * can be lost after the server applied it (a cut connection, a kill before the state is written):
 * the change request then stands at a revision the branch's state does not know, which the next
 * attempt would refuse as a reviewer's edit. The record tells that revision for main's update.
 */
export interface Adopting {
  version: 1;
  changeRequestId: string;
  /** The change request's head the update was sent on (after docsync's own reverts, if any). */
  revision: string;
  /** Main's head the update brings in. */
  main: string;
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
