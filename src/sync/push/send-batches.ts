import { createdRefs, planBatches, type Client } from '../../client/index.js';
import type { ContentChange } from '../../model/index.js';
import { recoverCreatedPages } from './created-pages.js';
import { journalHook, writeJournal, type PushJournal } from './journal.js';

/**
 * Splits planned changes into batches the API takes. A page is named by id only in `into` and in
 * `update_page`'s `page` (refs work in links, not there), so a change naming a page the plan
 * inserts must go in a later batch than the insert: a batch ends before such a change, and the
 * local id becomes `ref:<ref>`, which `sendBatches` swaps for the created id. `refs` maps the
 * local id of each inserted page to its batch ref. A change naming a new page whose insert is not
 * among `changes` (a page the server cannot take, left out with its reason by `adaptPlan`) is
 * left out with it: there will be no id to name.
 */
export function batchesOf(changes: readonly ContentChange[], refs: ReadonlyMap<string, string>): ContentChange[][] {
  const localIdOf = new Map([...refs].map(([localId, ref]) => [ref, localId]));
  const planned = new Set(
    changes.flatMap((c) => (c.operation === 'insert_page' && c.ref !== undefined && localIdOf.has(c.ref) ? [localIdOf.get(c.ref)!] : [])),
  );
  const segments: ContentChange[][] = [];
  let segment: ContentChange[] = [];
  let insertedHere = new Set<string>();
  for (const change of changes) {
    const named = NAMING.flatMap((key) => {
      const value = (change as Record<string, unknown>)[key];
      return typeof value === 'string' && refs.has(value) ? [[key, value] as const] : [];
    });
    if (named.some(([, localId]) => !planned.has(localId))) continue;
    if (named.some(([, localId]) => insertedHere.has(localId))) {
      segments.push(segment);
      segment = [];
      insertedHere = new Set();
    }
    segment.push(
      named.length === 0
        ? change
        : ({ ...change, ...Object.fromEntries(named.map(([key, localId]) => [key, `ref:${refs.get(localId)!}`])) } as ContentChange),
    );
    if (change.operation === 'insert_page' && change.ref !== undefined) {
      const localId = localIdOf.get(change.ref);
      if (localId !== undefined) insertedHere.add(localId);
    }
  }
  if (segment.length > 0) segments.push(segment);
  return segments.flatMap((s) => planBatches(s).batches);
}

/** The fields of a change that name a page by id (`page` of delete_page never names a new one). */
const NAMING = ['into', 'page'] as const;

/** True when the change names a page by a ref no earlier batch's answer gave an id for. */
function namesUnknownRef(change: ContentChange, created: Readonly<Record<string, string>>): boolean {
  return NAMING.some((key) => {
    const value = (change as Record<string, unknown>)[key];
    return typeof value === 'string' && value.startsWith('ref:') && created[value.slice(4)] === undefined;
  });
}

/** `into` or `page` as `ref:<ref>` → the id the ref's page was created with (exported for the planner's tests). */
export function resolveRefs(change: ContentChange, created: Readonly<Record<string, string>>): ContentChange {
  let resolved = change;
  for (const key of NAMING) {
    const value = (change as Record<string, unknown>)[key];
    if (typeof value !== 'string' || !value.startsWith('ref:')) continue;
    const id = created[value.slice(4)];
    if (id === undefined)
      throw new Error(`batch planning: the page ${value.slice(4)} named by \`${key}\` was not created by an earlier batch`);
    resolved = { ...resolved, [key]: id } as ContentChange;
  }
  return resolved;
}

/**
 * Sends the journal's batches from `landed` on, one at a time: each is announced in the journal
 * before it goes and recorded after (new head, created ids), so a crash leaves a journal that
 * says exactly how far the push got.
 */
export async function sendBatches(
  client: Client,
  workspace: string,
  spaceId: string,
  journal: PushJournal,
  onBatch?: (done: number, total: number) => void,
): Promise<PushJournal> {
  for (let index = journal.landed; index < journal.batches.length; index += 1) {
    if (journal.batches[index]!.some((change) => namesUnknownRef(change, journal.created))) {
      // The server answered earlier batches without their outcomes (the hosted API's compat
      // answer): find the pages they created in the revision, and remember them.
      const landed = journal.batches.slice(0, index);
      journal = { ...journal, created: await recoverCreatedPages(client, spaceId, landed, journal) };
      await writeJournal(workspace, journal);
    }
    const batch = journal.batches[index]!.map((change) => resolveRefs(change, journal.created));
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
