import { BaseError } from '../model/index.js';

/**
 * The git layer's expected failures. One class, a closed set of codes: callers (the sync
 * engine) branch on `code`, never on message text; messages name the repository, branch or path.
 */
export const GIT_ERROR_CODES = [
  /** The directory (or none of its parents, for openRepo) holds a `.git` folder. */
  'not-a-repo',
  /** A branch, commit, or path inside a commit does not exist. */
  'not-found',
  /** Compare-and-swap on a branch failed: it no longer points where the caller said. */
  'ref-moved',
  /** Another process holds git's lock file on the branch (or a crash left it behind). */
  'ref-locked',
  /** A branch that was to be created exists already. */
  'already-exists',
  /** The branch is checked out, so it cannot be deleted. */
  'checked-out',
  /** Checkout would overwrite local changes; `data.paths` lists them. */
  'dirty-working-tree',
  /** A file path is not a clean relative path (absolute, `..`, `.git`, empty segment, ...). */
  'invalid-path',
  /** A branch name git would refuse. */
  'invalid-ref',
  /** HEAD is detached where a branch is needed (committing the working tree). */
  'detached-head',
  /** The repository's objects are not sha1 (`objectFormat=sha256`) or its refs are not files (reftable). */
  'unsupported-repository',
] as const;

export type GitErrorCode = (typeof GIT_ERROR_CODES)[number];

/** Every code is expected: each names something about the repository, never a bug of ours. */
export class GitError extends BaseError<GitErrorCode> {
  constructor(code: GitErrorCode, message: string, data: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(code, message, { data, cause: options?.cause });
  }
}

/** True when `value` is a GitError, and when `code` is given, one with that code. */
export function isGitError(value: unknown, code?: GitErrorCode): value is GitError {
  return value instanceof GitError && (code === undefined || value.code === code);
}
