import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SQLITE_FILE, openDatabase, type Db } from '../../src/server/store/db.js';
import type { Database } from '../../src/server/store/schema.js';
import { forgetCachedTrees, loadTree, saveTree } from '../../src/server/store/trees.js';
import { indexPages, pagePaths, updatePage } from '../../src/content/index.js';
import type { ContentTree, TreePage } from '../../src/model/index.js';
import { applyEdits, editArb, treeArb } from '../content/tree-arbitraries.js';

// Loading a tree reads only the nodes no tree in memory has, and saving one checks what is
// stored by the roots that reach its reused nodes. These pin that both give what a full read
// and a full write would.

function wideTree(width: number): ContentTree {
  const pages: TreePage[] = [];
  for (let i = 0; i < width; i += 1) {
    const children: TreePage[] = [];
    for (let j = 0; j < width; j += 1)
      children.push({
        id: `w${i}-${j}`,
        type: 'document',
        title: `Page ${i}.${j}`,
        slug: `page-${j}`,
        document: `doc-${i}-${j}`,
        pages: [],
      });
    pages.push({ id: `w${i}`, type: 'document', title: `Section ${i}`, slug: `section-${i}`, pages: children });
  }
  return { pages, files: [], variables: { product: 'docsync' }, reusableContents: [] };
}

const placesOf = (pages: TreePage[]) => [...indexPages(pages)].map(([id, p]) => [id, p.parentId, p.index, p.depth]);

describe('partial tree loads and saves', () => {
  let dir: string;
  let db: Db;
  let blobReads = 0;
  let logged: Kysely<Database>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docsync-trees-partial-'));
    db = await openDatabase({ dataDir: dir });
    // A second connection to the same file that counts the blobs each query asks for.
    logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: new BetterSqlite3(join(dir, SQLITE_FILE)) }),
      log: (event) => {
        if (/from "blobs"/.test(event.query.sql)) blobReads += event.query.parameters.length;
      },
    });
  });
  afterAll(async () => {
    await logged.destroy();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a tree loaded next to one it shares nodes with equals the tree read in full, index and paths included', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, fc.array(editArb, { minLength: 1, maxLength: 6 }), async (tree, edits) => {
        const edited = applyEdits(tree, edits);
        const before = await saveTree(db.kysely, tree);
        const after = await saveTree(db.kysely, edited);
        forgetCachedTrees();
        const full = await loadTree(db.kysely, after);
        forgetCachedTrees();
        const older = await loadTree(db.kysely, before);
        indexPages(older.pages);
        const partial = await loadTree(db.kysely, after);
        expect(partial).toEqual(full);
        expect(partial).toEqual(edited);
        expect(placesOf(partial.pages)).toEqual(placesOf(structuredClone(full.pages)));
        expect([...pagePaths(partial.pages)]).toEqual([...pagePaths(structuredClone(full.pages))]);
      }),
      { numRuns: 40 },
    );
  });

  it("reads only the root and the nodes on the edited page's path when the tree before the edit is in memory", async () => {
    const tree = wideTree(30); // 930 pages
    const before = await saveTree(db.kysely, tree);
    const edited = { ...tree, pages: updatePage(tree.pages, 'w7-12', (p) => ({ ...p, document: 'changed' }))! };
    const after = await saveTree(db.kysely, edited);
    forgetCachedTrees();
    await loadTree(logged, before);
    blobReads = 0;
    const loaded = await loadTree(logged, after);
    expect(blobReads).toBe(3);
    expect(loaded).toEqual(edited);
  });

  it('rewrites nodes written in a transaction that rolled back, though the objects were marked stored then', async () => {
    const tree = wideTree(4);
    await saveTree(db.kysely, tree);
    const edited = { ...tree, pages: updatePage(tree.pages, 'w1-2', (p) => ({ ...p, title: 'Rolled back' }))! };
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await saveTree(trx, edited);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // The rolled-back page object stays in the next tree; only its sibling changes.
    const next = { ...edited, pages: updatePage(edited.pages, 'w1-3', (p) => ({ ...p, title: 'Kept' }))! };
    const sha = await saveTree(db.kysely, next);
    forgetCachedTrees();
    expect(await loadTree(db.kysely, sha)).toEqual(next);
  });
});
