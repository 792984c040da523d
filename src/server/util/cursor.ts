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

export function decodeCursor(page: string): SortKey {
  try {
    const value: unknown = JSON.parse(Buffer.from(page, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      (typeof value[0] === 'string' || typeof value[0] === 'number') &&
      typeof value[1] === 'string'
    ) {
      return [value[0], value[1]];
    }
  } catch {
    // fall through to the error below
  }
  throw badRequest('query `page` is not a page identifier returned by this list');
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

export function pageRequest(query: { page?: string; limit?: number }, defaultLimit: number): PageRequest {
  return { limit: query.limit ?? defaultLimit, after: query.page === undefined ? undefined : decodeCursor(query.page) };
}
