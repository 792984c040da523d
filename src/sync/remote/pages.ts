import type { Client, ContentScope } from '../../client/index.js';
import { countPages, walkPages } from '../../content/index.js';
import type { RevisionPage } from '../../model/index.js';
import type { KnownContent } from './known-content.js';

/** Document pages that came without their markdown. */
const withoutMarkdown = (pages: readonly RevisionPage[]): RevisionPage[] =>
  [...walkPages(pages)].filter((page) => page.type === 'document' && typeof page.markdown !== 'string');

/**
 * Gives every document page of a revision its markdown. Our server puts it in the revision
 * itself; from another (the hosted API) each missing body is read on its own
 * (`GET .../revisions/{id}/page/{pageId}?format=markdown`), by revision so that every body is of
 * the revision the tree comes from, through the client's queue. `report` hears how many pages of
 * the tree have their content, links and groups counting from the start.
 *
 * The pages are filled in place: they are the fetch's own, parsed from the answer.
 */
export async function pagesWithMarkdown(
  client: Client,
  byRevision: ContentScope & { revision: string },
  pages: RevisionPage[],
  report: (done: number, total: number) => void,
  known?: KnownContent,
): Promise<RevisionPage[]> {
  const total = countPages(pages);
  const missing = withoutMarkdown(pages);
  let done = total - missing.length;
  report(done, total);
  await Promise.all(
    missing.map(async (page) => {
      // A body read before, by the oid of the page's file: only changed pages cost a request.
      const oid = page.git?.oid;
      const read = async () => (await client.content.page(byRevision, page.id, { format: 'markdown' })).markdown ?? '';
      page.markdown = oid !== undefined && known ? await known.markdownOnce(oid, read) : await read();
      done += 1;
      report(done, total);
    }),
  );
  return pages;
}
