import type { Client, ContentScope } from '../client/index.js';
import type { ContentChange } from '../model/index.js';
import { renderDocument } from '../workspace/index.js';
import { toWorkspacePage } from './remote-content.js';

/** update_page fields that live in the page's own file: changing only these leaves SUMMARY.md as it was. */
const PAGE_FILE_FIELDS = new Set(['operation', 'page', 'document', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex', 'condition']);

/**
 * The pages a push changed when it changed nothing but pages' own files (documents and front
 * matter), or undefined when it did more (a new, moved, renamed or deleted page, a file, the
 * variables): then only the whole content, read back, says what the folder is.
 */
export function pageFilesOnly(changes: readonly ContentChange[]): string[] | undefined {
  const pages: string[] = [];
  for (const change of changes) {
    if (change.operation !== 'update_page' || !Object.keys(change).every((key) => PAGE_FILE_FIELDS.has(key))) return undefined;
    pages.push(change.page);
  }
  return pages;
}

/**
 * The files of `pageIds` as the server now holds them, rendered as `writeFolder` would: one
 * request per page, whatever the size of the space. `pathOf` gives each page's file.
 */
export async function readBackPages(
  client: Client,
  scope: ContentScope,
  pageIds: readonly string[],
  pathOf: (pageId: string) => { root: string; path: string },
  assetName: (fileId: string) => string | undefined,
): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  await Promise.all([...new Set(pageIds)].map(async (id) => {
    const page = toWorkspacePage(await client.content.page(scope, id, { format: 'markdown' }));
    if (page.type !== 'document') return;
    const { root, path } = pathOf(id);
    files.set(root + path, encoder.encode(renderDocument(page, path, assetName)));
  }));
  return files;
}
