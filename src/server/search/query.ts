/**
 * User query text to full-text query syntax. The text is cut into terms at every character that
 * is neither a letter nor a digit (what both SQLite's unicode61 tokenizer and PostgreSQL's parser
 * treat as separators), so a term holds only letters, digits and combining marks: quoting it can
 * never produce an operator, a column filter or a syntax error, whatever the user typed. Terms are
 * ANDed; the last one also matches as a prefix, so a query typed halfway still finds pages.
 */
const SEPARATOR = /[^\p{L}\p{N}\p{M}]+/u;
const HAS_WORD = /[\p{L}\p{N}]/u;

/** At most this many terms are searched; the rest of a long query is ignored. */
export const MAX_TERMS = 32;

export interface SearchQuery {
  terms: string[];
}

export function parseQuery(text: string): SearchQuery {
  const terms = text
    .normalize('NFC')
    .split(SEPARATOR)
    .filter((t) => HAS_WORD.test(t))
    .map((t) => t.toLowerCase())
    .slice(0, MAX_TERMS);
  return { terms };
}

/** FTS5 MATCH text: `"a" "b" "c"*`. Empty when the query has no terms (nothing can match). */
export function toFts5(query: SearchQuery): string {
  return query.terms.map((t, i) => `"${t.replaceAll('"', '""')}"${i === query.terms.length - 1 ? '*' : ''}`).join(' ');
}

/** to_tsquery text: `'a' & 'b' & 'c':*`. Empty when the query has no terms. */
export function toTsquery(query: SearchQuery): string {
  return query.terms
    .map((t, i) => `'${t.replaceAll('\\', '\\\\').replaceAll("'", "''")}'${i === query.terms.length - 1 ? ':*' : ''}`)
    .join(' & ');
}
