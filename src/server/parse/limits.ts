import { DocsyncError } from '../../model/index.js';

/**
 * Bounds on the work one document costs (docs/security.md). An object rather than constants so a
 * test can shorten the budget; the server never changes them.
 */
export const PARSE_LIMITS = {
  /**
   * Largest page or reusable-content document, as UTF-8 markdown. The published API states no
   * figure; 512 KiB is far above any real page and keeps the worst parse bounded.
   */
  maxDocumentBytes: 512 * 1024,
  /** Time a worker may spend on one request's parsing (a batch, an import) before it is refused. */
  budgetMs: 10_000,
};

/** 413 when `markdown` is over the per-document limit; `where` names the field. */
export function checkDocumentSize(markdown: string, where: string): void {
  // UTF-8 is at most 3 bytes per UTF-16 unit: most documents are decided without measuring.
  if (markdown.length * 3 <= PARSE_LIMITS.maxDocumentBytes) return;
  const bytes = Buffer.byteLength(markdown, 'utf8');
  if (bytes > PARSE_LIMITS.maxDocumentBytes) {
    throw new DocsyncError(
      'payload_too_large',
      `${where} is ${bytes} bytes of markdown; a document holds at most ${PARSE_LIMITS.maxDocumentBytes} bytes (512 KiB): split it into several pages`,
    );
  }
}

/** 413 when a change of the batch submits markdown over the limit, naming the change. */
export function checkBatchDocuments(changes: readonly object[]): void {
  changes.forEach((change, i) => {
    const markdown = ((change as { document?: unknown }).document as { markdown?: unknown } | undefined)?.markdown;
    if (typeof markdown === 'string') checkDocumentSize(markdown, `changes[${i}].document.markdown`);
  });
}

/** 413 when a document made from the input (a JSON document, an import) is over the limit. */
export function checkMadeDocuments(documents: Iterable<string>, what: string): void {
  for (const text of documents) checkDocumentSize(text, what);
}
