import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { FileMap } from '../workspace/index.js';

const TEXT = /\.(md|ya?ml)$/i;
const SKIPPED = new Set(['.git', 'node_modules']);

/**
 * The folder as the workspace reader takes it, for a preview: markdown and YAML as text, every
 * other file listed with no bytes (the preview serves assets from disk when asked; reading a
 * folder of images at start would only slow it down).
 */
export async function loadPreviewFolder(dir: string): Promise<FileMap> {
  const files: FileMap = new Map();
  const walk = async (folder: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    await Promise.all(entries.map(async (entry) => {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) await walk(full);
      } else if (entry.isFile()) {
        const path = relative(dir, full).split(sep).join('/');
        files.set(path, TEXT.test(path) ? await readFile(full, 'utf8') : new Uint8Array());
      }
    }));
  };
  await walk(dir);
  return files;
}
