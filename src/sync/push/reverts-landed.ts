import { isDeepStrictEqual } from 'node:util';
import type { Client } from '../../client/index.js';
import type { Revision, RevisionPage } from '../../model/index.js';
import type { Reverting } from './adopting.js';

/**
 * Whether the change request's head `headId` is the revert write `reverting`, sent on `on`,
 * applied though its answer was lost. The API names no revision's author, so the head must show
 * it: an `edits` revision whose one parent is `on`, differing from `on` only as those reverts
 * make it (see {@link onlyReverts}). A reviewer's edit made on `on` meanwhile (the revert never
 * reached the server) changes something else and is never taken for docsync's.
 */
export async function revertLanded(client: Client, spaceId: string, headId: string, on: string, reverting: Reverting): Promise<boolean> {
  const read = (revision: string) => client.revisions.get({ space: spaceId, revision });
  const head = await read(headId);
  if (head.type !== 'edits' || head.parents.length !== 1 || head.parents[0] !== on) return false;
  const [parent, target] = await Promise.all([read(on), read(reverting.to)]);
  return onlyReverts(parent, head, target, reverting.pages);
}

interface Placed {
  parent: string | null;
  /** The page's own fields: no subpages, and nothing derived from its place or the revision read. */
  own: Record<string, unknown>;
}

/**
 * Whether `head` is `parent` with `reverted` pages put back as they are in `target` (as the
 * server's `revert_page` does: an edited page takes the target's fields and document and stays
 * where it is, an added page goes with its subpages, a deleted page comes back with its old
 * ones). Every other page keeps its fields, parent and order among its siblings; files, reusable
 * contents and variables are untouched. Pure.
 */
export function onlyReverts(parent: Revision, head: Revision, target: Revision, reverted: readonly string[]): boolean {
  const unchanged =
    isDeepStrictEqual(parent.files.map(fileOwn), head.files.map(fileOwn)) &&
    isDeepStrictEqual(parent.reusableContents.map(documentOwn), head.reusableContents.map(documentOwn)) &&
    isDeepStrictEqual(parent.variables, head.variables) &&
    isDeepStrictEqual(parent.gitFiles, head.gitFiles);
  if (!unchanged) return false;
  const [before, after, then] = [placed(parent.pages), placed(head.pages), placed(target.pages)];
  const wanted = new Set(reverted);
  /** The page or one above it in `pages` is a reverted page that `is`. */
  const byRevert = (id: string, pages: Map<string, Placed>, is: (id: string) => boolean) => {
    for (let at: string | null = id; at !== null; at = pages.get(at)?.parent ?? null) if (wanted.has(at) && is(at)) return true;
    return false;
  };
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const [b, a, t] = [before.get(id), after.get(id), then.get(id)];
    if (b && a) {
      if (a.parent !== b.parent) return false;
      if (!wanted.has(id) && !isDeepStrictEqual(a.own, b.own)) return false;
      const keys = new Set([...Object.keys(a.own), ...Object.keys(b.own), ...Object.keys(t?.own ?? {})]);
      for (const key of keys) if (!isDeepStrictEqual(a.own[key], b.own[key]) && !isDeepStrictEqual(a.own[key], t?.own[key])) return false;
    } else if (b) {
      // Gone: an added page reverted away, or under one.
      if (!byRevert(id, before, (x) => !then.has(x) && !after.has(x))) return false;
    } else if (a) {
      // Back: a deleted page reverted, or one of its old subpages, as the target has it.
      if (!t || !isDeepStrictEqual(a.own, t.own) || !byRevert(id, after, (x) => !before.has(x) && then.has(x))) return false;
    }
  }
  // Siblings that stay keep their order.
  const order = (
    pages: readonly RevisionPage[],
    others: Map<string, Placed>,
    out = new Map<string | null, string[]>(),
    at: string | null = null,
  ) => {
    out.set(
      at,
      pages.filter((p) => others.has(p.id)).map((p) => p.id),
    );
    for (const page of pages) order(page.pages ?? [], others, out, page.id);
    return out;
  };
  const [was, is] = [order(parent.pages, after), order(head.pages, before)];
  return [...is].every(([at, ids]) => was.get(at) === undefined || isDeepStrictEqual(ids, was.get(at)));
}

function placed(pages: readonly RevisionPage[], parent: string | null = null, out = new Map<string, Placed>()): Map<string, Placed> {
  for (const page of pages) {
    out.set(page.id, { parent, own: pageOwn(page) });
    placed(page.pages ?? [], page.id, out);
  }
  return out;
}

/**
 * A page's fields a revert sets or keeps. Left out: subpages (compared apart), the path, URLs and
 * git blob (derived from the place and the revision read), the times (a revert keeps
 * `updatedAt`), and the rendered body when the document's id says it (links render as paths,
 * which another page's revert may change).
 */
function pageOwn(page: RevisionPage): Record<string, unknown> {
  const { pages: _pages, path: _path, urls: _urls, git: _git, createdAt: _created, updatedAt: _updated, ...own } = page;
  if (own.documentId !== undefined) {
    delete own.markdown;
    delete own.document;
  }
  return own;
}

const fileOwn = ({ downloadURL: _url, ...file }: Revision['files'][number]) => file;

const documentOwn = ({ markdown, ...content }: Revision['reusableContents'][number]) =>
  content.document !== undefined ? content : { ...content, markdown };
