import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dirOf, joinPath, localSpecFiles, type OpenApiFiles } from '../content/index.js';

/** The `src` of a page's older `{% openapi %}` and `{% swagger %}` blocks. */
const SRC = /\{%\s*(?:openapi|swagger)\s[^%]*?\bsrc="([^"]+)"/g;

/**
 * The specs a page's `{% openapi src="..." %}` and `{% swagger src="..." %}` blocks name as files
 * of the folder (relative to the page's file, as GitBook writes them: `../.gitbook/assets/api.yaml`),
 * read from disk on each render so an edit of the spec shows at once; by `src` as written. A
 * `src` that is a URL, climbs out of the folder or names no OpenAPI document is left out (the
 * block stays a placeholder card).
 */
export async function localSpecs(dir: string, pageFile: string, markdown: string): Promise<Map<string, OpenApiFiles> | undefined> {
  let specs: Map<string, OpenApiFiles> | undefined;
  for (const [, src] of markdown.matchAll(SRC)) {
    if (specs?.has(src!) || /^[a-z][a-z0-9+.-]*:/i.test(src!)) continue;
    const entry = joinPath(dirOf(pageFile), src!);
    if (entry === undefined || entry === '') continue;
    const read = async (path: string) => {
      const file = joinPath(dirOf(entry), path);
      if (file === undefined) return undefined;
      return readFile(join(dir, ...file.split('/')), 'utf8').catch(() => undefined);
    };
    const files = await localSpecFiles(entry, read);
    if (files) (specs ??= new Map()).set(src!, files);
  }
  return specs;
}
