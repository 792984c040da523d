import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase, type Db } from '../../src/server/store/db.js';
import { canonicalJson, forgetCachedTrees, loadTree, saveTree } from '../../src/server/store/trees.js';
import { MAX_DELTA_DEPTH } from '../../src/server/store/tree-deltas.js';
import { indexPages, updatePage } from '../../src/content/index.js';
import type { ContentTree, TreePage } from '../../src/model/index.js';
import { applyEdits, editArb, treeArb } from '../content/tree-arbitraries.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';

// A page edit stores the page, not its path to the root: a tree of the same shape as the tree it
// was made from is stored as the pages it changed (issue 23). These pin that such trees read back
// as written, cold or warm, across chains longer than the longest delta, and that an edit through
// the API stores within twice the page's own bytes whatever the space's size.

function wideTree(sections: number, perSection: number): ContentTree {
  const pages: TreePage[] = [];
  for (let i = 0; i < sections; i += 1) {
    const children: TreePage[] = [];
    for (let j = 0; j < perSection; j += 1)
      children.push({
        id: `d${i}-${j}`,
        type: 'document',
        title: `Page ${i}.${j}`,
        slug: `page-${j}`,
        document: `doc-${i}-${j}`,
        pages: [],
      });
    pages.push({ id: `d${i}`, type: 'document', title: `Section ${i}`, slug: `section-${i}`, pages: children });
  }
  return { pages, files: [], variables: { product: 'docsync' }, reusableContents: [] };
}

const storedBytes = async (db: Db['kysely']) =>
  Number(
    (
      await db
        .selectFrom('blobs')
        .select((eb) => eb.fn.sum<number>('size').as('n'))
        .executeTakeFirstOrThrow()
    ).n ?? 0,
  );

describe('tree deltas', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'docsync-tree-deltas-'));
    db = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('any edit saved against the tree it was made from reads back as written, warm and cold', async () => {
    await fc.assert(
      fc.asyncProperty(
        treeArb,
        fc.array(fc.array(editArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 5 }),
        async (tree, steps) => {
          let sha = await saveTree(db.kysely, tree);
          let current = tree;
          const written: [string, ContentTree][] = [];
          for (const edits of steps) {
            current = applyEdits(current, edits);
            sha = await saveTree(db.kysely, current, sha);
            written.push([sha, current]);
            expect(await loadTree(db.kysely, sha)).toBe(current);
          }
          forgetCachedTrees();
          for (const [s, t] of written.reverse()) expect(await loadTree(db.kysely, s)).toEqual(t);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a one-page edit of a 2,500-page tree stores the page and a root of two shas, and chains past the longest delta', async () => {
    const tree = wideTree(50, 50);
    let sha = await saveTree(db.kysely, tree);
    let current = tree;
    const shas: [string, ContentTree][] = [];
    for (let i = 0; i < MAX_DELTA_DEPTH + 3; i += 1) {
      const id = `d${i % 7}-${i % 11}`;
      current = { ...current, pages: updatePage(current.pages, id, (p) => ({ ...p, document: `edit-${i}` }))! };
      const before = await storedBytes(db.kysely);
      sha = await saveTree(db.kysely, current, sha);
      const added = (await storedBytes(db.kysely)) - before;
      const page = indexPages(current.pages).get(id)!.page;
      const { pages: _pages, ...fields } = page;
      // Every MAX_DELTA_DEPTH-th tree is written as nodes again; the others hold the page.
      if ((i + 1) % MAX_DELTA_DEPTH !== 0) expect(added).toBeLessThan(2 * canonicalJson(fields).length + 200);
      shas.push([sha, current]);
    }
    forgetCachedTrees();
    for (const [s, t] of shas.reverse()) expect(await loadTree(db.kysely, s)).toEqual(t);
  }, 120_000);

  it('a tree whose shape changed is stored as nodes', async () => {
    const tree = wideTree(3, 3);
    const sha = await saveTree(db.kysely, tree);
    const moved = { ...tree, pages: [tree.pages[1]!, tree.pages[0]!, tree.pages[2]!] };
    const next = await saveTree(db.kysely, moved, sha);
    const root = await db.kysely.selectFrom('blobs').select('data').where('sha256', '=', next).executeTakeFirstOrThrow();
    expect(JSON.parse(Buffer.from(root.data).toString('utf8')).format).toBe('nodes-1');
  });
});

describe.each(testDialects())('bytes stored per one-page edit through the API (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  }, 120_000);
  afterAll(async () => {
    await s.close();
  });

  async function call(method: string, path: string, body?: unknown) {
    const res = await s.request(method, path, body === undefined ? {} : { body });
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  it('a 1,000-page space stores within twice the page: its fields and its markdown', async () => {
    const space = await call('POST', `/v1/orgs/${s.orgId}/spaces`, { title: 'Deltas', empty: true });
    const build = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'build' });
    const write = (cr: string, changes: unknown[]) =>
      call('POST', `/v1/spaces/${space.id}/change-requests/${cr}/content?compat=false`, { changes });
    for (let n = 0; n < 20; n += 1) {
      const created = await write(build.id, [
        { operation: 'insert_page', title: `Section ${n}`, document: { markdown: `Section ${n}.\n` } },
      ]);
      const children = Array.from({ length: 49 }, (_, i) => ({
        operation: 'insert_page',
        into: created.changes[0].page.id,
        title: `Page ${n}.${i}`,
        document: { markdown: `Some text for page ${n}.${i}.\n` },
      }));
      await write(build.id, children);
    }
    await call('POST', `/v1/spaces/${space.id}/change-requests/${build.id}/merge`);
    const listing = await call('GET', `/v1/spaces/${space.id}/content/pages`);
    const pageId = listing.pages[10].pages[20].id as string;
    const cr = await call('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'edits' });
    const kysely = s.server.db.kysely;
    for (let i = 0; i < 5; i += 1) {
      const markdown = `# Page 10.20\n\nEdited ${i}: ${'word '.repeat(20)}\n`;
      const before = await storedBytes(kysely);
      await write(cr.id, [{ operation: 'update_page', page: pageId, document: { markdown } }]);
      const added = (await storedBytes(kysely)) - before;
      const page = await call('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`);
      expect(page.markdown).toContain(`Edited ${i}`);
      // The page's own bytes: its markdown and its fields as stored (title, slug, id, times, document sha).
      const own = Buffer.byteLength(markdown) + 300;
      expect(added).toBeLessThan(2 * own);
    }
    forgetCachedTrees();
    const cold = await call('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/page/${pageId}?format=markdown`);
    expect(cold.markdown).toContain('Edited 4');
    const pages = await call('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
    expect(pages.pages).toHaveLength(20);
  }, 180_000);
});
