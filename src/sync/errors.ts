import { BaseError } from '../model/index.js';

/**
 * The sync tool's own failures: each is the user's or the workspace's to fix (the message says
 * how), so every one is expected. The CLI turns the code into an exit code (`cli/exit.ts`,
 * docs/errors.md); the daemon decides by code whether to stop, wait or go on.
 */
export const SYNC_ERROR_CODES = [
  /** The change request (or the space, for a new one) moved since the last sync: pull first. */
  'remote-ahead',
  /** The push would delete more than half of the pages, or the workspace is empty. */
  'mass-delete',
  /** The page tree cannot be read (SUMMARY.md or .gitbook.yaml broken, or conflict markers in them). */
  'unreadable-tree',
  /** A new branch that does not contain main's last synced commit. */
  'not-based-on-main',
  /** The branch lost the platform's changes a pull brought into it (git reset): pushing would undo them (`--force`). */
  'would-undo-remote',
  /** A new branch made from an older main changed lines main changed on the platform since. */
  'behind-main-conflicts',
  /** The branch's change request was merged or archived. */
  'change-request-closed',
  /** HEAD is detached, the branch is missing, or the branch is not tracked. */
  'no-branch',
  /** The folder is not a docsync workspace (no `.git/docsync/state.json`, or not made by init). */
  'not-a-workspace',
  /** The workspace was made by `docsync init` and has no space yet: `docsync push` creates it. */
  'not-published',
  /** The workspace is bound to a space already (`docsync init`'s first push was done). */
  'already-published',
  /** A file under `.git/docsync/` (state, journal, binding) or the stored login cannot be read. */
  'damaged-state',
  /** No API URL or no token: `docsync login`, or the environment variables. */
  'not-logged-in',
  /** The branch's change request is merged or archived, so pull no longer follows it. */
  'not-followed',
  /** The branch is `main` (the live content), where a change request branch is needed. */
  'not-a-change-request',
  /** The branch has commits or saves its change request does not have: push first. */
  'unpushed-changes',
  /** A merge on the platform met conflicting changes. */
  'merge-conflicts',
  /** The folder to create (clone, init) exists and is not empty, or is not a folder. */
  'folder-not-empty',
  /** The folder mirrors another organization (`.docsync-mirror.json`). */
  'other-organization',
  /** The token's user has several organizations (choose one with `--org`) or not the one named. */
  'choose-organization',
  /** The token's user is a member of no organization, so no space can be created. */
  'no-organization',
  /** A space title the API would refuse (empty, too long). */
  'invalid-title',
  /** The package's workspace template is missing or empty (a broken installation). */
  'template-missing',
  /** No change request of the space has the number given (`cr open #N`). */
  'unknown-change-request',
  /** A push cannot tell which pages its batches created (the answers did not say, the revision does not show them): pull, then push again. */
  'created-pages-unknown',
] as const;

export type SyncErrorCode = (typeof SYNC_ERROR_CODES)[number];

export class SyncError extends BaseError<SyncErrorCode> {
  /** One line per item at fault (a file, a page), printed under the message. */
  readonly details: string[];

  constructor(code: SyncErrorCode, message: string, details: string[] = [], data: Record<string, unknown> = {}) {
    super(code, message, { data: { ...data, details } });
    this.details = details;
  }
}

/** True for a SyncError, and when `code` is given, one of those codes. */
export const isSyncError = (error: unknown, ...codes: SyncErrorCode[]): error is SyncError =>
  error instanceof SyncError && (codes.length === 0 || codes.includes(error.code));

/**
 * The codes a push refuses with, before sending anything, for one branch: `sync` and the daemon
 * report them for that branch and go on with the others. Any other failure stops the pass.
 */
const PUSH_REFUSALS: ReadonlySet<SyncErrorCode> = new Set([
  'remote-ahead',
  'mass-delete',
  'unreadable-tree',
  'not-based-on-main',
  'would-undo-remote',
  'change-request-closed',
  'no-branch',
]);

/** True for a SyncError a push refuses one branch with (see {@link PUSH_REFUSALS}). */
export const isPushRefusal = (error: unknown): error is SyncError => error instanceof SyncError && PUSH_REFUSALS.has(error.code);
