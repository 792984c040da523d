import { badRequest } from '../../model/index.js';
import { decodeCursor, encodeCursor } from '../util/cursor.js';
import { sha256 } from '../store/blobs.js';
import type { Window } from './index.js';

/** Deepest offset a search cursor may ask for: ranked lists are read from the top. */
export const MAX_SEARCH_OFFSET = 100_000;

/**
 * Search results are ranked, not sorted by a stable key, so their cursor is an offset into the
 * ranking, paired with a fingerprint of the query: a cursor taken from another query is refused
 * instead of silently paging through different results.
 */
export function searchWindow(query: string, page: string | undefined, limit: number): Window {
  if (page === undefined) return { offset: 0, limit };
  const [offset, fingerprint] = decodeCursor(page, 'number');
  if (
    fingerprint !== fingerprintOf(query) ||
    !Number.isInteger(offset) ||
    (offset as number) < 0 ||
    (offset as number) > MAX_SEARCH_OFFSET
  ) {
    throw badRequest('query `page` is not a page identifier returned by this search');
  }
  return { offset: offset as number, limit };
}

export function nextPage(query: string, window: Window): { page: string } {
  return { page: encodeCursor([window.offset + window.limit, fingerprintOf(query)]) };
}

const fingerprintOf = (query: string) => sha256(query).slice(0, 16);
