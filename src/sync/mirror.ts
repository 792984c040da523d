import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '../client/index.js';
import { slugify, uniqueSlug } from '../content/index.js';
import { isExpectedError, type Space } from '../model/index.js';
import { clone } from './clone.js';
import { SyncError } from './errors.js';
import { writeJsonFile } from './state/json-file.js';
import { syncPass, type SyncPass } from './sync-pass.js';

export interface MirrorOptions {
  client: Client;
  apiUrl: string;
  orgId: string;
  dir: string;
  /** Push local changes too (a full sync pass per space); otherwise only clone and pull. */
  push?: boolean;
  allowMassDelete?: boolean;
  /** Page size of the spaces listing (the API's maximum, 1000, unless told). */
  pageSize?: number;
  onSpace?: (event: MirroredSpace) => void;
}

export interface MirroredSpace {
  spaceId: string;
  title: string;
  folder: string;
  action: 'cloned' | 'synced' | 'failed';
  pass?: SyncPass;
  error?: string;
}

/** `DIR/.docsync-mirror.json`: which folder each space has, so a renamed space keeps its folder. */
interface MirrorIndex {
  version: 1;
  orgId: string;
  folders: Record<string, string>;
}

const INDEX_FILE = '.docsync-mirror.json';

async function readIndex(dir: string, orgId: string): Promise<MirrorIndex> {
  const path = join(dir, INDEX_FILE);
  if (!existsSync(path)) return { version: 1, orgId, folders: {} };
  const index = JSON.parse(await readFile(path, 'utf8')) as MirrorIndex;
  if (index.orgId !== orgId)
    throw new SyncError('other-organization', `${dir} mirrors organization ${index.orgId}, not ${orgId}; mirror into another folder`);
  return index;
}

async function writeIndex(dir: string, index: MirrorIndex): Promise<void> {
  await writeJsonFile(join(dir, INDEX_FILE), index);
}

/**
 * Every space of an organization as a workspace in `DIR/<space-slug>/`: cloned when new, pulled
 * (and with `push`, pushed) when there. All through the one client, so its queue bounds the
 * requests of the whole mirror. A space that fails is reported and the others go on.
 */
export async function mirror(options: MirrorOptions): Promise<MirroredSpace[]> {
  const { client, dir, orgId } = options;
  await mkdir(dir, { recursive: true });
  const index = await readIndex(dir, orgId);
  const spaces: Space[] = [];
  for await (const space of client.spaces.list(orgId, options.pageSize !== undefined ? { limit: options.pageSize } : {}))
    spaces.push(space);
  const results: MirroredSpace[] = [];
  for (const space of spaces) results.push(await mirrorOne(options, index, space));
  return results;
}

/** Whether the mirror in `dir` has a folder for the space (a space it has not seen needs a whole pass, which lists it). */
export async function isMirrored(dir: string, orgId: string, spaceId: string): Promise<boolean> {
  return (await readIndex(dir, orgId)).folders[spaceId] !== undefined;
}

/**
 * One space of the mirror brought up to date, as `mirror` does for each (`mirror --watch`, on an
 * event of that space): one request for the space, then its pull (or sync pass).
 */
export async function mirrorSpace(options: MirrorOptions, spaceId: string): Promise<MirroredSpace> {
  await mkdir(options.dir, { recursive: true });
  const index = await readIndex(options.dir, options.orgId);
  return mirrorOne(options, index, await options.client.spaces.get(spaceId));
}

async function mirrorOne(options: MirrorOptions, index: MirrorIndex, space: Space): Promise<MirroredSpace> {
  const { client, dir } = options;
  let folder = index.folders[space.id];
  if (folder === undefined) {
    folder = uniqueSlug(slugify(space.title) || 'space', new Set(Object.values(index.folders)));
    index.folders[space.id] = folder;
    await writeIndex(dir, index);
  }
  const path = join(dir, folder);
  let result: MirroredSpace;
  try {
    if (!existsSync(join(path, '.git', 'docsync', 'state.json'))) {
      await clone({ client, apiUrl: options.apiUrl, spaceId: space.id, dir: path });
      result = { spaceId: space.id, title: space.title, folder, action: 'cloned' };
    } else {
      const pass = await syncPass(client, path, { pullOnly: options.push !== true, allowMassDelete: options.allowMassDelete === true });
      result = { spaceId: space.id, title: space.title, folder, action: 'synced', pass };
    }
  } catch (error) {
    // A failure of one space that is not a bug (a server's answer, a local refusal) is its result; a bug stops the mirror.
    if (!isExpectedError(error)) throw error;
    result = { spaceId: space.id, title: space.title, folder, action: 'failed', error: (error as Error).message };
  }
  options.onSpace?.(result);
  return result;
}
