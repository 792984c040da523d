import { MAX_LIST_LIMIT } from '../model/index.js';
import { ClientError } from './errors.js';

/** The envelope of every list answer; `count` is not relied on (the seed and the spec disagree). */
export interface ListPage<T> {
  items: T[];
  next?: { page: string };
}

/** What one page request gets: the cursor (absent for the first page) and the page size. */
export interface PageQuery {
  page?: string;
  limit: number;
}

/**
 * Every item of a list, page by page: calls `fetchPage` with `limit` (at most 1000, the API's
 * maximum; 1000 unless told) and then with each `next.page` until a page has no `next`. Pages
 * are fetched one after the other, as each cursor comes from the previous answer. A server that
 * hands back a cursor it already gave would loop forever; that is an error instead.
 *
 * @example
 * for await (const space of paginate((q) => client.request({ method: 'GET', path, query: q }))) ...
 */
export async function* paginate<T>(
  fetchPage: (query: PageQuery) => Promise<ListPage<T>>,
  options: { limit?: number } = {},
): AsyncGenerator<T, void, undefined> {
  const limit = options.limit ?? MAX_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new ClientError('invalid-option', `paginate: \`limit\` must be a whole number from 1 to ${MAX_LIST_LIMIT}, got ${String(limit)}`);
  }
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const answer = await fetchPage(cursor === undefined ? { limit } : { page: cursor, limit });
    yield* answer.items;
    cursor = answer.next?.page;
    if (cursor === undefined) return;
    if (seen.has(cursor))
      throw new ClientError('api-error', `paginate: the server returned the cursor "${cursor}" twice; stopping instead of looping`);
    seen.add(cursor);
  }
}

/** All items of a list in one array. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
