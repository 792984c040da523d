import type { Client } from '../../client/index.js';
import { walkPlacedPages } from '../../content/index.js';
import type { ContentChange, RevisionPage } from '../../model/index.js';
import { SyncError } from '../errors.js';

type InsertPage = Extract<ContentChange, { operation: 'insert_page' }>;

/** A page of a revision with its parent's id (undefined at the top level). */
interface PlacedPage {
  id: string;
  title: string;
  parent: string | undefined;
}

const placed = (pages: readonly RevisionPage[]): PlacedPage[] =>
  [...walkPlacedPages(pages)].map(({ page, parent }) => ({ id: page.id, title: page.title, parent }));

/**
 * Which page each `insert_page` with a ref created, read from the revisions before and after the
 * batches, for a server that answered a content write with the change request alone (the compat
 * answer; docs/client.md) and so named no created page. Pure: the revisions are given.
 *
 * A created page is a page of `after` that `before` lacks, under the parent the insert named
 * (`into`, itself possibly a ref resolved earlier in the same pass), with the insert's title; two
 * inserts of the same title under one parent take the new pages in tree order, as the batch
 * inserted them. Refs already in `known` are kept. A ref with no such page is left out: the
 * caller says which (the batch did not land as planned).
 */
export function matchCreatedPages(
  inserts: readonly InsertPage[],
  before: readonly RevisionPage[],
  after: readonly RevisionPage[],
  known: Readonly<Record<string, string>>,
): Record<string, string> {
  const old = new Set(placed(before).map((p) => p.id));
  const fresh = placed(after).filter((p) => !old.has(p.id));
  const taken = new Set(Object.values(known));
  const created: Record<string, string> = { ...known };
  for (const insert of inserts) {
    if (insert.ref === undefined || created[insert.ref] !== undefined) continue;
    const parent = insert.into?.startsWith('ref:') ? created[insert.into.slice(4)] : insert.into;
    if (insert.into !== undefined && parent === undefined) continue;
    const page = fresh.find((p) => !taken.has(p.id) && p.parent === parent && (insert.title === undefined || p.title === insert.title));
    if (page === undefined) continue;
    created[insert.ref] = page.id;
    taken.add(page.id);
  }
  return created;
}

/**
 * The ids of the pages that batches `0..landed` created, for refs the server's answers did not
 * name: reads the change request's revision at the push's start and now, and matches.
 */
export async function recoverCreatedPages(
  client: Client,
  spaceId: string,
  batches: readonly (readonly ContentChange[])[],
  range: { startRevision: string; revision: string; created: Readonly<Record<string, string>> },
): Promise<Record<string, string>> {
  const inserts = batches.flat().filter((c): c is InsertPage => c.operation === 'insert_page' && c.ref !== undefined);
  if (inserts.every((c) => range.created[c.ref!] !== undefined)) return { ...range.created };
  const [before, after] = await Promise.all([
    client.revisions.get({ space: spaceId, revision: range.startRevision }),
    client.revisions.get({ space: spaceId, revision: range.revision }),
  ]);
  const created = matchCreatedPages(inserts, before.pages, after.pages, range.created);
  const missing = inserts.filter((c) => created[c.ref!] === undefined);
  if (missing.length > 0) {
    const names = missing.map((c) => `"${c.title ?? c.ref}"`).join(', ');
    throw new SyncError(
      'created-pages-unknown',
      `the platform's answer did not name the pages it created, and its revision ${range.revision} has no new page ${names} where the push put it; pull, then push again`,
    );
  }
  return created;
}
