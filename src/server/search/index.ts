import type { Dialect } from '../store/db.js';
import type { SearchQuery } from './query.js';
import type { SearchDb } from './tables.js';
import { sqliteFts } from './sqlite-fts.js';
import { postgresFts } from './postgres-fts.js';

/** A page with at least one matching section; `score` is its best section's (higher is better). */
export interface PageHit {
  spaceId: string;
  pageId: string;
  score: number;
}

export interface SectionHit {
  pageId: string;
  position: number;
  anchor: string;
  title: string;
  body: string;
  score: number;
}

export interface SpaceHit {
  spaceId: string;
  score: number;
}

export interface Window {
  offset: number;
  limit: number;
}

/**
 * The one interface over the two full-text engines (SQLite FTS5, PostgreSQL tsvector). Both read
 * the rows `indexer.ts` keeps in `search_sections`; they differ only in how a query matches and
 * ranks. Every method takes a parsed query with at least one term, ranks best first and breaks
 * ties by id, so paging by offset is stable while the index does not change.
 */
export interface SearchBackend {
  /** Matching pages of `spaceIds`, best first. */
  pages(db: SearchDb, spaceIds: readonly string[], query: SearchQuery, window: Window): Promise<PageHit[]>;
  /** Matching sections of the given pages of one space, best first. */
  sections(db: SearchDb, spaceId: string, pageIds: readonly string[], query: SearchQuery): Promise<SectionHit[]>;
  /** Spaces among `spaceIds` with a matching page, best first. */
  spaces(db: SearchDb, spaceIds: readonly string[], query: SearchQuery, window: Window): Promise<SpaceHit[]>;
}

export function searchBackend(dialect: Dialect): SearchBackend {
  return dialect === 'postgres' ? postgresFts : sqliteFts;
}
