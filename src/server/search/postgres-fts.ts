import { sql } from 'kysely';
import type { PageHit, SearchBackend, SectionHit, SpaceHit } from './index.js';
import { toTsquery } from './query.js';

/**
 * PostgreSQL full text with the `simple` configuration (see migration 0003). ts_rank weighs the
 * page title (A) over the section title (B), the path (C) and the body (D).
 */
const tsquery = (text: string) => sql`to_tsquery('simple', ${text})`;

export const postgresFts: SearchBackend = {
  async pages(db, spaceIds, query, window) {
    const { rows } = await sql<{ space_id: string; page_id: string; score: number }>`
      select s.space_id, s.page_id, max(ts_rank(s.tsv, q)) as score
      from search_sections s, ${tsquery(toTsquery(query))} q
      where s.space_id in (${sql.join(spaceIds)}) and s.tsv @@ q
      group by s.space_id, s.page_id
      order by score desc, s.space_id, s.page_id
      limit ${window.limit} offset ${window.offset}`.execute(db);
    return rows.map((r): PageHit => ({ spaceId: r.space_id, pageId: r.page_id, score: Number(r.score) }));
  },

  async sections(db, spaceId, pageIds, query) {
    if (pageIds.length === 0) return [];
    const { rows } = await sql<{ page_id: string; position: number; anchor: string; title: string; body: string; score: number }>`
      select s.page_id, s.position, s.anchor, s.title, s.body, ts_rank(s.tsv, q) as score
      from search_sections s, ${tsquery(toTsquery(query))} q
      where s.space_id = ${spaceId} and s.page_id in (${sql.join(pageIds)}) and s.tsv @@ q
      order by score desc, s.page_id, s.position`.execute(db);
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
      select s.space_id, max(ts_rank(s.tsv, q)) as score
      from search_sections s, ${tsquery(toTsquery(query))} q
      where s.space_id in (${sql.join(spaceIds)}) and s.tsv @@ q
      group by s.space_id
      order by score desc, s.space_id
      limit ${window.limit} offset ${window.offset}`.execute(db);
    return rows.map((r): SpaceHit => ({ spaceId: r.space_id, score: Number(r.score) }));
  },
};
