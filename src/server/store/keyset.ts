import type { ExpressionBuilder } from 'kysely';
import type { SortKey } from '../util/cursor.js';

/** `(column, id) > (after[0], after[1])`, spelled out so both dialects use the index. */
export function afterKey<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, column: string, idColumn: string, after: SortKey) {
  // Column names are passed as plain strings; Kysely's reference typing cannot follow them.
  const e = eb as unknown as ExpressionBuilder<Record<string, Record<string, unknown>>, string>;
  return e.or([e(column, '>', after[0]), e.and([e(column, '=', after[0]), e(idColumn, '>', after[1])])]) as unknown as ReturnType<
    ExpressionBuilder<DB, TB>['or']
  >;
}
