import { decodeCursor, encodeCursor, type PageRequest, type PageResult } from '../util/cursor.js';

/**
 * A page of a list held in memory in structure order (a site has tens of items). The cursor is
 * the last item's index and id: the next page starts after that id where it is now, so moves and
 * inserts elsewhere neither repeat nor skip it; if it was deleted, at its old index.
 */
export function pageInOrder<T extends { id: string }>(
  all: readonly T[],
  query: { page?: string; limit?: number },
  defaultLimit: number,
): PageResult<T> {
  const request: PageRequest = {
    limit: query.limit ?? defaultLimit,
    after: query.page === undefined ? undefined : decodeCursor(query.page, 'number'),
  };
  let start = 0;
  if (request.after) {
    const [index, id] = request.after;
    const found = all.findIndex((item) => item.id === id);
    start = found >= 0 ? found + 1 : Math.max(0, Math.trunc(Number(index)));
  }
  const items = all.slice(start, start + request.limit);
  const last = items.at(-1);
  if (start + items.length < all.length && last) {
    return { items, count: items.length, next: { page: encodeCursor([start + items.length - 1, last.id]) } };
  }
  return { items, count: items.length };
}
