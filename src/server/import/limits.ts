/**
 * Bounds of one import. An object rather than constants so a test can shorten the timeout
 * without waiting ten seconds; the server never changes them.
 */
export const IMPORT_LIMITS = {
  /** Per fetch, redirects and body included. */
  timeoutMs: 10_000,
  /** One HTML page or markdown file. */
  maxPageBytes: 5 * 1024 * 1024,
  /** Pages a website import follows links to, the first one included. */
  maxPages: 50,
  /** All the pages of one website import together. */
  maxSiteBytes: 20 * 1024 * 1024,
  /** A zip archive as downloaded. */
  maxZipBytes: 50 * 1024 * 1024,
  /** A zip archive's files once uncompressed, together, counted as they are inflated: the zip-bomb guard. */
  maxUnzippedBytes: 200 * 1024 * 1024,
  /** Most an entry over 1 MiB may inflate per compressed byte (real files stay far below). */
  maxInflateRatio: 100,
  maxZipEntries: 5_000,
};
