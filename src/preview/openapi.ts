import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dirOf, joinPath, localSpecFiles, type OpenApiFiles } from '../content/index.js';

/**
 * Where the preview finds a spec a block names by slug or URL (`docsync preview` in a bound
 * workspace: the platform's latest version of its organization's spec); undefined for none.
 */
export type SpecResolver = (ref: string) => Promise<OpenApiFiles | undefined>;

/** `src` of the older `{% openapi %}` and `{% swagger %}` blocks, and `spec` of the others. */
const SRC = /\{%\s*(?:openapi|swagger)\s[^%]*?\bsrc="([^"]+)"/g;
const SPEC = /\{%\s*openapi-(?:operation|webhook|schemas)\b[^%]*?\bspec="([^"]+)"/g;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The specs a page's OpenAPI blocks name, by the `src` or `spec` as written. A `src` naming a
 * file of the folder (relative to the page's file, as GitBook writes them:
 * `../.gitbook/assets/api.yaml`) is read from disk on each render, so an edit of the spec shows
 * at once; any other `src` or `spec` (a slug, a URL) is asked of `remote` when there is one. A
 * `src` that climbs out of the folder or names no OpenAPI document, and a ref `remote` does not
 * know, are left out (the block stays a placeholder card).
 */
export async function pageSpecs(
  dir: string,
  pageFile: string,
  markdown: string,
  remote?: SpecResolver,
): Promise<Map<string, OpenApiFiles> | undefined> {
  let specs: Map<string, OpenApiFiles> | undefined;
  const add = (ref: string, files: OpenApiFiles | undefined) => {
    if (files) (specs ??= new Map()).set(ref, files);
  };
  for (const [, src] of markdown.matchAll(SRC)) {
    if (specs?.has(src!)) continue;
    const local = URL_LIKE.test(src!) ? undefined : await localFile(dir, pageFile, src!);
    add(src!, local ?? (remote ? await remote(src!) : undefined));
  }
  if (remote) for (const [, slug] of markdown.matchAll(SPEC)) if (!specs?.has(slug!)) add(slug!, await remote(slug!));
  return specs;
}

function localFile(dir: string, pageFile: string, src: string): Promise<OpenApiFiles | undefined> {
  const entry = joinPath(dirOf(pageFile), src);
  if (entry === undefined || entry === '') return Promise.resolve(undefined);
  return localSpecFiles(entry, async (path) => {
    const file = joinPath(dirOf(entry), path);
    if (file === undefined) return undefined;
    return readFile(join(dir, ...file.split('/')), 'utf8').catch(() => undefined);
  });
}
