import type { Kysely } from 'kysely';
import type { ContentTree } from '../../model/index.js';
import { indexPages, pagePaths } from '../../content/index.js';
import type { Database } from '../store/schema.js';
import type { Dialect } from '../store/db.js';
import { findRevision, revisionTree } from '../store/revisions.js';
import { appUrl } from '../urls.js';
import { searchBackend, type PageHit, type SectionHit, type Window } from './index.js';
import { ensureIndexed } from './indexer.js';
import { excerpt } from './excerpt.js';
import type { SearchQuery } from './query.js';
import { searchDb } from './tables.js';
import type { SearchPageResult, SearchSectionResult } from './schemas.js';

/** Matching sections listed per page result. */
export const SECTIONS_PER_PAGE = 5;

export interface SearchContext {
  db: Kysely<Database>;
  dialect: Dialect;
  base: string;
}

export interface SpaceForSearch {
  id: string;
  revision_id: string;
}

/**
 * Ranked page results of one space, from `window.offset`; the space's index is brought to its
 * head first. Pages are described from the revision the index holds, so titles and paths agree
 * with the indexed text even when another writer moves the head meanwhile.
 */
export async function searchSpacePages(
  ctx: SearchContext,
  space: SpaceForSearch,
  query: SearchQuery,
  window: Window,
): Promise<SearchPageResult[]> {
  await ensureIndexed(ctx.db, ctx.dialect, space);
  const backend = searchBackend(ctx.dialect);
  const sdb = searchDb(ctx.db);
  const hits = await backend.pages(sdb, [space.id], query, window);
  if (hits.length === 0) return [];
  const sections = await backend.sections(
    sdb,
    space.id,
    hits.map((h) => h.pageId),
    query,
  );
  const tree = await indexedTree(ctx.db, space);
  return describePages(ctx, space.id, tree, hits, sections, query, window.offset);
}

async function indexedTree(db: Kysely<Database>, space: SpaceForSearch): Promise<ContentTree> {
  const row = await searchDb(db).selectFrom('search_spaces').select('revision_id').where('space_id', '=', space.id).executeTakeFirst();
  const revision = (row && (await findRevision(db, row.revision_id))) ?? (await findRevision(db, space.revision_id));
  return revision ? revisionTree(db, revision) : { pages: [], files: [], variables: {}, reusableContents: [] };
}

function describePages(
  ctx: SearchContext,
  spaceId: string,
  tree: ContentTree,
  hits: PageHit[],
  sections: SectionHit[],
  query: SearchQuery,
  offset: number,
): SearchPageResult[] {
  const places = indexPages(tree.pages);
  const paths = pagePaths(tree.pages);
  const results: SearchPageResult[] = [];
  hits.forEach((hit, i) => {
    const place = places.get(hit.pageId);
    if (!place) return;
    const path = paths.get(hit.pageId)?.path ?? place.page.slug;
    const pageUrl = appUrl(ctx.base, `/spaces/${spaceId}/pages/${hit.pageId}`);
    const ancestors: { title: string }[] = [];
    for (let parent = place.parentId; parent !== null; parent = places.get(parent)?.parentId ?? null) {
      const found = places.get(parent);
      if (!found) break;
      ancestors.unshift({ title: found.page.title });
    }
    const own = sections.filter((s) => s.pageId === hit.pageId).slice(0, SECTIONS_PER_PAGE);
    results.push({
      id: hit.pageId,
      title: place.page.title,
      description: place.page.description ?? '',
      path,
      score: hit.score,
      rank: offset + i + 1,
      ancestors,
      sections: own.map((s): SearchSectionResult => ({
        id: s.anchor === '' ? hit.pageId : `${hit.pageId}#${s.anchor}`,
        title: s.position === 0 ? place.page.title : s.title,
        path: s.anchor === '' ? path : `${path}#${s.anchor}`,
        score: s.score,
        body: excerpt(s.body, query.terms),
        urls: { app: s.anchor === '' ? pageUrl : `${pageUrl}#${s.anchor}` },
      })),
      urls: { app: pageUrl },
    });
  });
  return results;
}
