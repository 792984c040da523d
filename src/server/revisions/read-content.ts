import type { Kysely } from 'kysely';
import {
  includeNames,
  markdownToJsonDocument,
  pagePaths,
  refPaths,
  renderIncludeMarkdown,
  walkPages,
  type JsonDocument,
} from '../../content/index.js';
import {
  DocsyncError,
  type ContentTree,
  type PageFormat,
  type RevisionFile,
  type RevisionPage,
  type RevisionReusableContent,
  type TreeFile,
  type TreePage,
  type TreeReusableContent,
} from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { RevisionRow } from '../store/revisions.js';
import type { SpaceRow } from '../store/spaces.js';
import { getBlobs } from '../store/blobs.js';
import { EMPTY_GIT_OID, gitBlobOid, gitOids } from '../store/git-oids.js';
import { loadPageMarkdown, templateOf } from './stored-documents.js';
import { loadFacts } from './facts.js';
import { generatedPageView, pageView, type PageBody } from '../views/page.js';
import type { GeneratedReference, PlacedGenerated } from '../openapi/reference.js';
import { fileView } from '../views/file.js';
import { reusableContentView } from '../views/reusable-content.js';
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
  /** The pages OpenAPI computed pages generated (docs/api.md, "API reference pages"); none without. */
  generated?: ReadonlyMap<string, GeneratedReference> | undefined;
}

const EMPTY_DOCUMENT: JsonDocument = { object: 'document', data: {}, nodes: [] };

/**
 * Renders pages (each with its whole subtree) as RevisionPages: reads every document of the
 * subtrees once, then builds the views. A page without a stored document is empty. Markdown
 * has its references rendered as paths from the page (docs/api.md, "Links"); so does `git.oid`,
 * which names the file a clone writes.
 */
export async function renderPages(
  db: Kysely<Database>,
  scope: ContentScope,
  pages: readonly TreePage[],
  options: RenderOptions,
): Promise<RevisionPage[]> {
  const all = pages.flatMap((root) => [...walkPages([root])]);
  const documents = await loadPageMarkdown(db, scope.tree, all);
  // Documents without references are their own markdown: their oids come from the shared cache.
  const plain = all.flatMap((page) => (page.document !== undefined && !documents.hasRefs(page) ? [page.document] : []));
  const oids = options.metadata ? await gitOids(db, plain, documents.blobs) : new Map<string, string>();
  const gitOid = (page: TreePage) => {
    if (page.document === undefined) return EMPTY_GIT_OID;
    return documents.renderedOid(page) ?? oids.get(page.document) ?? EMPTY_GIT_OID;
  };
  // The JSON document was derived when the document was written: a read parses nothing.
  const facts =
    options.format === 'markdown'
      ? new Map()
      : await loadFacts(
          db,
          all.flatMap((p) => (p.document === undefined ? [] : [p.document])),
        );
  const body = (page: TreePage): PageBody => {
    if (options.format === 'markdown') return { markdown: documents.markdown(page) };
    return { document: page.document === undefined ? EMPTY_DOCUMENT : (facts.get(page.document)?.document ?? EMPTY_DOCUMENT) };
  };
  return pages.map((page) => pageView(page, viewContext(scope, options, body, gitOid)));
}

function viewContext(scope: ContentScope, options: RenderOptions, body: (page: TreePage) => PageBody, gitOid: (page: TreePage) => string) {
  return {
    paths: pagePaths(scope.tree.pages),
    appURL: (pageId: string) => `${scope.appURL}/pages/${pageId}`,
    metadata: options.metadata,
    body,
    gitOid,
    ...(options.generated ? { generated: options.generated } : {}),
    generatedBody: (markdown: string): PageBody =>
      options.format === 'markdown' ? { markdown } : { document: markdownToJsonDocument(markdown) as JsonDocument },
  };
}

/** One generated page (with its generated subpages), as page reads by id and path answer it. */
export function renderGeneratedPage(scope: ContentScope, placed: PlacedGenerated, options: RenderOptions): RevisionPage {
  const ctx = viewContext(
    scope,
    options,
    () => ({ markdown: '' }),
    () => EMPTY_GIT_OID,
  );
  return generatedPageView(placed.page, ctx, { spec: placed.spec, base: placed.base });
}

/** Where a file's bytes are served: by revision, so the URL keeps working after later edits. */
export function downloadURL(scope: ContentScope, file: TreeFile): string {
  return apiUrl(scope.base, `/spaces/${scope.spaceId}/revisions/${scope.revision.id}/files/${file.id}/download`);
}

export async function renderFiles(
  db: Kysely<Database>,
  scope: ContentScope,
  files: readonly TreeFile[],
  options: RenderOptions,
): Promise<RevisionFile[]> {
  const oids = options.metadata
    ? await gitOids(
        db,
        files.map((f) => f.blob),
      )
    : new Map<string, string>();
  const ctx = {
    downloadURL: (file: TreeFile) => downloadURL(scope, file),
    metadata: options.metadata,
    gitOid: (sha: string) => oids.get(sha),
  };
  return files.map((file) => fileView(file, ctx));
}

export function findFile(scope: ContentScope, fileId: string): TreeFile {
  const file = scope.tree.files.find((f) => f.id === fileId);
  if (!file) throw new DocsyncError('not_found', `file ${fileId} not found in revision ${scope.revision.id}`);
  return file;
}

export function findReusableContent(scope: ContentScope, id: string): TreeReusableContent {
  const content = scope.tree.reusableContents.find((c) => c.id === id);
  if (!content) throw new DocsyncError('not_found', `reusable content ${id} not found in revision ${scope.revision.id}`);
  return content;
}

/**
 * Reads a reusable content's body as markdown, '' when it has none: its references rendered
 * from its include file in `tree` (as a page's are from its file); `rendered` when it has any.
 */
async function includeText(
  db: Kysely<Database>,
  tree: ContentTree,
  content: TreeReusableContent,
): Promise<{ text: string; bytes: Map<string, Buffer>; rendered: boolean }> {
  const bytes = content.document === undefined ? new Map<string, Buffer>() : await getBlobs(db, [content.document]);
  const stored = content.document === undefined ? '' : (bytes.get(content.document)?.toString('utf8') ?? '');
  const parts = content.document === undefined ? [stored] : templateOf(content.document, stored);
  return { text: renderIncludeMarkdown(parts, refPaths(tree)), bytes, rendered: parts.length > 1 };
}

/** One reusable content as RevisionReusableContent; `markdown` carries its body (docsync's `format=markdown`). */
export async function renderReusableContent(
  db: Kysely<Database>,
  scope: ContentScope,
  content: TreeReusableContent,
  options: { metadata: boolean; markdown: boolean },
): Promise<RevisionReusableContent> {
  // Contents written through the batch keep their name; older ones are named by their place.
  const name =
    content.name ?? includeNames(scope.tree.reusableContents)[scope.tree.reusableContents.findIndex((c) => c.id === content.id)] ?? '';
  const { text, bytes, rendered } =
    options.markdown || options.metadata
      ? await includeText(db, scope.tree, content)
      : { text: '', bytes: new Map<string, Buffer>(), rendered: false };
  // A body with references is the file a clone writes once rendered: its oid names that file.
  const oids =
    options.metadata && content.document !== undefined && !rendered
      ? await gitOids(db, [content.document], bytes)
      : new Map<string, string>();
  const renderedOid = rendered && options.metadata ? gitBlobOid(Buffer.from(text, 'utf8')) : undefined;
  return reusableContentView(content, {
    metadata: options.metadata,
    name: () => name,
    gitOid: (c) => renderedOid ?? (c.document === undefined ? EMPTY_GIT_OID : (oids.get(c.document) ?? EMPTY_GIT_OID)),
    ...(options.markdown ? { markdown: () => text } : {}),
  });
}

/** A reusable content's body as the published JSON document. */
export async function reusableContentDocument(db: Kysely<Database>, content: TreeReusableContent): Promise<JsonDocument> {
  if (content.document === undefined) return EMPTY_DOCUMENT;
  return (await loadFacts(db, [content.document])).get(content.document)?.document ?? EMPTY_DOCUMENT;
}
