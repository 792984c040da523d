/**
 * Why a sync command stopped before sending anything. Each is the user's to fix (the message says
 * how); the CLI turns the code into an exit code (docs/cli.md, "Exit codes").
 */
export type SyncErrorCode =
  /** The change request (or the space, for a new one) moved since the last sync: pull first. */
  | 'remote-ahead'
  /** The push would delete more than half of the pages, or the workspace is empty. */
  | 'mass-delete'
  /** The page tree cannot be read (SUMMARY.md or .gitbook.yaml broken, or conflict markers in them). */
  | 'unreadable-tree'
  /** A new branch that does not contain main's last synced commit. */
  | 'not-based-on-main'
  /** The branch's change request was merged or archived. */
  | 'change-request-closed'
  /** HEAD is detached, the branch is missing, or the branch is not tracked. */
  | 'no-branch';

export class SyncError extends Error {
  constructor(
    readonly code: SyncErrorCode,
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'SyncError';
  }
}

export const isSyncError = (error: unknown): error is SyncError => error instanceof SyncError;
