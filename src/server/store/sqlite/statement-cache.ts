const STATEMENT_CACHE = 256;

/**
 * Kysely prepares every SQLite query anew, and preparing costs more than running the small
 * queries an API request makes. The same SQL text gets the same prepared statement back (both
 * drivers' statements are reusable; Kysely never iterates two at once on one); the 256 most
 * recently used are kept.
 */
export function cachedPrepare<S>(prepare: (source: string) => S): (source: string) => S {
  const statements = new Map<string, S>();
  return (source) => {
    let statement = statements.get(source);
    if (statement !== undefined) statements.delete(source);
    else statement = prepare(source);
    statements.set(source, statement);
    if (statements.size > STATEMENT_CACHE) statements.delete(statements.keys().next().value as string);
    return statement;
  };
}
