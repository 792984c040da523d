import { ApiError, type Client } from '../../client/index.js';
import { isGitError, readFileAt } from '../../git/index.js';
import { CHANGED_PAGES_EXTENSION } from '../../model/index.js';
import { GITBOOK_YAML } from '../../workspace/index.js';
import { usesCrlf, withCrlfAt } from '../line-endings.js';
import { folderPrefix } from '../push/read.js';
import { PAGE_FILE_FIELDS, readBackPages } from '../push/read-back.js';
import type { BranchState } from '../state/state.js';

/** Beyond this many changed pages, one read of the whole revision costs less than a read per page. */
const PAGES_MAX = 50;

/** The pages a platform edit changed, each with the file the workspace keeps it in (from the top of the repository). */
export interface ChangedPageFiles {
  revision: string;
  pages: { id: string; path: string }[];
  /** The root the folder's paths start from (`.gitbook.yaml`'s `root`), and the index's paths under it by page id. */
  prefix: string;
}

/**
 * What a pull of `synced` to `revision` must write, when the server says (extension
 * `changed-pages`) that only pages' own files changed (documents and front matter; the tree's
 * shape, titles, files, variables and includes as they were): each changed page and its file.
 * Undefined when the whole revision must be read: a server without the extension (the hosted
 * API), a change of anything else, a page the synced index has no file for, or many pages.
 */
export async function changedPageFiles(
  client: Client,
  dir: string,
  spaceId: string,
  synced: BranchState,
  revision: string,
): Promise<ChangedPageFiles | undefined> {
  if (!client.capabilities.extensions.has(CHANGED_PAGES_EXTENSION) || revision === synced.remoteRevision) return undefined;
  let changed;
  try {
    changed = await client.revisions.changedPages(spaceId, revision, synced.remoteRevision);
  } catch (error) {
    // The synced revision is not one the server can compare with (a space moved or restored): read it all.
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
  if (changed.structure || changed.pages.length > PAGES_MAX) return undefined;
  if (!changed.pages.every((page) => page.fields.every((field) => PAGE_FILE_FIELDS.has(field)))) return undefined;
  const files = new Map<string, string>();
  for (const [key, id] of Object.entries(synced.index.pages)) if (/\.md$/i.test(key) && !files.has(id)) files.set(id, key);
  const pages: { id: string; path: string }[] = [];
  for (const { id } of changed.pages) {
    const path = files.get(id);
    if (path === undefined) return undefined;
    pages.push({ id, path });
  }
  const config = await readFileAt(dir, synced.syncedCommit, GITBOOK_YAML).catch((error: unknown) => {
    if (isGitError(error, 'not-found')) return undefined;
    throw error;
  });
  const prefix = folderPrefix(config === undefined ? new Map() : new Map([[GITBOOK_YAML, config]]));
  return { revision, pages: pages.map((page) => ({ ...page, path: prefix + page.path })), prefix };
}

/**
 * The changed pages' files as the platform has them at the revision, rendered as a read of the
 * whole revision would render them (one page read each), in CRLF where `ours` keeps the file in
 * CRLF. `synced` gives the asset names pages link to.
 */
export async function readChangedPages(
  client: Client,
  dir: string,
  spaceId: string,
  changed: ChangedPageFiles,
  synced: BranchState,
  ours: string,
): Promise<Map<string, Uint8Array>> {
  const fileNames = new Map(Object.entries(synced.index.files).map(([name, id]) => [id, name]));
  const paths = new Map(changed.pages.map((page) => [page.id, page.path.slice(changed.prefix.length)]));
  const files = await readBackPages(
    client,
    { space: spaceId, revision: changed.revision },
    changed.pages.map((page) => page.id),
    (id) => ({ root: changed.prefix, path: paths.get(id)! }),
    (id) => fileNames.get(id),
  );
  const crlf = new Set<string>();
  for (const path of files.keys()) {
    const held = await readFileAt(dir, ours, path).catch(() => undefined);
    if (usesCrlf(path, held)) crlf.add(path);
  }
  return withCrlfAt(files, crlf);
}
