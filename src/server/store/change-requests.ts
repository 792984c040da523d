import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChangeRequestStatus } from '../../model/index.js';
import type { ChangeRequestsTable, Database } from './schema.js';
import type { SortKey } from '../util/cursor.js';
import { newId } from '../util/ids.js';
import { inTransaction } from './transaction.js';
import { recordChangeRequestEvent } from '../events/record.js';

export type ChangeRequestRow = Selectable<ChangeRequestsTable>;

/**
 * Takes the space row's write lock for the rest of the transaction (PostgreSQL row lock; SQLite
 * runs one writer at a time anyway). Everything that numbers change requests or recounts the
 * space's counters runs under it, so two writers never read the same maximum or stale counts.
 */
async function lockSpaceRow(trx: Kysely<Database>, spaceId: string): Promise<void> {
  await trx
    .updateTable('spaces')
    .set({ change_requests: sql`change_requests` })
    .where('id', '=', spaceId)
    .execute();
}

/**
 * Recounts the space's `changeRequests`, `changeRequestsOpen` and `changeRequestsDraft` from the
 * rows. Call it inside the transaction that changed a change request's existence or status,
 * after `lockSpaceRow`; recounting (rather than adding deltas) keeps the counters true even if
 * an earlier writer got them wrong.
 */
export async function recountChangeRequests(trx: Kysely<Database>, spaceId: string): Promise<void> {
  const rows = await trx
    .selectFrom('change_requests')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('space_id', '=', spaceId)
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  const total = rows.reduce((sum, r) => sum + Number(r.n), 0);
  await trx
    .updateTable('spaces')
    .set({ change_requests: total, change_requests_open: count('open'), change_requests_draft: count('draft') })
    .where('id', '=', spaceId)
    .execute();
}

/** Runs `fn` under the space row's lock and recounts the space's counters before committing. */
export function withSpaceCounters<T>(db: Kysely<Database>, spaceId: string, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return inTransaction(db, async (trx) => {
    await lockSpaceRow(trx, spaceId);
    const result = await fn(trx);
    await recountChangeRequests(trx, spaceId);
    return result;
  });
}

export interface NewChangeRequest {
  spaceId: string;
  subject: string;
  createdBy: string;
  /** The space head it starts from: its first head and its `revisionInitial`. */
  revision: string;
  agentTaskId: string | null;
}

/** A new open change request numbered one past the space's highest number. */
export function createChangeRequest(db: Kysely<Database>, input: NewChangeRequest, now: string): Promise<ChangeRequestRow> {
  return withSpaceCounters(db, input.spaceId, async (trx) => {
    const top = await trx
      .selectFrom('change_requests')
      .select((eb) => eb.fn.max('number').as('n'))
      .where('space_id', '=', input.spaceId)
      .executeTakeFirst();
    const row: ChangeRequestRow = {
      id: newId(),
      space_id: input.spaceId,
      number: Number(top?.n ?? 0) + 1,
      subject: input.subject,
      status: 'open',
      created_by: input.createdBy,
      created_at: now,
      updated_at: now,
      revision_id: input.revision,
      revision_initial: input.revision,
      revision_merged_ancestor: null,
      revision_merged: null,
      merged_by: null,
      merged_at: null,
      agent_task_id: input.agentTaskId,
      comments: 0,
    };
    await trx.insertInto('change_requests').values(row).execute();
    await recordChangeRequestEvent(trx, 'change-request', row.id, now);
    return row;
  });
}

// A number beyond this cannot be stored in the integer column, so it names no change request.
const MAX_NUMBER = 2 ** 31 - 1;

/** A change request of the space by id or by its number in the space (the path accepts both). */
export function findChangeRequest(db: Kysely<Database>, spaceId: string, idOrNumber: string): Promise<ChangeRequestRow | undefined> {
  const asNumber = /^[0-9]{1,10}$/.test(idOrNumber) ? Number(idOrNumber) : undefined;
  const byNumber = asNumber !== undefined && asNumber <= MAX_NUMBER ? asNumber : undefined;
  return (
    db
      .selectFrom('change_requests')
      .selectAll()
      .where('space_id', '=', spaceId)
      .where((eb) => (byNumber === undefined ? eb('id', '=', idOrNumber) : eb.or([eb('id', '=', idOrNumber), eb('number', '=', byNumber)])))
      // An id made only of digits wins over another change request's number.
      .orderBy(sql`case when id = ${idOrNumber} then 0 else 1 end`)
      .executeTakeFirst()
  );
}

export interface ChangeRequestFilter {
  status: ChangeRequestStatus;
  /** Only change requests this user created or made a revision in. */
  contributor?: string;
}

/** One page of a space's change requests, newest update first (keyset on updated_at, id). */
export function listChangeRequests(
  db: Kysely<Database>,
  spaceId: string,
  filter: ChangeRequestFilter,
  after: SortKey | undefined,
  n: number,
): Promise<ChangeRequestRow[]> {
  let query = db
    .selectFrom('change_requests as cr')
    .selectAll('cr')
    .where('cr.space_id', '=', spaceId)
    .where('cr.status', '=', filter.status);
  const contributor = filter.contributor;
  if (contributor !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('cr.created_by', '=', contributor),
        eb.exists(
          eb
            .selectFrom('revisions as r')
            .select('r.id')
            .whereRef('r.change_request_id', '=', 'cr.id')
            .where('r.created_by', '=', contributor),
        ),
      ]),
    );
  }
  if (after) {
    const [updatedAt, id] = [String(after[0]), after[1]];
    query = query.where((eb) =>
      eb.or([eb('cr.updated_at', '<', updatedAt), eb.and([eb('cr.updated_at', '=', updatedAt), eb('cr.id', '<', id)])]),
    );
  }
  return query.orderBy('cr.updated_at', 'desc').orderBy('cr.id', 'desc').limit(n).execute();
}

/** Subject and status changes; refuses (returns undefined) when the change request was merged meanwhile. */
export function patchChangeRequest(
  db: Kysely<Database>,
  row: ChangeRequestRow,
  changes: { subject?: string; status?: ChangeRequestStatus },
  now: string,
): Promise<ChangeRequestRow | undefined> {
  return withSpaceCounters(db, row.space_id, async (trx) => {
    const result = await trx
      .updateTable('change_requests')
      .set({ ...changes, updated_at: now })
      .where('id', '=', row.id)
      .where('status', '!=', 'merged')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    await recordChangeRequestEvent(trx, 'change-request', row.id, now);
    return trx.selectFrom('change_requests').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
  });
}

/**
 * Marks the change request merged as `revision`, by compare-and-swap: only while its head is
 * still `head` (the one merged) and it is open or draft. False when it moved or closed meanwhile.
 */
export async function markChangeRequestMerged(
  db: Kysely<Database>,
  input: { id: string; head: string; revision: string; userId: string },
  now: string,
): Promise<boolean> {
  const marked = await db
    .updateTable('change_requests')
    .set({ status: 'merged', revision_merged: input.revision, merged_by: input.userId, merged_at: now, updated_at: now })
    .where('id', '=', input.id)
    .where('revision_id', '=', input.head)
    .where('status', 'in', ['open', 'draft'])
    .executeTakeFirst();
  if (Number(marked.numUpdatedRows) !== 1) return false;
  await recordChangeRequestEvent(db, 'change-request', input.id, now);
  return true;
}

/**
 * Moves an update's result onto the change request, by compare-and-swap: the head goes from
 * `from` to `to` and main's `mainHead` becomes the revision it last took in, only while the head
 * is still `from` and the change request is not merged. False when it moved or merged meanwhile.
 */
export async function moveUpdatedChangeRequestHead(
  db: Kysely<Database>,
  input: { id: string; from: string; to: string; mainHead: string },
  now: string,
): Promise<boolean> {
  const moved = await db
    .updateTable('change_requests')
    .set({ revision_id: input.to, revision_merged_ancestor: input.mainHead, updated_at: now })
    .where('id', '=', input.id)
    .where('revision_id', '=', input.from)
    .where('status', '!=', 'merged')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await recordChangeRequestEvent(db, 'revision', input.id, now);
  return true;
}
