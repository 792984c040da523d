import { BaseError, type ContentChange, type ContentTree, type TreeFile, type TreeReusableContent } from '../../model/index.js';

/** Bytes of an `insert_files` item, already fetched or decoded and stored by the caller. */
export interface PreparedFile {
  blob: string;
  size: number;
  contentType: string;
}

/**
 * Everything impure the batch needs, passed in so applying stays a pure function: ids, the
 * time, hashing, reading stored documents, the trees `revert_page` may go back to, and the
 * uploaded files (keyed `<change index>/<file index>`).
 */
export interface ApplyContext {
  newId(): string;
  now: string;
  hash(text: string): string;
  /** Stored markdown by sha256 (documents of the current tree and of revert targets). */
  readDocument(sha: string): string | undefined;
  /** Trees by revision id for `revert_page`; `defaultRevision` is used when a change names none. */
  revisions: ReadonlyMap<string, ContentTree>;
  defaultRevision: string;
  files: ReadonlyMap<string, PreparedFile>;
}

export type PageOutcome =
  | { object: 'created_page'; page: string; ref?: string }
  | { object: 'updated_page'; page: string }
  | { object: 'deleted_page'; page: string };

export interface ApplySuccess {
  ok: true;
  tree: ContentTree;
  outcomes: PageOutcome[];
  insertedFiles: TreeFile[];
  /** What each `insert_reusable_content` made, in the batch's order. */
  insertedReusableContents: TreeReusableContent[];
  /** New documents (pages' and reusable contents') by sha256, to store before the tree. */
  documents: Map<string, string>;
}

export interface ApplyFailure {
  ok: false;
  /** Index of the failing change in the batch. */
  index: number;
  /** `changes[3]: page abc not found`. */
  message: string;
  /** 409 for a slug taken among siblings, else 400. */
  status: 400 | 409;
}

export type ApplyResult = ApplySuccess | ApplyFailure;
export type { ContentChange };

/** Thrown inside the batch and caught by `applyChanges`, which turns it into an ApplyFailure. */
export class ChangeFailure extends BaseError<'change-refused'> {
  constructor(
    message: string,
    readonly status: 400 | 409 = 400,
  ) {
    super('change-refused', message, { data: { status } });
  }
}

export const fail = (message: string, status: 400 | 409 = 400): never => {
  throw new ChangeFailure(message, status);
};
