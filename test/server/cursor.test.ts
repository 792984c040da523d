import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DocsyncError } from '../../src/model/index.js';
import { collectPage, decodeCursor, encodeCursor, pageRequest, type PageResult, type SortKey } from '../../src/server/util/cursor.js';

interface Row {
  k: number;
  id: string;
  visible: boolean;
}

const compare = (a: SortKey, b: SortKey): number => {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
};
const keyOf = (row: Row): SortKey => [row.k, row.id];

/** A table kept in key order, with the keyset query every store function runs. */
class Table {
  rows: Row[] = [];
  fetches = 0;
  constructor(rows: Row[]) {
    for (const row of rows) this.insert(row);
  }
  insert(row: Row): void {
    if (this.rows.some((r) => r.id === row.id)) return;
    this.rows.push(row);
    this.rows.sort((a, b) => compare(keyOf(a), keyOf(b)));
  }
  remove(id: string): void {
    this.rows = this.rows.filter((r) => r.id !== id);
  }
  fetch = async (after: SortKey | undefined, n: number): Promise<Row[]> => {
    this.fetches += 1;
    const start = after === undefined ? 0 : this.rows.findIndex((r) => compare(keyOf(r), after) > 0);
    return start === -1 ? [] : this.rows.slice(start, start + n);
  };
}

function page(table: Table, limit: number, cursor?: string): Promise<PageResult<string>> {
  return collectPage({
    request: pageRequest({ limit, ...(cursor !== undefined ? { page: cursor } : {}) }, 100, 'number'),
    fetch: table.fetch,
    key: keyOf,
    accept: (row) => (row.visible ? row.id : undefined),
  });
}

async function walk(table: Table, limit: number, between?: (pageIndex: number) => void): Promise<PageResult<string>[]> {
  const pages: PageResult<string>[] = [];
  let cursor: string | undefined;
  do {
    const result = await page(table, limit, cursor);
    pages.push(result);
    cursor = result.next?.page;
    between?.(pages.length);
    if (pages.length > 10_000) throw new Error('paging does not end');
  } while (cursor !== undefined);
  return pages;
}

const rows = (spec: [number, boolean][]): Row[] => spec.map(([k, visible], i) => ({ k, id: `r${i}`, visible }));

describe('collectPage', () => {
  it('answers one page with every row when they fit', async () => {
    const table = new Table(
      rows([
        [1, true],
        [2, true],
        [3, true],
      ]),
    );
    expect(await page(table, 3)).toEqual({ items: ['r0', 'r1', 'r2'], count: 3 });
    expect(await page(table, 10)).toEqual({ items: ['r0', 'r1', 'r2'], count: 3 });
  });

  it('with limit 1 gives one row per page and no empty last page', async () => {
    const table = new Table(
      rows([
        [1, true],
        [2, true],
        [3, true],
      ]),
    );
    const pages = await walk(table, 1);
    expect(pages.map((p) => p.items)).toEqual([['r0'], ['r1'], ['r2']]);
    expect(pages.map((p) => p.count)).toEqual([1, 1, 1]);
    expect(pages[2]!.next).toBeUndefined();
  });

  it('skips hidden rows without short pages or a `next` that leads nowhere', async () => {
    // Hidden runs longer than a fetch batch, at the start, the middle and the end.
    const spec: [number, boolean][] = [];
    for (let i = 0; i < 40; i += 1) spec.push([i, (i >= 5 && i < 8) || i === 20 || i === 21 || i === 30]);
    const table = new Table(rows(spec));
    const pages = await walk(table, 2);
    expect(pages.map((p) => p.items)).toEqual([
      ['r5', 'r6'],
      ['r7', 'r20'],
      ['r21', 'r30'],
    ]);
    expect(pages[2]!.next).toBeUndefined();
  });

  it('gives an empty list without `next` when every row is hidden', async () => {
    const table = new Table(
      rows([
        [1, false],
        [2, false],
        [3, false],
        [4, false],
      ]),
    );
    expect(await page(table, 1)).toEqual({ items: [], count: 0 });
    expect(await page(new Table([]), 5)).toEqual({ items: [], count: 0 });
  });

  it('orders rows with the same sort value by id', async () => {
    const table = new Table([
      { k: 1, id: 'b', visible: true },
      { k: 1, id: 'a', visible: true },
      { k: 1, id: 'c', visible: true },
    ]);
    const pages = await walk(table, 1);
    expect(pages.flatMap((p) => p.items)).toEqual(['a', 'b', 'c']);
  });

  it('survives the removal of the row its cursor points at', async () => {
    const table = new Table(
      rows([
        [1, true],
        [2, true],
        [3, true],
        [4, true],
      ]),
    );
    const first = await page(table, 2);
    table.remove('r1');
    const second = await page(table, 2, first.next!.page);
    expect(second.items).toEqual(['r2', 'r3']);
  });

  it('walking every page yields each row present throughout exactly once, whatever changes between pages', async () => {
    const row = fc.record({ k: fc.integer({ min: 0, max: 30 }), visible: fc.boolean() });
    const change = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), k: fc.integer({ min: -5, max: 35 }), visible: fc.boolean() }),
      fc.record({ kind: fc.constant('remove' as const), index: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(row, { maxLength: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.array(change, { maxLength: 4 }), { maxLength: 12 }),
        async (initial, limit, changes) => {
          const table = new Table(initial.map((r, i) => ({ ...r, id: `r${String(i).padStart(3, '0')}` })));
          const removed = new Set<string>();
          const everVisible = new Set(table.rows.filter((r) => r.visible).map((r) => r.id));
          let added = 0;
          const pages = await walk(table, limit, (index) => {
            for (const c of changes[index - 1] ?? []) {
              if (c.kind === 'insert') {
                const id = `n${String((added += 1)).padStart(3, '0')}`;
                table.insert({ id, k: c.k, visible: c.visible });
                if (c.visible) everVisible.add(id);
              } else if (table.rows.length > 0) {
                const victim = table.rows[c.index % table.rows.length]!;
                removed.add(victim.id);
                table.remove(victim.id);
              }
            }
          });
          const seen = pages.flatMap((p) => p.items);
          // Never a duplicate, never a hidden row, never more than asked for.
          expect(new Set(seen).size).toBe(seen.length);
          for (const id of seen) expect(everVisible.has(id)).toBe(true);
          for (const p of pages) {
            expect(p.items.length).toBeLessThanOrEqual(limit);
            expect(p.count).toBe(p.items.length);
          }
          // Every visible row that was there from the start to the end was listed.
          for (const r of initial.map((x, i) => ({ ...x, id: `r${String(i).padStart(3, '0')}` }))) {
            if (r.visible && !removed.has(r.id)) expect(seen).toContain(r.id);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('without changes, every page but the last is full and the last one has no `next`', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ k: fc.integer({ min: 0, max: 9 }), visible: fc.boolean() }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        async (spec, limit) => {
          const table = new Table(spec.map((r, i) => ({ ...r, id: `r${String(i).padStart(3, '0')}` })));
          const pages = await walk(table, limit);
          const visible = table.rows.filter((r) => r.visible).map((r) => r.id);
          expect(pages.flatMap((p) => p.items)).toEqual(visible);
          expect(pages).toHaveLength(Math.max(1, Math.ceil(visible.length / limit)));
          for (const p of pages.slice(0, -1)) expect(p.items).toHaveLength(limit);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('cursors', () => {
  const invalid = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(DocsyncError);
      expect((error as DocsyncError).code).toBe('invalid_request');
      return;
    }
    throw new Error('expected a DocsyncError');
  };

  it('round-trip a sort key through an opaque URL-safe string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true })), fc.string({ minLength: 1 }), (k, id) => {
        fc.pre(!k.toString().includes('\u0000') && !id.includes('\u0000'));
        const cursor = encodeCursor([k, id]);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(decodeCursor(cursor, typeof k === 'number' ? 'number' : 'string')).toEqual([Object.is(k, -0) ? 0 : k, id]);
      }),
    );
  });

  it('reject anything this server did not issue with invalid_request', () => {
    invalid(() => decodeCursor('not a cursor'));
    invalid(() => decodeCursor(''));
    invalid(() => decodeCursor(Buffer.from('{"a":1}').toString('base64url')));
    invalid(() => decodeCursor(Buffer.from('["x"]').toString('base64url')));
    invalid(() => decodeCursor(Buffer.from('["x", 1]').toString('base64url')));
    invalid(() => decodeCursor(Buffer.from('[null, "x"]').toString('base64url')));
    invalid(() => decodeCursor(Buffer.from('["x", "y", "z"]').toString('base64url')));
    fc.assert(
      fc.property(fc.string(), (page) => {
        try {
          decodeCursor(page);
        } catch (error) {
          expect((error as DocsyncError).code).toBe('invalid_request');
        }
      }),
    );
  });

  it('reject a key of the wrong kind for the list, which the database could not compare', () => {
    invalid(() => decodeCursor(encodeCursor(['2024-01-01T00:00:00.000Z', 'a']), 'number'));
    invalid(() => decodeCursor(encodeCursor([1.5, 'a']), 'string'));
    invalid(() => pageRequest({ page: encodeCursor(['x', 'a']) }, 10, 'number'));
    expect(pageRequest({ page: encodeCursor([1.5, 'a']) }, 10, 'number').after).toEqual([1.5, 'a']);
  });

  it('reject text PostgreSQL cannot hold and numbers out of range', () => {
    invalid(() => decodeCursor(encodeCursor(['a\u0000b', 'id'])));
    invalid(() => decodeCursor(encodeCursor(['a', 'i\u0000d'])));
    invalid(() => decodeCursor(Buffer.from('[1e400, "a"]').toString('base64url'), 'number'));
  });

  it('take the default limit when none is asked for', () => {
    expect(pageRequest({}, 100)).toEqual({ limit: 100, after: undefined });
    expect(pageRequest({ limit: 5 }, 100).limit).toBe(5);
  });
});
