import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase, type Db } from '../../src/server/store/db.js';
import { forgetCachedTrees, loadTree, saveTree } from '../../src/server/store/trees.js';
import { putBlob } from '../../src/server/store/blobs.js';
import { updatePage } from '../../src/content/tree/page-tree.js';
import type { ContentTree, TreePage } from '../../src/model/index.js';
import { treeArb } from '../content/tree-arbitraries.js';

const countBlobs = async (db: Db) =>
  Number(
    (
      await db.kysely
        .selectFrom('blobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** `width` top-level pages with `width` children each. */
function wideTree(width: number): ContentTree {
  const pages: TreePage[] = [];
  for (let i = 0; i < width; i += 1) {
    const children: TreePage[] = [];
    for (let j = 0; j < width; j += 1)
      children.push({
        id: `p${i}-${j}`,
        type: 'document',
        title: `Page ${i}.${j}`,
        slug: `page-${j}`,
        document: `doc-${i}-${j}`,
        pages: [],
      });
    pages.push({ id: `p${i}`, type: 'document', title: `Section ${i}`, slug: `section-${i}`, pages: children });
  }
  return { pages, files: [], variables: { product: 'docsync' }, reusableContents: [] };
}

describe('tree storage', () => {
  let dirA: string;
  let dirB: string;
  let a: Db;
  let b: Db;
  beforeAll(async () => {
    dirA = mkdtempSync(join(tmpdir(), 'docsync-trees-'));
    dirB = mkdtempSync(join(tmpdir(), 'docsync-trees-'));
    a = await openDatabase({ dataDir: dirA });
    b = await openDatabase({ dataDir: dirB });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    rmSync(dirA, { recursive: true, force: true });
    rmSync(dirB, { recursive: true, force: true });
  });

  it('reads back every tree it stores', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, async (tree) => {
        const sha = await saveTree(a.kysely, tree);
        forgetCachedTrees();
        expect(await loadTree(a.kysely, sha)).toEqual(tree);
      }),
      { numRuns: 40 },
    );
  });

  it('stores equal trees once', async () => {
    expect(await saveTree(a.kysely, wideTree(3))).toBe(await saveTree(a.kysely, wideTree(3)));
  });

  it('a one-page edit stores the page, its ancestors and the root, not the whole tree', async () => {
    const tree = wideTree(30); // 930 pages
    const sha = await saveTree(a.kysely, tree);
    forgetCachedTrees();
    const loaded = await loadTree(a.kysely, sha);
    const before = await countBlobs(a);
    const edited = { ...loaded, pages: updatePage(loaded.pages, 'p7-12', (p) => ({ ...p, document: 'changed' }))! };
    const next = await saveTree(a.kysely, edited);
    // The edited page, its parent and the root blob.
    expect((await countBlobs(a)) - before).toBe(3);
    forgetCachedTrees();
    expect(await loadTree(a.kysely, next)).toEqual(edited);
  });

  it('writes all nodes into a second database even when the objects are known from the first', async () => {
    const tree = wideTree(4);
    await saveTree(a.kysely, tree);
    const sha = await saveTree(b.kysely, tree);
    forgetCachedTrees();
    expect(await loadTree(b.kysely, sha)).toEqual(tree);
  });

  it('reads trees stored as one JSON document before node blobs existed', async () => {
    const legacy = wideTree(2);
    const sha = await putBlob(a.kysely, JSON.stringify(legacy));
    forgetCachedTrees();
    expect(await loadTree(a.kysely, sha)).toEqual(legacy);
  });

  it('names a missing tree instead of returning something', async () => {
    await expect(loadTree(a.kysely, 'f'.repeat(64))).rejects.toThrow(/missing/);
  });
});
