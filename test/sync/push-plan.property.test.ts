import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allIds,
  draftArb,
  draftArbOf,
  editArb,
  expectPushed,
  fieldEditArb,
  latestFiles,
  modelTree,
  pageSpecArb,
  plan,
  remoteArb,
  scenarioOf,
  send,
  shapeOfTree,
  structureEditArb,
  type Edit,
} from './push-plan-harness.js';
import { sha256 } from '../../src/server/store/blobs.js';
import type { WorkspacePage } from '../../src/workspace/index.js';

const scenarioArb = (edits: fc.Arbitrary<Edit>, maxLength: number, drafts = draftArb, links = true) =>
  fc.tuple(drafts, fc.array(edits, { minLength: 1, maxLength, size: 'max' })).map(([draft, list]) => scenarioOf(draft, list, links));

describe('planPush, sent as a push sends it and applied by the server', () => {
  it('turns the remote into the local content: same pages, ids, places, titles, slugs, types, hrefs, documents and metadata', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb(editArb, 12), async ({ remote, local }) => {
        const { planned, sent } = await expectPushed(remote, local);

        const files = latestFiles(sent.tree);
        for (const file of local.files) expect(files.get(file.name), file.name).toBe(sha256(file.bytes!));
        const localNames = new Set(local.files.map((f) => f.name));
        expect(planned.undeletableFiles.sort()).toEqual(
          remote.files
            .filter((f) => !localNames.has(f.name))
            .map((f) => f.name)
            .sort(),
        );
      }),
      { numRuns: 400 },
    );
  });

  it('keeps the id of every kept page, inserts each new page once, deletes only pages that are gone', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb(editArb, 12), async ({ remote, local }) => {
        const planned = plan(remote, local);
        const remoteIds = new Set(allIds(remote.pages));
        const localIds = allIds(local.pages);
        const added = localIds.filter((id) => !remoteIds.has(id));
        const kept = new Set(localIds.filter((id) => remoteIds.has(id)));

        const inserts = planned.changes.filter((c) => c.operation === 'insert_page');
        expect(inserts.map((c) => c.ref).sort()).toEqual(added.map((id) => planned.refs.get(id)).sort());
        expect(new Set(inserts.map((c) => c.ref)).size).toBe(added.length);
        const deletes = planned.changes.flatMap((c) => (c.operation === 'delete_page' ? [c.page] : []));
        for (const id of deletes) expect(kept.has(id), `delete_page of kept page ${id}`).toBe(false);
        expect(new Set(deletes).size).toBe(deletes.length);
        // Updates name kept pages, pages moved aside before they go, or new pages whose document follows the tree.
        for (const change of planned.changes)
          if (change.operation === 'update_page') expect(remoteIds.has(change.page) || planned.refs.has(change.page)).toBe(true);
        const late = planned.changes.filter((c) => c.operation === 'update_page' && planned.refs.has(c.page));
        for (const change of late) expect(Object.keys(change).sort()).toEqual(['document', 'operation', 'page']);

        const sent = await send(modelTree(remote), planned);
        const after = new Set(
          shapeOfTree(sent.tree.pages).flatMap(function ids(s): string[] {
            return [s.id, ...s.pages.flatMap(ids)];
          }),
        );
        for (const id of kept) expect(after.has(id), `kept page ${id}`).toBe(true);
        expect(after.size).toBe(localIds.length);
      }),
      { numRuns: 300 },
    );
  });

  it('splits a large push into batches of at most 50, new parents in a batch before their new children', async () => {
    const manyNew = fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          op: fc.constant('insert-tree' as const),
          spec: pageSpecArb,
          children: fc.array(pageSpecArb, { minLength: 3, maxLength: 6 }),
        }),
      },
      { weight: 1, arbitrary: editArb },
    );
    let split = 0;
    await fc.assert(
      fc.asyncProperty(scenarioArb(manyNew, 30, draftArbOf(40, 80)), async ({ remote, local }) => {
        const { planned, sent } = await expectPushed(remote, local);
        for (const batch of sent.batches) expect(batch.length).toBeLessThanOrEqual(50);
        // One batch, plus one per tree level where new pages sit under new pages, plus one for the
        // documents of new pages that link by path, plus one per 50 changes.
        const remoteIds = new Set(allIds(remote.pages));
        const levels = new Set<number>();
        const visit = (pages: WorkspacePage[], depth: number, parentIsNew: boolean) =>
          pages.forEach((p) => {
            if (parentIsNew) levels.add(depth);
            if (p.type !== 'link') visit(p.pages, depth + 1, !remoteIds.has(p.id));
          });
        visit(local.pages, 1, false);
        const late = planned.changes.some((c) => c.operation === 'update_page' && planned.refs.has(c.page)) ? 1 : 0;
        expect(sent.batches.length).toBeLessThanOrEqual(1 + levels.size + late + Math.floor(planned.changes.length / 50));
        if (planned.changes.length > 50) split += 1;
      }),
      { numRuns: 40 },
    );
    expect(split).toBeGreaterThan(5);
  });

  it('plans nothing for an unchanged content', () => {
    fc.assert(
      fc.property(remoteArb, (remote) => {
        const planned = plan(remote, structuredClone(remote));
        expect(planned.changes).toEqual([]);
        expect(planned.counts).toEqual({ inserted: 0, updated: 0, moved: 0, deleted: 0, files: 0 });
      }),
      { numRuns: 200 },
    );
  });

  it('plans one update_page for one edited page (a field, its slug, or its place)', () => {
    const oneEdit = fc.oneof(
      fieldEditArb,
      structureEditArb.filter((e) => e.op === 'slug' || e.op === 'move' || e.op === 'reorder'),
    );
    fc.assert(
      fc.property(scenarioArb(oneEdit, 1, draftArb, false), ({ remote, local }) => {
        const planned = plan(remote, local);
        const changed = JSON.stringify(remote) !== JSON.stringify(local);
        expect(planned.changes.length, JSON.stringify(planned.changes)).toBe(changed ? 1 : 0);
        if (changed) expect(planned.changes[0]!.operation).toBe('update_page');
      }),
      { numRuns: 400 },
    );
  });

  it('plans one insert_page for one new page and one delete_page for one deleted subtree', () => {
    const oneEdit = structureEditArb.filter((e) => e.op === 'insert' || e.op === 'delete');
    fc.assert(
      fc.property(scenarioArb(oneEdit, 1, draftArb, false), ({ remote, edits, local }) => {
        const planned = plan(remote, local);
        const changed = JSON.stringify(remote) !== JSON.stringify(local);
        expect(planned.changes.map((c) => c.operation)).toEqual(changed ? [edits[0]!.op === 'insert' ? 'insert_page' : 'delete_page'] : []);
      }),
      { numRuns: 300 },
    );
  });
});
