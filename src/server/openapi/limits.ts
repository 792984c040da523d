/**
 * Bounds of processing one OpenAPI spec. An object rather than constants so a test can shorten
 * the timeout; the server never changes them.
 */
export const OPENAPI_LIMITS = {
  /** Per fetched file, redirects and body included. */
  timeoutMs: 10_000,
  /** One file of the spec. */
  maxFileBytes: 5 * 1024 * 1024,
  /** Files one spec may span: the entry document and those its `$ref`s reach. */
  maxFiles: 50,
  /** All the files of one spec together. */
  maxTotalBytes: 20 * 1024 * 1024,
};
