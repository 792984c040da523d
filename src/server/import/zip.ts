import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Inflate } from 'fflate';
import { badRequest, fileNameProblem } from '../../model/index.js';
import { IMPORT_LIMITS } from './limits.js';
import { ZipFormatError, zipDirectory, type ZipEntry } from './zip-directory.js';
import { announcedWork } from '../util/work-channel.js';

export interface ZipFolder {
  /** Files by path relative to the folder root, `/`-separated. */
  files: Map<string, Uint8Array>;
}

/**
 * Compressed bytes handed to the inflater at once. Deflate inflates at most about 1,032 times,
 * so a step produces at most about 1 MiB (a few ms) before the limits are checked and the event
 * loop gets a turn; 16 KiB steps held it for 0.4 s on a bomb.
 */
const STEP = 1024;
/** Below this an entry may inflate at any ratio (small files of one repeated byte are common). */
const RATIO_FLOOR = 1024 * 1024;
/** Longest path of an entry: a file's name is at most 256 characters, under a few folders. */
const MAX_ENTRY_PATH = 1024;

/**
 * One entry's bytes, counted as they are produced: inflating stops as soon as the entry passes
 * its declared size, the archive's total passes `maxUnzippedBytes`, or the entry passes
 * `maxInflateRatio` times its compressed size, so a bomb costs no more than the limit however it
 * lies in its headers. A stored entry must hold exactly the size it declares. The event loop gets
 * a turn between steps.
 */
async function inflateEntry(bytes: Uint8Array, entry: ZipEntry, used: number, url: string): Promise<Uint8Array> {
  const where = `${url}: zip entry ${JSON.stringify(entry.name)}`;
  const compressed = bytes.subarray(entry.start, entry.end);
  const over = (produced: number) => {
    if (used + produced > IMPORT_LIMITS.maxUnzippedBytes)
      return `${url}: the zip expands to more than ${IMPORT_LIMITS.maxUnzippedBytes} bytes`;
    if (produced > entry.size) return `${where} inflates past the ${entry.size} bytes it declares`;
    if (produced > RATIO_FLOOR && produced > entry.compressedSize * IMPORT_LIMITS.maxInflateRatio) {
      return `${where} inflates more than ${IMPORT_LIMITS.maxInflateRatio} times its compressed size (a zip bomb?)`;
    }
    return undefined;
  };
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size)
      throw badRequest(`${where} is stored with ${entry.compressedSize} bytes but declares ${entry.size}`);
    const problem = over(entry.size);
    if (problem) throw badRequest(problem);
    return compressed.slice();
  }
  if (entry.method !== 8) throw badRequest(`${where} uses compression method ${entry.method}; only stored and deflated entries are read`);
  const chunks: Uint8Array[] = [];
  let produced = 0;
  let problem: string | undefined;
  const inflater = new Inflate((chunk) => {
    produced += chunk.length;
    problem ??= over(produced);
    if (problem === undefined) chunks.push(chunk);
  });
  try {
    let sinceYield = 0;
    for (let at = 0; at < compressed.length && problem === undefined; at += STEP) {
      const before = produced;
      inflater.push(compressed.subarray(at, at + STEP), at + STEP >= compressed.length);
      // A turn for other requests after about 1 MiB of work, inflated or read.
      sinceYield += produced - before + STEP * 16;
      if (sinceYield >= 1024 * 1024) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
  } catch {
    throw badRequest(`${where} is not valid deflate data`);
  }
  if (problem) throw badRequest(problem);
  if (produced !== entry.size) throw badRequest(`${where} inflates to ${produced} bytes but declares ${entry.size}`);
  const out = new Uint8Array(produced);
  let offset = 0;
  for (const chunk of chunks) out.set(chunk, (offset += chunk.length) - chunk.length);
  return out;
}

/**
 * The files of a zip archive, refusing what could hurt the server: more entries than allowed,
 * paths that are not clean relative paths (`fileNameProblem`), and more inflated bytes than
 * allowed, counted as produced (`inflateEntry`). When every entry sits under one top folder (a
 * repository archive), that folder is the root.
 */
export async function readZip(bytes: Uint8Array, url: string): Promise<ZipFolder> {
  let entries: ZipEntry[];
  try {
    entries = zipDirectory(bytes).filter((e) => !e.name.endsWith('/'));
  } catch (error) {
    if (error instanceof ZipFormatError) throw badRequest(`${url}: not a readable zip archive (${error.message})`);
    throw error;
  }
  if (entries.length > IMPORT_LIMITS.maxZipEntries) throw badRequest(`${url}: the zip has more than ${IMPORT_LIMITS.maxZipEntries} files`);
  for (const entry of entries) {
    const problem = fileNameProblem(entry.name, MAX_ENTRY_PATH);
    if (problem) throw badRequest(`zip entry ${JSON.stringify(entry.name)} ${problem}`);
  }
  const raw = new Map<string, Uint8Array>();
  let used = 0;
  // Announced (src/server/util/work-channel.ts): the tests count requests answered between steps.
  await announcedWork(`inflate ${url}`, async () => {
    for (const entry of entries) {
      const data = await inflateEntry(bytes, entry, used, url);
      used += data.length;
      raw.set(entry.name, data);
    }
  });
  const names = [...raw.keys()];
  const top = names[0]?.split('/')[0];
  const nested =
    top !== undefined &&
    names.length > 0 &&
    names.every((n) => n.startsWith(`${top}/`)) &&
    !names.includes('SUMMARY.md') &&
    !names.includes('README.md');
  const files = new Map<string, Uint8Array>();
  for (const [name, data] of raw) files.set(nested ? name.slice(top.length + 1) : name, data);
  return { files };
}
