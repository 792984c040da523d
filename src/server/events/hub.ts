import type { Kysely, Selectable } from 'kysely';
import type { Database, EventsTable } from '../store/schema.js';

/** A stored event with what deciding who may see it needs: its space as an access node. */
export type EventRow = Selectable<EventsTable> & { org_id: string; parent_id: string | null; default_level: string };

export interface EventHubOptions {
  /** How often the events table is read while anyone listens (every process reads it itself). @default 200 */
  pollMs?: number;
}

const BATCH = 500;

/** The events after `after` (up to `upTo`), oldest first, with their spaces' access facts. */
export function readEvents(
  db: Kysely<Database>,
  where: { after: number; upTo?: number; spaceId?: string; orgId?: string },
  limit = BATCH,
): Promise<EventRow[]> {
  let query = db
    .selectFrom('events as e')
    .innerJoin('spaces as s', 's.id', 'e.space_id')
    .selectAll('e')
    .select(['s.org_id', 's.parent_id', 's.default_level'])
    .where('e.id', '>', where.after);
  if (where.upTo !== undefined) query = query.where('e.id', '<=', where.upTo);
  if (where.spaceId !== undefined) query = query.where('e.space_id', '=', where.spaceId);
  if (where.orgId !== undefined) query = query.where('s.org_id', '=', where.orgId);
  return query.orderBy('e.id').limit(limit).execute() as Promise<EventRow[]>;
}

type Listener = (events: EventRow[]) => void;

/**
 * One reader of the events table per server process, shared by every stream it serves: while
 * anyone listens it reads what was committed after its cursor every `pollMs` (one query for all
 * subscribers) and hands each batch to every listener, which filters it. Several processes on one
 * PostgreSQL each read the table, so an event written by any of them reaches the subscribers of
 * all; the same works on SQLite, where LISTEN/NOTIFY would not exist.
 *
 * Invariant: a listener gets every event with an id above the cursor `listen` returned, once and
 * in order (ids become visible in order: server/events/record.ts); what is at or below it, a
 * resuming subscriber reads itself (`readEvents` with `upTo`).
 */
export class EventHub {
  readonly #db: Kysely<Database>;
  readonly #pollMs: number;
  readonly #listeners = new Set<Listener>();
  #cursor: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reading: Promise<void> | undefined;
  /** A wake came while a read was under way: read once more right after it. */
  #again = false;
  #stopped = false;

  constructor(db: Kysely<Database>, options: EventHubOptions = {}) {
    this.#db = db;
    this.#pollMs = options.pollMs ?? 200;
  }

  /** Adds a listener; returns the cursor it starts after, and how to remove it. */
  async listen(listener: Listener): Promise<{ cursor: number; close: () => void }> {
    // Never while a read is under way: its batch must not reach a listener whose cursor is past it.
    while (this.#reading) await this.#reading;
    if (this.#cursor === undefined) {
      const top = await this.#db
        .selectFrom('events')
        .select((eb) => eb.fn.max('id').as('n'))
        .executeTakeFirst();
      while (this.#reading) await this.#reading;
      this.#cursor ??= Number(top?.n ?? 0);
    }
    this.#listeners.add(listener);
    this.#schedule();
    return {
      cursor: this.#cursor,
      close: () => {
        this.#listeners.delete(listener);
        if (this.#listeners.size === 0) {
          clearTimeout(this.#timer);
          this.#timer = undefined;
          // Read from the table's end again when the next listener comes.
          if (!this.#reading) this.#cursor = undefined;
        }
      },
    };
  }

  /**
   * This process just wrote (a request answered): read now instead of at the next tick, so its
   * subscribers hear of the write at once (the `pollMs` wait, 100 ms on average, was most of a
   * platform edit's way to the daemon). Writes of other processes still arrive at the next tick.
   */
  wake(): void {
    if (this.#stopped || this.#listeners.size === 0) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#tick();
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#listeners.clear();
  }

  #schedule(): void {
    if (this.#timer || this.#stopped || this.#listeners.size === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#tick();
    }, this.#pollMs);
  }

  #tick(): void {
    this.#reading = this.#read().finally(() => {
      this.#reading = undefined;
      if (this.#listeners.size === 0) this.#cursor = undefined;
      if (this.#again && !this.#stopped && this.#listeners.size > 0) {
        this.#again = false;
        clearTimeout(this.#timer);
        this.#timer = undefined;
        this.#tick();
      } else this.#schedule();
    });
  }

  async #read(): Promise<void> {
    for (;;) {
      if (this.#cursor === undefined || this.#listeners.size === 0) return;
      let rows: EventRow[];
      try {
        rows = await readEvents(this.#db, { after: this.#cursor });
      } catch {
        return; // the database is away or closing: the next tick tries again
      }
      if (rows.length === 0) return;
      this.#cursor = Number(rows.at(-1)!.id);
      for (const listener of this.#listeners) listener(rows);
      if (rows.length < BATCH) return;
    }
  }
}
