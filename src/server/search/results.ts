import type { Kysely } from 'kysely';
import type { ContentTree } from '../../model/index.js';
import { indexPages, pagePaths, type GeneratedPage } from '../../content/index.js';
import { generateReferences, type GeneratedReference } from '../openapi/reference.js';
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
  /** With it, the pages OpenAPI computed pages generate are searched too. */
  org_id?: string;
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
  const generated = space.org_id === undefined ? new Map() : generatedPlaces(tree, await generateReferences(ctx.db, space.org_id, tree));
  return describePages(ctx, space.id, tree, generated, hits, sections, query, window.offset);
}

/** Where a generated page is: its title, path, and the titles of the pages above it. */
interface GeneratedPlace {
  title: string;
  path: string;
  ancestors: { title: string }[];
}

function generatedPlaces(tree: ContentTree, refs: ReadonlyMap<string, GeneratedReference>): Map<string, GeneratedPlace> {
  const places = indexPages(tree.pages);
  const paths = pagePaths(tree.pages);
  const result = new Map<string, GeneratedPlace>();
  for (const [computedId, ref] of refs) {
    const above: { title: string }[] = [];
    for (let id: string | null = computedId; id !== null; id = places.get(id)?.parentId ?? null) {
      const found = places.get(id);
      if (!found) break;
      above.unshift({ title: found.page.title });
    }
    const visit = (pages: readonly GeneratedPage[], base: string, ancestors: { title: string }[]) => {
      for (const page of pages) {
        const path = base === '' ? page.slug : `${base}/${page.slug}`;
        if (!result.has(page.id)) result.set(page.id, { title: page.title, path, ancestors });
        visit(page.pages, path, [...ancestors, { title: page.title }]);
      }
    };
    visit(ref.pages, paths.get(computedId)?.path ?? '', above);
  }
  return result;
}

async function indexedTree(db: Kysely<Database>, space: SpaceForSearch): Promise<ContentTree> {
  const row = await searchDb(db).selectFrom('search_spaces').select('revision_id').where('space_id', '=', space.id).executeTakeFirst();
  // The index's key is the revision, then `|` and the spec versions when it has API reference pages.
  const revision = (row && (await findRevision(db, row.revision_id.split('|')[0]!))) ?? (await findRevision(db, space.revision_id));
  return revision ? revisionTree(db, revision) : { pages: [], files: [], variables: {}, reusableContents: [] };
}

function describePages(
  ctx: SearchContext,
  spaceId: string,
  tree: ContentTree,
  generated: ReadonlyMap<string, GeneratedPlace>,
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
    const made = place ? undefined : generated.get(hit.pageId);
    if (!place && !made) return;
    const title = place ? place.page.title : made!.title;
    const path = place ? (paths.get(hit.pageId)?.path ?? place.page.slug) : made!.path;
    const pageUrl = appUrl(ctx.base, `/spaces/${spaceId}/pages/${hit.pageId}`);
    const ancestors: { title: string }[] = made ? [...made.ancestors] : [];
    for (let parent = place?.parentId ?? null; parent !== null; parent = places.get(parent)?.parentId ?? null) {
      const found = places.get(parent);
      if (!found) break;
      ancestors.unshift({ title: found.page.title });
    }
    const own = sections.filter((s) => s.pageId === hit.pageId).slice(0, SECTIONS_PER_PAGE);
    results.push({
      id: hit.pageId,
      title,
      description: place?.page.description ?? '',
      path,
      score: hit.score,
      rank: offset + i + 1,
      ancestors,
      sections: own.map((s): SearchSectionResult => ({
        id: s.anchor === '' ? hit.pageId : `${hit.pageId}#${s.anchor}`,
        title: s.position === 0 ? title : s.title,
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
