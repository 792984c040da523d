import { DocsyncError } from '../model/index.js';

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

/** An expected failure that ends the command with a message and an exit code. */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.error,
  ) {
    super(message);
    this.name = 'ExitError';
  }
}

/**
 * The one catch of the CLI: expected failures become one line and an exit code; anything else
 * is a bug and says so.
 */
export function reportFailure(error: unknown): number {
  if (error instanceof ExitError) {
    console.error(`docsync: ${error.message}`);
    return error.exitCode;
  }
  // The sync and client errors are told by name: importing their classes here would load the
  // whole sync stack for `docsync --help` and the server commands.
  const named = error as { name?: unknown; message?: string; code?: unknown; status?: unknown; details?: unknown };
  if (named?.name === 'SyncError') {
    console.error(`docsync: ${named.message}`);
    for (const detail of Array.isArray(named.details) ? named.details : []) console.error(`  ${String(detail)}`);
    return named.code === 'no-branch' ? EXIT.error : EXIT.refused;
  }
  if (named?.name === 'WorkspaceBusyError' || named?.name === 'DaemonLockedError') {
    console.error(`docsync: ${named.message}`);
    return EXIT.refused;
  }
  if (named?.name === 'ApiError' || named?.name === 'ClientError' || named?.name === 'ConnectionError') {
    console.error(`docsync: ${named.message}`);
    return named.status === 409 ? EXIT.conflict : EXIT.error;
  }
  if (error instanceof DocsyncError) {
    console.error(`docsync: ${error.message}`);
    return error.code === 'conflict' ? EXIT.conflict : EXIT.error;
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && ['ECONNREFUSED', 'EADDRINUSE', 'EACCES', 'ENOENT'].includes(code)) {
    console.error(`docsync: ${(error as Error).message}`);
    return EXIT.error;
  }
  console.error(`docsync: internal error (a bug; please report it): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return EXIT.error;
}
