import { unzipSync } from 'fflate';
import { badRequest, fileNameProblem } from '../../model/index.js';
import { IMPORT_LIMITS } from './limits.js';

export interface ZipFolder {
  /** Files by path relative to the folder root, `/`-separated. */
  files: Map<string, Uint8Array>;
}

/**
 * The files of a zip archive, refusing what could hurt the server: more entries than allowed,
 * entries that together declare more uncompressed bytes than allowed (checked before anything
 * is inflated; an entry that lies about its size is inflated into a buffer of the declared size
 * only, so it cannot exceed it), and paths that are absolute or climb out with `..`. When every
 * entry sits under one top folder (a repository archive), that folder is the root.
 */
export function readZip(bytes: Uint8Array, url: string): ZipFolder {
  let declared = 0;
  let entries = 0;
  let problem: string | undefined;
  let raw: Record<string, Uint8Array>;
  try {
    raw = unzipSync(bytes, {
      filter: (file) => {
        if (file.name.endsWith('/')) return false;
        entries += 1;
        declared += file.originalSize;
        const pathProblem = unsafePath(file.name);
        if (pathProblem) problem ??= `zip entry ${JSON.stringify(file.name)} ${pathProblem}`;
        if (entries > IMPORT_LIMITS.maxZipEntries) problem ??= `${url}: the zip has more than ${IMPORT_LIMITS.maxZipEntries} files`;
        if (declared > IMPORT_LIMITS.maxUnzippedBytes) problem ??= `${url}: the zip expands to more than ${IMPORT_LIMITS.maxUnzippedBytes} bytes`;
        return problem === undefined;
      },
    });
  } catch {
    throw badRequest(`${url}: not a readable zip archive`);
  }
  if (problem) throw badRequest(problem);
  const names = Object.keys(raw);
  const top = names[0]?.split('/')[0];
  const nested = top !== undefined && names.length > 0 && names.every((n) => n.startsWith(`${top}/`)) && !names.includes('SUMMARY.md') && !names.includes('README.md');
  const files = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(raw)) files.set(nested ? name.slice(top.length + 1) : name, data);
  return { files };
}

/** Longest path of an entry: a file's name is at most 256 characters, under a few folders. */
const MAX_ENTRY_PATH = 1024;

/** Every entry's path follows the rules of a file name (the assets' own names are checked as such by the import). */
function unsafePath(name: string): string | undefined {
  return fileNameProblem(name, MAX_ENTRY_PATH);
}
