import { writeJsonFile } from './json-file.js';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SyncError } from '../errors.js';
import { stateDir } from './state.js';

/**
 * What `docsync init` records for a workspace that has no space yet. It lives beside
 * `state.json`, never in it: every command that needs a space still gets readState's
 * "not a docsync workspace" for such a folder, and only publishing reads this marker.
 */
export interface Unbound {
  version: 1;
  /** Title of the space publishing creates. */
  title: string;
}

const unboundPath = (workspace: string) => join(stateDir(workspace), 'unbound.json');
const statePath = (workspace: string) => join(stateDir(workspace), 'state.json');

const exists = (path: string) =>
  readFile(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );

/** Marks `workspace` as not yet bound to a space. */
export async function writeUnbound(workspace: string, unbound: Unbound): Promise<void> {
  await mkdir(stateDir(workspace), { recursive: true });
  const target = unboundPath(workspace);
  await writeJsonFile(target, unbound);
}

/**
 * The marker of a workspace `docsync init` made and nothing published yet; undefined for any
 * other folder, a bound workspace included (a bound state wins over a marker left behind by a
 * publish that stopped between binding and clearing it).
 */
export async function readUnbound(workspace: string): Promise<Unbound | undefined> {
  if (await exists(statePath(workspace))) return undefined;
  let text: string;
  try {
    text = await readFile(unboundPath(workspace), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const unbound = JSON.parse(text) as Unbound;
    if (unbound.version !== 1 || typeof unbound.title !== 'string') throw new Error('unknown layout');
    return unbound;
  } catch (error) {
    throw new SyncError(
      'damaged-state',
      `${unboundPath(workspace)} is damaged (${(error as Error).message}); it should hold {"version": 1, "title": "<space title>"}`,
    );
  }
}

/** True for a workspace `docsync init` made whose space is not created yet. */
export const isUnbound = async (workspace: string): Promise<boolean> => (await readUnbound(workspace)) !== undefined;

export async function clearUnbound(workspace: string): Promise<void> {
  await rm(unboundPath(workspace), { force: true });
}
