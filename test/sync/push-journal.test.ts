import { describe, expect, it } from 'vitest';
import { createdPlaces, pushRecorded, type PushJournal } from '../../src/sync/push/journal.js';

const journal = (over: Partial<PushJournal> = {}): PushJournal => ({
  version: 1,
  branch: 'topic',
  changeRequestId: 'cr1',
  startRevision: 'r0',
  batches: [[{ operation: 'delete_page', page: 'p1' }], [{ operation: 'delete_page', page: 'p2' }]],
  landed: 2,
  revision: 'r2',
  created: {},
  ...over,
});

describe('the push journal', () => {
  it('is recorded only when every batch landed and the state holds its change request at its revision', () => {
    const synced = { changeRequestId: 'cr1', remoteRevision: 'r2' };
    expect(pushRecorded(journal(), synced)).toBe(true);
    // A batch still to send, or in flight: the push is not over.
    expect(pushRecorded(journal({ landed: 1, revision: 'r1' }), { changeRequestId: 'cr1', remoteRevision: 'r1' })).toBe(false);
    // Before the first batch landed the state's revision is the journal's too.
    expect(pushRecorded(journal({ landed: 0, revision: 'r0' }), { changeRequestId: 'cr1', remoteRevision: 'r0' })).toBe(false);
    // Every batch landed, but the state was not written: the push goes on from the journal.
    expect(pushRecorded(journal(), { changeRequestId: 'cr1', remoteRevision: 'r0' })).toBe(false);
    expect(pushRecorded(journal(), { changeRequestId: 'cr2', remoteRevision: 'r2' })).toBe(false);
    expect(pushRecorded(journal(), { remoteRevision: 'r2' })).toBe(false);
    expect(pushRecorded(journal(), undefined)).toBe(false);
  });

  it('places the pages its landed batches created in the files the writer has them in', () => {
    const places = createdPlaces(
      journal({
        created: { 'new-0': 'id-a', 'new-1': 'id-b' },
        places: { 'new-0': 'notes/kept-here.md', 'new-1': 'guide.md', 'new-2': 'not-landed.md' },
      }),
    );
    expect(places).toEqual(
      new Map([
        ['id-a', 'notes/kept-here.md'],
        ['id-b', 'guide.md'],
      ]),
    );
    // A journal of an older version names no files.
    expect(createdPlaces(journal({ created: { 'new-0': 'id-a' } }))).toEqual(new Map());
  });
});
