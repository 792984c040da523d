import { badRequest } from '../../model/index.js';

/**
 * Opaque list cursors. A cursor holds the sort key of the last row the previous page scanned,
 * so the next page starts strictly after it: rows added or removed elsewhere never cause a
 * duplicate or a skip (keyset pagination).
 */
export type SortKey = readonly [string | number, string];

export function encodeCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/**
 * What a list sorts by besides the id. A cursor naming the other kind was not issued by that
 * list, and PostgreSQL would refuse to compare it with the column (a 500 instead of a 400).
 */
export type SortKeyKind = 'string' | 'number';

export function decodeCursor(page: string, kind?: SortKeyKind): SortKey {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (Array.isArray(value) && value.length === 2 && isSortValue(value[0], kind) && isText(value[1])) {
    return [value[0], value[1]];
  }
  throw badRequest('query `page` is not a page identifier returned by this list');
}

// PostgreSQL text cannot hold NUL, and a JSON number can overflow to Infinity.
const isText = (value: unknown): value is string => typeof value === 'string' && !value.includes('\u0000');

function isSortValue(value: unknown, kind: SortKeyKind | undefined): value is string | number {
  if (typeof value === 'number') return kind !== 'string' && Number.isFinite(value);
  return kind !== 'number' && isText(value);
}

export interface PageRequest {
  limit: number;
  after: SortKey | undefined;
}

export interface PageResult<T> {
  items: T[];
  count: number;
  next?: { page: string };
}

/**
 * Walks rows in key order until `limit` rows pass `accept` or the rows run out. `fetch` returns
 * up to `n` rows strictly after `after`. Rows the caller may not see are skipped without
 * costing the caller a short page followed by a wrong end of list.
 */
export async function collectPage<Row, Item>(options: {
  request: PageRequest;
  fetch: (after: SortKey | undefined, n: number) => Promise<Row[]>;
  key: (row: Row) => SortKey;
  accept: (row: Row) => Promise<Item | undefined> | Item | undefined;
}): Promise<PageResult<Item>> {
  const { request, fetch, key, accept } = options;
  const items: Item[] = [];
  let after = request.after;
  let lastKept: SortKey | undefined;
  for (;;) {
    const batch = await fetch(after, request.limit + 1);
    for (const row of batch) {
      if (items.length === request.limit) {
        // One more visible row exists after the page: point the cursor at the last kept row.
        const item = await accept(row);
        if (item !== undefined) return withNext(items, lastKept ?? key(row));
        after = key(row);
        continue;
      }
      after = key(row);
      const item = await accept(row);
      if (item !== undefined) {
        items.push(item);
        lastKept = key(row);
      }
    }
    if (batch.length < request.limit + 1) return { items, count: items.length };
  }
}

function withNext<T>(items: T[], key: SortKey): PageResult<T> {
  return { items, count: items.length, next: { page: encodeCursor(key) } };
}

/** `kind` is the type of the list's sort value: text (a timestamp) unless told otherwise. */
export function pageRequest(query: { page?: string; limit?: number }, defaultLimit: number, kind: SortKeyKind = 'string'): PageRequest {
  return { limit: query.limit ?? defaultLimit, after: query.page === undefined ? undefined : decodeCursor(query.page, kind) };
}
