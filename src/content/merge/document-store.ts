import { mergeText, type LineMerge } from './merge-text.js';

/** Where a tree merge reads the documents it merges and writes the ones it makes. */
export interface DocumentStore {
  /** The markdown of a stored document. */
  read(sha: string): string;
  /** Stores merged markdown and returns its id (the caller decides the hashing). */
  write(text: string): string;
  /**
   * The line merge of three stored documents (undefined: no document), when the caller has it
   * already (the server merges expensive documents on a worker before the tree merge runs);
   * undefined, or no method, and `mergeText` runs here on the documents read.
   */
  merged?(base: string | undefined, ours: string | undefined, theirs: string | undefined): LineMerge | undefined;
}

/** The line merge of three documents of a tree, as the store has it or computed here. */
export function mergeDocuments(
  docs: DocumentStore,
  base: string | undefined,
  ours: string | undefined,
  theirs: string | undefined,
): LineMerge {
  const read = (sha: string | undefined) => (sha === undefined ? '' : docs.read(sha));
  return docs.merged?.(base, ours, theirs) ?? mergeText(read(base), read(ours), read(theirs));
}
