import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { FileMap } from '../workspace/index.js';

const TEXT = /\.(md|ya?ml)$/i;
const SKIPPED = new Set(['.git', 'node_modules']);
const READS_AT_ONCE = 64;
/** The files the site's structure is read from: SUMMARY.md, .gitbook.yaml, variables, includes. */
export const STRUCTURE = /(^|\/)(SUMMARY\.md|\.gitbook\.yaml|\.gitbook\/vars\.ya?ml)$|\.gitbook\/includes\//;

/**
 * The folder as the workspace reader takes it, for a preview: markdown and YAML as text, every
 * other file listed with no bytes (the preview serves assets from disk when asked; reading a
 * folder of images at start would only slow it down). `only` limits the text read to the files
 * it accepts; the others are listed as empty text and named in `unread`. `signal` stops the walk
 * between reads (it rejects with the signal's reason).
 */
export async function loadPreviewFolder(
  dir: string,
  only?: (path: string) => boolean,
  signal?: AbortSignal,
): Promise<{ files: FileMap; unread: Set<string> }> {
  const files: FileMap = new Map();
  const unread = new Set<string>();
  const toRead: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    signal?.throwIfAborted();
    const entries = await readdir(folder, { withFileTypes: true });
    await Promise.all(
      entries.map(async (entry) => {
        const full = join(folder, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED.has(entry.name)) await walk(full);
        } else if (entry.isFile()) {
          const path = relative(dir, full).split(sep).join('/');
          if (!TEXT.test(path)) files.set(path, new Uint8Array());
          else {
            files.set(path, '');
            if (only === undefined || only(path)) toRead.push(path);
            else unread.add(path);
          }
        }
      }),
    );
  };
  await walk(dir);
  // A few reads at a time, not thousands queued at once: a stop then waits for one slice only.
  for (let i = 0; i < toRead.length; i += READS_AT_ONCE) {
    signal?.throwIfAborted();
    await Promise.all(
      toRead.slice(i, i + READS_AT_ONCE).map(async (path) => files.set(path, await readFile(join(dir, ...path.split('/')), 'utf8'))),
    );
  }
  signal?.throwIfAborted();
  return { files, unread };
}
