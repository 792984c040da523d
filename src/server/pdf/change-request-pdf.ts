import type { Kysely } from 'kysely';
import { findPage, walkPages } from '../../content/index.js';
import { DocsyncError, type TreePage } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { ChangeRequestRow } from '../store/change-requests.js';
import { putBlob } from '../store/blobs.js';
import { loadFacts } from '../revisions/facts.js';
import { findRevision, revisionTree } from '../store/revisions.js';
import type { PdfPage } from './render-pdf.js';
import { runParse } from '../parse/pool.js';

export interface PdfScope {
  /** A page of the change request: with `only`, that page alone, else it and its subpages. */
  page?: string;
  only?: boolean;
}

/**
 * Renders the change request's content (its head revision) as a PDF, stores it as a blob and
 * returns the blob's sha256; a revision's PDF is rendered once and then served from `pdf_renders`. Pages come in document order; a group shows its title, a link page
 * its target.
 */
export async function changeRequestPdf(db: Kysely<Database>, cr: ChangeRequestRow, scope: PdfScope): Promise<string> {
  const revision = await findRevision(db, cr.revision_id);
  if (!revision) throw new Error(`head revision ${cr.revision_id} of change request ${cr.id} is missing`);
  // A revision never changes, so neither does its PDF: rendered once per revision and scope.
  const key = scope.page === undefined ? 'all' : `${scope.only ? 'only' : 'page'}:${scope.page}`;
  const cached = await db
    .selectFrom('pdf_renders')
    .select('blob')
    .where('revision_id', '=', revision.id)
    .where('scope', '=', key)
    .executeTakeFirst();
  if (cached) return cached.blob;
  const tree = await revisionTree(db, revision);
  let pages: TreePage[];
  if (scope.page !== undefined) {
    const page = findPage(tree.pages, scope.page);
    if (!page) throw new DocsyncError('not_found', `page ${scope.page} not found in change request #${cr.number}`);
    pages = scope.only ? [page] : [...walkPages([page])];
  } else {
    pages = [...walkPages(tree.pages)];
  }
  // Text blocks hold no link destination, so the facts derived at write time are what it lays out.
  const facts = await loadFacts(
    db,
    pages.flatMap((p) => (p.document === undefined ? [] : [p.document])),
  );
  const rendered: PdfPage[] = pages.map((page) => {
    if (page.type === 'link') return { title: page.title, blocks: [{ kind: 'paragraph', text: page.href ?? '' }] };
    if (page.type === 'computed') return { title: page.title, blocks: [] };
    return { title: page.title, blocks: page.document === undefined ? [] : (facts.get(page.document)?.textBlocks ?? []) };
  });
  const title = cr.subject.trim() === '' ? `Change request #${cr.number}` : cr.subject;
  // Dated by the revision, so the same content renders to the same bytes and is stored once.
  // pdfkit is synchronous and slow on long pages: it runs on a worker, within the budget.
  const { bytes } = await runParse(
    { kind: 'pdf', title, pages: rendered, createdAt: revision.created_at },
    `the PDF of change request #${cr.number}`,
    'render',
  );
  const blob = await putBlob(db, bytes);
  await db
    .insertInto('pdf_renders')
    .values({ revision_id: revision.id, scope: key, blob })
    .onConflict((oc) => oc.columns(['revision_id', 'scope']).doNothing())
    .execute();
  return blob;
}
