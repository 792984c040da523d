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

export type FetchBudgetLimits = typeof FETCH_BUDGET;

/**
 * One request's (or one background job's) allowance of fetches; every server-side fetch of it goes
 * through it. The limits are FETCH_BUDGET's as they are when the budget is made, with `limits`
 * over them (an OpenAPI spec's job holds less in memory).
 */
export class FetchBudget {
  #fetches = 0;
  #bytes = 0;
  #deadline: number | undefined;
  readonly limits: Readonly<FetchBudgetLimits>;
  /** Whose budget, in messages. */
  readonly #what: string;

  constructor(limits: Partial<FetchBudgetLimits> = {}, what = 'one request') {
    this.limits = { ...FETCH_BUDGET, ...limits };
    this.#what = what;
  }

  async fetch(url: string, options: SafeFetchOptions): Promise<Fetched> {
    const { maxFetches, maxBytes, totalMs } = this.limits;
    this.#deadline ??= Date.now() + totalMs;
    if ((this.#fetches += 1) > maxFetches) {
      throw new FetchError(`${url}: not fetched, ${this.#what} may fetch at most ${maxFetches} URLs`);
    }
    const left = this.#deadline - Date.now();
    if (left <= 0) {
      throw new FetchError(`${url}: not fetched, ${this.#what}'s fetches may take at most ${totalMs / 1000} s together`, {
        timedOut: true,
      });
    }
    const room = maxBytes - this.#bytes;
    if (room <= 0) throw new FetchError(`${url}: not fetched, ${this.#what} may fetch at most ${maxBytes} bytes together`);
    const fetched = await safeFetch(url, {
      ...options,
      maxBytes: Math.min(options.maxBytes, room),
      timeoutMs: Math.min(options.timeoutMs ?? 10_000, left),
    });
    this.#bytes += fetched.bytes.length;
    return fetched;
  }
}
