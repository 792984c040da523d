import { FetchError, safeFetch, type Fetched, type SafeFetchOptions } from './safe-fetch.js';

/**
 * What all the fetches of one request may cost together (docs/security.md): a batch of 50
 * `insert_files` changes could otherwise name 1,000 URLs, and a website import wait 10 s on each
 * of 50 hanging links. An object rather than constants so a test can shorten it.
 */
export const FETCH_BUDGET = {
  maxFetches: 50,
  /** Bytes of all bodies together: what one request may hold in memory. */
  maxBytes: 50 * 1024 * 1024,
  /** From the first fetch: each fetch's own timeout is cut to what is left. */
  totalMs: 60_000,
};

/** One request's allowance of fetches; every server-side fetch of the request goes through it. */
export class FetchBudget {
  #fetches = 0;
  #bytes = 0;
  #deadline: number | undefined;

  async fetch(url: string, options: SafeFetchOptions): Promise<Fetched> {
    this.#deadline ??= Date.now() + FETCH_BUDGET.totalMs;
    if ((this.#fetches += 1) > FETCH_BUDGET.maxFetches) {
      throw new FetchError(`${url}: not fetched, one request may fetch at most ${FETCH_BUDGET.maxFetches} URLs`);
    }
    const left = this.#deadline - Date.now();
    if (left <= 0)
      throw new FetchError(`${url}: not fetched, one request's fetches may take at most ${FETCH_BUDGET.totalMs / 1000} s together`);
    const room = FETCH_BUDGET.maxBytes - this.#bytes;
    if (room <= 0) throw new FetchError(`${url}: not fetched, one request may fetch at most ${FETCH_BUDGET.maxBytes} bytes together`);
    const fetched = await safeFetch(url, {
      ...options,
      maxBytes: Math.min(options.maxBytes, room),
      timeoutMs: Math.min(options.timeoutMs ?? 10_000, left),
    });
    this.#bytes += fetched.bytes.length;
    return fetched;
  }
}
