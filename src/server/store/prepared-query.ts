import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/*
 * A query built and compiled once per database, then run with new parameters. On the hottest
 * path of the server (a published page served from the render cache) building the same five
 * queries with Kysely's builders cost more than SQLite took to run them. The query is built
 * with marker values in place of its parameters; the compiled parameter list is then mapped back
 * to those markers, so a parameter used twice (`basename = ? or id = ?`) is filled twice, and a
 * literal the builder parameterised on its own is kept as it was.
 */

const MARKER = '\u0000docsync-prepared-';

/** A prepared query's runner: the rows of the query for these parameters. */
export type PreparedQuery<P extends string[], R> = (db: Kysely<Database>, ...params: P) => Promise<R[]>;

export function preparedQuery<P extends string[], R>(build: (db: Kysely<Database>, ...params: P) => Compilable<R>): PreparedQuery<P, R> {
  const compiled = new WeakMap<Kysely<Database>, { query: CompiledQuery<R>; slots: (number | undefined)[] }>();
  return async (db, ...params) => {
    let found = compiled.get(db);
    if (!found) {
      const markers = params.map((_, i) => `${MARKER}${i}`) as P;
      const query = build(db, ...markers).compile();
      const slots = query.parameters.map((value) =>
        typeof value === 'string' && value.startsWith(MARKER) ? Number(value.slice(MARKER.length)) : undefined,
      );
      found = { query, slots };
      compiled.set(db, found);
    }
    const { query, slots } = found;
    const parameters = query.parameters.map((value, i) => (slots[i] === undefined ? value : params[slots[i]!]));
    const result = await db.executeQuery<R>({ ...query, parameters });
    return result.rows;
  };
}
