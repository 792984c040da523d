import { createdRefs, planBatches, type Client } from '../client/index.js';
import type { ContentChange } from '../model/index.js';
import { journalHook, writeJournal, type PushJournal } from './journal.js';

/**
 * Splits planned changes into batches the API takes. `into` names a parent by id only (refs
 * work in links, not there), so a page inserted under a page the plan also inserts must go in a
 * later batch than its parent: a batch ends before such a change. `refs` maps the local id of
 * each inserted page to its batch ref.
 */
export function batchesOf(changes: readonly ContentChange[], refs: ReadonlyMap<string, string>): ContentChange[][] {
  const segments: ContentChange[][] = [];
  let segment: ContentChange[] = [];
  let insertedHere = new Set<string>();
  for (const change of changes) {
    const into = 'into' in change && typeof change.into === 'string' ? change.into : undefined;
    if (into !== undefined && insertedHere.has(into)) {
      segments.push(segment);
      segment = [];
      insertedHere = new Set();
    }
    // `into` by local id becomes the parent's ref here; `sendBatches` swaps in the created id.
    segment.push(into !== undefined && refs.has(into) ? ({ ...change, into: `ref:${refs.get(into)!}` } as ContentChange) : change);
    if (change.operation === 'insert_page' && change.ref !== undefined) {
      const localId = [...refs].find(([, ref]) => ref === change.ref)?.[0];
      if (localId !== undefined) insertedHere.add(localId);
    }
  }
  if (segment.length > 0) segments.push(segment);
  return segments.flatMap((s) => planBatches(s).batches);
}

/** `into: "ref:<ref>"` → the id the ref's page was created with (exported for the planner's tests). */
export function resolveInto(change: ContentChange, created: Readonly<Record<string, string>>): ContentChange {
  if (!('into' in change) || typeof change.into !== 'string' || !change.into.startsWith('ref:')) return change;
  const ref = change.into.slice(4);
  const id = created[ref];
  if (id === undefined) throw new Error(`batch planning: the parent ${ref} of a page was not created by an earlier batch`);
  return { ...change, into: id } as ContentChange;
}

/**
 * Sends the journal's batches from `landed` on, one at a time: each is announced in the journal
 * before it goes and recorded after (new head, created ids), so a crash leaves a journal that
 * says exactly how far the push got.
 */
export async function sendBatches(client: Client, workspace: string, spaceId: string, journal: PushJournal, onBatch?: (done: number, total: number) => void): Promise<PushJournal> {
  for (let index = journal.landed; index < journal.batches.length; index += 1) {
    const batch = journal.batches[index]!.map((change) => resolveInto(change, journal.created));
    await writeJournal(workspace, { ...journal, inFlight: index });
    const result = await client.content.write(spaceId, journal.changeRequestId, batch);
    journalHook('sent', index);
    const created = Object.fromEntries([...createdRefs(batch, result)].map(([ref, value]) => [ref, value.id]));
    journal = { ...journal, landed: index + 1, revision: result.changeRequest.revision, created: { ...journal.created, ...created } };
    delete journal.inFlight;
    await writeJournal(workspace, journal);
    journalHook('recorded', index);
    onBatch?.(index + 1, journal.batches.length);
  }
  return journal;
}
