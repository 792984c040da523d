import type { Kysely } from 'kysely';
import { markdownToJsonDocument, pagePaths, walkPages, type JsonDocument } from '../../content/index.js';
import { DocsyncError, type ContentTree, type PageFormat, type RevisionFile, type RevisionPage, type TreeFile, type TreePage } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { RevisionRow } from '../store/revisions.js';
import type { SpaceRow } from '../store/spaces.js';
import { getBlobs } from '../store/blobs.js';
import { EMPTY_GIT_OID, gitOids } from '../store/git-oids.js';
import { pageView, type PageBody } from '../views/page.js';
import { fileView } from '../views/file.js';
import { apiUrl } from '../urls.js';

/** One readable revision: the space's head, a change request's head, or a named revision. */
export interface ContentScope {
  space: SpaceRow;
  spaceId: string;
  revision: RevisionRow;
  tree: ContentTree;
  /** Absolute base URL of this server. */
  base: string;
  /** App location of this content (`.../spaces/S`, `.../change-requests/N`, `.../revisions/R`). */
  appURL: string;
}

export interface RenderOptions {
  /** False omits mutable git metadata (the published `metadata=false`). */
  metadata: boolean;
  /** Body of document pages; without one a page carries its JSON document (see docs/api.md). */
  format?: PageFormat | undefined;
}

// Rendering a JSON document parses markdown; a document is immutable per sha, so it is reused.
const DOCUMENT_CACHE = 10_000;
const documents = new Map<string, JsonDocument>();
const EMPTY_DOCUMENT: JsonDocument = { object: 'document', data: {}, nodes: [] };

function jsonDocument(sha: string, text: string): JsonDocument {
  let doc = documents.get(sha);
  if (!doc) {
    doc = markdownToJsonDocument(text);
    documents.set(sha, doc);
    if (documents.size > DOCUMENT_CACHE) documents.delete(documents.keys().next().value as string);
  }
  return doc;
}

/**
 * Renders pages (each with its whole subtree) as RevisionPages: reads every document of the
 * subtrees once, then builds the views. A page without a stored document is empty.
 */
export async function renderPages(db: Kysely<Database>, scope: ContentScope, pages: readonly TreePage[], options: RenderOptions): Promise<RevisionPage[]> {
  const shas = new Set<string>();
  for (const root of pages) for (const page of walkPages([root])) if (page.document !== undefined) shas.add(page.document);
  const bytes = await getBlobs(db, shas);
  const oids = options.metadata ? await gitOids(db, shas, bytes) : new Map<string, string>();
  const text = (page: TreePage) => (page.document === undefined ? '' : bytes.get(page.document)?.toString('utf8') ?? '');
  const body = (page: TreePage): PageBody => {
    if (options.format === 'markdown') return { markdown: text(page) };
    return { document: page.document === undefined ? EMPTY_DOCUMENT : jsonDocument(page.document, text(page)) };
  };
  const ctx = {
    paths: pagePaths(scope.tree.pages),
    appURL: (pageId: string) => `${scope.appURL}/pages/${pageId}`,
    metadata: options.metadata,
    body,
    gitOid: (page: TreePage) => (page.document === undefined ? EMPTY_GIT_OID : oids.get(page.document) ?? EMPTY_GIT_OID),
  };
  return pages.map((page) => pageView(page, ctx));
}

/** Where a file's bytes are served: by revision, so the URL keeps working after later edits. */
export function downloadURL(scope: ContentScope, file: TreeFile): string {
  return apiUrl(scope.base, `/spaces/${scope.spaceId}/revisions/${scope.revision.id}/files/${file.id}/download`);
}

export async function renderFiles(db: Kysely<Database>, scope: ContentScope, files: readonly TreeFile[], options: RenderOptions): Promise<RevisionFile[]> {
  const oids = options.metadata ? await gitOids(db, files.map((f) => f.blob)) : new Map<string, string>();
  const ctx = { downloadURL: (file: TreeFile) => downloadURL(scope, file), metadata: options.metadata, gitOid: (sha: string) => oids.get(sha) };
  return files.map((file) => fileView(file, ctx));
}

export function findFile(scope: ContentScope, fileId: string): TreeFile {
  const file = scope.tree.files.find((f) => f.id === fileId);
  if (!file) throw new DocsyncError('not_found', `file ${fileId} not found in revision ${scope.revision.id}`);
  return file;
}
