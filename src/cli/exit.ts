// Types only: the classes stay unloaded, so `docsync --help` and the server commands never load
// the sync stack for the sake of this table.
import type { ClientErrorCode } from '../client/index.js';
import type { DaemonErrorCode } from '../daemon/index.js';
import type { GitErrorCode } from '../git/index.js';
import { BaseError, type ErrorCode } from '../model/index.js';
import type { SyncErrorCode } from '../sync/index.js';
import type { WorkspaceErrorCode } from '../workspace/index.js';

/** Exit codes of every command (docs/cli.md, "Exit codes"). */
export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  conflict: 3,
  /** Sent what it could; some files were left out (each named, with why). */
  partial: 4,
  /** Refused before sending anything: pull first, a mass delete, an unreadable page tree. */
  refused: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Codes of the server's own internals, which reach the CLI only through `serve` and `admin`. */
type ServerInternalCode = 'fetch-failed' | 'change-refused' | 'head-moved';

/** Every code a docsync error may carry. */
export type AnyErrorCode =
  ErrorCode | GitErrorCode | SyncErrorCode | ClientErrorCode | WorkspaceErrorCode | DaemonErrorCode | ServerInternalCode | 'exit';

/**
 * The one table from error codes to exit codes (docs/errors.md lists it, and
 * test/cli/errors.test.ts keeps the two in step). A code added to any layer breaks the build
 * until it has a row here. `api-error` is decided by the HTTP status (see {@link exitCodeOf}).
 */
export const EXIT_CODES = {
  // The server's catalogue (model/errors.ts), met by `serve` and `admin`.
  invalid_request: EXIT.error,
  unauthorized: EXIT.error,
  forbidden: EXIT.error,
  not_found: EXIT.error,
  conflict: EXIT.conflict,
  space_locked: EXIT.error,
  restore_window_passed: EXIT.error,
  payload_too_large: EXIT.error,
  document_too_complex: EXIT.error,
  unsupported_media_type: EXIT.error,
  rate_limited: EXIT.error,
  internal: EXIT.error,
  'fetch-failed': EXIT.error,
  'change-refused': EXIT.error,
  'head-moved': EXIT.error,
  // git/errors.ts
  'not-a-repo': EXIT.error,
  'not-found': EXIT.error,
  'ref-moved': EXIT.error,
  'ref-locked': EXIT.error,
  'already-exists': EXIT.error,
  'checked-out': EXIT.error,
  'dirty-working-tree': EXIT.refused,
  'invalid-path': EXIT.error,
  'invalid-ref': EXIT.error,
  'detached-head': EXIT.error,
  'unsupported-repository': EXIT.error,
  // sync/errors.ts
  'remote-ahead': EXIT.refused,
  'mass-delete': EXIT.refused,
  'unreadable-tree': EXIT.refused,
  'not-based-on-main': EXIT.refused,
  'would-undo-remote': EXIT.refused,
  'behind-main-conflicts': EXIT.conflict,
  'change-request-closed': EXIT.refused,
  'no-branch': EXIT.error,
  'not-a-workspace': EXIT.error,
  'not-published': EXIT.error,
  'already-published': EXIT.error,
  'damaged-state': EXIT.error,
  'not-logged-in': EXIT.error,
  'not-followed': EXIT.refused,
  'not-a-change-request': EXIT.error,
  'unpushed-changes': EXIT.refused,
  'merge-conflicts': EXIT.conflict,
  'folder-not-empty': EXIT.error,
  'other-organization': EXIT.error,
  'choose-organization': EXIT.usage,
  'no-organization': EXIT.error,
  'invalid-title': EXIT.usage,
  'template-missing': EXIT.error,
  'unknown-change-request': EXIT.error,
  'created-pages-unknown': EXIT.conflict,
  // client/errors.ts
  'api-error': EXIT.error,
  'connection-failed': EXIT.error,
  'invalid-option': EXIT.error,
  'batch-too-large': EXIT.error,
  // workspace/errors.ts
  'path-outside-folder': EXIT.error,
  // daemon/lock.ts
  'daemon-running': EXIT.refused,
  'workspace-busy': EXIT.refused,
  // ExitError: carries its own exit code.
  exit: EXIT.error,
} as const satisfies Record<AnyErrorCode, ExitCode>;

/** An expected failure that ends the command with a message and an exit code. */
export class ExitError extends BaseError<'exit'> {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
  ) {
    super('exit', message, { data: { exitCode } });
  }
}

/** The exit code of an expected error: its own for ExitError, the HTTP status's for an ApiError, else the table's. */
export function exitCodeOf(error: BaseError): number {
  if (error instanceof ExitError) return error.exitCode;
  if (error.code === 'api-error') return (error as { status?: unknown }).status === 409 ? EXIT.conflict : EXIT.error;
  return (EXIT_CODES as Record<string, number>)[error.code] ?? EXIT.error;
}

/** Node's system errors that are the environment's doing (a port taken, a folder missing). */
const SYSTEM_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'EADDRINUSE', 'EACCES', 'ENOENT']);

/**
 * The one catch of the CLI: expected failures become one line (and one per detail) and an exit
 * code; anything else is a bug and says so, with its stack.
 */
export function reportFailure(error: unknown): number {
  if (error instanceof BaseError && error.expected) {
    console.error(`docsync: ${error.message}`);
    const details = (error as { details?: unknown }).details;
    for (const detail of Array.isArray(details) ? details : []) console.error(`  ${String(detail)}`);
    return exitCodeOf(error);
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (!(error instanceof BaseError) && typeof code === 'string' && SYSTEM_CODES.has(code)) {
    console.error(`docsync: ${(error as Error).message}`);
    return EXIT.error;
  }
  console.error(
    `docsync: internal error (a bug; please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  return EXIT.error;
}
