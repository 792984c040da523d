/**
 * The one base of every docsync error, as isomorphic-git's `BaseError` and changesets' errors:
 * a stable `code` to compare (never the message text), `data` for what a caller may need beyond
 * the message, and `expected`, true when the failure is the user's or the environment's doing
 * (a bad argument, a missing folder, a server away, a lock held) and false for a bug.
 *
 * Each layer owns a closed list of codes (the server's catalogue in `errors.ts`, git's in
 * `git/errors.ts`, sync's in `sync/errors.ts`, ...); the CLI maps every code to an exit code in
 * one table (`cli/exit.ts`) and docs/errors.md lists them all.
 */
export class BaseError<Code extends string = string> extends Error {
  readonly code: Code;
  readonly data: Readonly<Record<string, unknown>>;
  readonly expected: boolean;

  constructor(code: Code, message: string, options: { data?: Record<string, unknown>; expected?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = options.data ?? {};
    this.expected = options.expected ?? true;
  }

  toJSON(): { name: string; code: Code; message: string; data: Readonly<Record<string, unknown>> } {
    return { name: this.name, code: this.code, message: this.message, data: this.data };
  }
}

/** True for a docsync error marked expected (the user's or the environment's doing, not a bug). */
export function isExpectedError(value: unknown): value is BaseError {
  return value instanceof BaseError && value.expected;
}
