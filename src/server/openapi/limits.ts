/**
 * Bounds of processing one OpenAPI spec. An object rather than constants so a test can shorten
 * the timeout; the server never changes them. The number of files, their bytes together and the
 * time of all the fetches are the fetch budget's (server/fetch/budget.ts), one budget per job.
 */
export const OPENAPI_LIMITS = {
  /** Per fetched file, redirects and body included (cut to what is left of the job's budget). */
  timeoutMs: 10_000,
  /** One file of the spec. */
  maxFileBytes: 5 * 1024 * 1024,
  /** All the files of one spec together: the job's fetch budget holds this much, not the 50 MiB a request may. */
  maxTotalBytes: 20 * 1024 * 1024,
};
