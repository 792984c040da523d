import { sql } from 'kysely';
import type { PageHit, SearchBackend, SectionHit, SpaceHit } from './index.js';
import { toFts5 } from './query.js';

// bm25 weights of the FTS5 columns: page title, section title, page path, section body.
const RANK = sql.raw('-bm25(search_fts, 10.0, 5.0, 2.0, 1.0)');

/**
 * FTS5 allows bm25() only in the statement that runs the MATCH, not inside an aggregate: the
 * matching rows and their scores are materialised first, then joined and grouped.
 */
const matches = (match: string) => sql`select rowid as row_id, max(${RANK}, 0) as score from search_fts where search_fts match ${match}`;

export const sqliteFts: SearchBackend = {
  async pages(db, spaceIds, query, window) {
    const { rows } = await sql<{ space_id: string; page_id: string; score: number }>`
      with m as materialized (${matches(toFts5(query))})
      select s.space_id, s.page_id, max(m.score) as score
      from m join search_sections s on s.id = m.row_id
      where s.space_id in (${sql.join(spaceIds)})
      group by s.space_id, s.page_id
      order by score desc, s.space_id, s.page_id
      limit ${window.limit} offset ${window.offset}`.execute(db);
    return rows.map((r): PageHit => ({ spaceId: r.space_id, pageId: r.page_id, score: Number(r.score) }));
  },

  async sections(db, spaceId, pageIds, query) {
    if (pageIds.length === 0) return [];
    const { rows } = await sql<{ page_id: string; position: number; anchor: string; title: string; body: string; score: number }>`
      with m as materialized (${matches(toFts5(query))})
      select s.page_id, s.position, s.anchor, s.title, s.body, m.score
      from m join search_sections s on s.id = m.row_id
      where s.space_id = ${spaceId} and s.page_id in (${sql.join(pageIds)})
      order by m.score desc, s.page_id, s.position`.execute(db);
    return rows.map((r): SectionHit => ({
      pageId: r.page_id,
      position: Number(r.position),
      anchor: r.anchor,
      title: r.title,
      body: r.body,
      score: Number(r.score),
    }));
  },

  async spaces(db, spaceIds, query, window) {
    const { rows } = await sql<{ space_id: string; score: number }>`
      with m as materialized (${matches(toFts5(query))})
      select s.space_id, max(m.score) as score
      from m join search_sections s on s.id = m.row_id
      where s.space_id in (${sql.join(spaceIds)})
      group by s.space_id
      order by score desc, s.space_id
      limit ${window.limit} offset ${window.offset}`.execute(db);
    return rows.map((r): SpaceHit => ({ spaceId: r.space_id, score: Number(r.score) }));
  },
};
