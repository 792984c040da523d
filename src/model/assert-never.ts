/**
 * The end of every exhaustive `switch` on a tagged union (GitBook's `nullIfNever`): a new variant
 * breaks the build until it is handled, and a value from outside the types (bad JSON) fails
 * loudly, naming `what` it is.
 */
export function assertNever(value: never, what: string): never {
  throw new Error(`unknown ${what} ${JSON.stringify(value)}`);
}
