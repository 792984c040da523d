import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { placeAmong, placementOf, type Pointer, type Sibling } from '../../src/server/store/positions.js';

const s = (id: string, position: number): Sibling => ({ type: 'space', id, position });
const c = (id: string, position: number): Sibling => ({ type: 'collection', id, position });
const ids = (order: Pointer[] | string) => {
  if (typeof order === 'string') throw new Error(`expected an order, got: ${order}`);
  return order.map((p) => `${p.type[0]}:${p.id}`);
};

// Three siblings of both kinds, in order: space a, collection b, space c.
const others = [s('a', 1), c('b', 2), s('c', 3)];
const item: Pointer = { type: 'collection', id: 'x' };

describe('placeAmong', () => {
  it('appends the item when no position is given', () => {
    expect(ids(placeAmong(others, item, undefined))).toEqual(['s:a', 'c:b', 's:c', 'c:x']);
    expect(ids(placeAmong(others, item, {}))).toEqual(['s:a', 'c:b', 's:c', 'c:x']);
    expect(ids(placeAmong([], item, undefined))).toEqual(['c:x']);
  });

  it('places the item right before `before`', () => {
    expect(ids(placeAmong(others, item, { before: { type: 'space', id: 'a' } }))).toEqual(['c:x', 's:a', 'c:b', 's:c']);
    expect(ids(placeAmong(others, item, { before: { type: 'collection', id: 'b' } }))).toEqual(['s:a', 'c:x', 'c:b', 's:c']);
  });

  it('places the item right after `after`', () => {
    expect(ids(placeAmong(others, item, { after: { type: 'collection', id: 'b' } }))).toEqual(['s:a', 'c:b', 'c:x', 's:c']);
    expect(ids(placeAmong(others, item, { after: { type: 'space', id: 'c' } }))).toEqual(['s:a', 'c:b', 's:c', 'c:x']);
  });

  it('places the item between two neighbours given as `after` and `before`', () => {
    const order = placeAmong(others, item, { after: { type: 'space', id: 'a' }, before: { type: 'collection', id: 'b' } });
    expect(ids(order)).toEqual(['s:a', 'c:x', 'c:b', 's:c']);
  });

  it('refuses `after` and `before` that are not neighbours, in either direction', () => {
    expect(placeAmong(others, item, { after: { type: 'space', id: 'a' }, before: { type: 'space', id: 'c' } })).toMatch(
      /body\.position\.after and body\.position\.before are not neighbours/,
    );
    expect(placeAmong(others, item, { after: { type: 'collection', id: 'b' }, before: { type: 'space', id: 'a' } })).toMatch(
      /not neighbours/,
    );
  });

  it('refuses a pointer at the item itself', () => {
    expect(placeAmong(others, item, { before: { type: 'collection', id: 'x' } })).toMatch(/body\.position\.before points at the item/);
    expect(placeAmong(others, item, { after: { type: 'collection', id: 'x' } })).toMatch(/body\.position\.after points at the item/);
  });

  it('refuses a pointer that is not among the siblings, including one with the right id but the wrong type', () => {
    expect(placeAmong(others, item, { before: { type: 'space', id: 'zz' } })).toMatch(
      /body\.position\.before: space zz is not in the target parent/,
    );
    expect(placeAmong(others, item, { after: { type: 'space', id: 'b' } })).toMatch(
      /body\.position\.after: space b is not in the target parent/,
    );
  });

  it('does not change the siblings it was given', () => {
    const copy = structuredClone(others);
    placeAmong(others, item, { before: { type: 'space', id: 'a' } });
    expect(others).toEqual(copy);
  });

  it('keeps every sibling exactly once, in its order, plus the item, wherever it is placed', () => {
    const siblingsArb = fc
      .uniqueArray(fc.record({ type: fc.constantFrom('space' as const, 'collection' as const), id: fc.stringMatching(/^[a-e]{1,2}$/) }), {
        selector: (p) => `${p.type}:${p.id}`,
        maxLength: 8,
      })
      .map((list) => list.map((p, i) => ({ ...p, position: i + 1 })));
    const pointerArb = (list: Sibling[]) =>
      fc.option(
        fc.oneof(
          // Usually a real sibling; sometimes anything at all, the item itself included.
          ...(list.length > 0 ? [fc.constantFrom(...list.map(({ type, id }) => ({ type, id })))] : []),
          fc.record({ type: fc.constantFrom('space' as const, 'collection' as const), id: fc.constantFrom('x', 'zz', 'a') }),
        ),
        { nil: undefined },
      );
    fc.assert(
      fc.property(
        siblingsArb.chain((list) => fc.tuple(fc.constant(list), pointerArb(list), pointerArb(list))),
        ([list, before, after]) => {
          const moving: Pointer = { type: 'space', id: 'x' };
          const placement = { ...(before ? { before } : {}), ...(after ? { after } : {}) };
          const order = placeAmong(list, moving, placement);
          if (typeof order === 'string') {
            expect(order).toMatch(/^body\.position\./);
            return;
          }
          const keys = order.map((p) => `${p.type}:${p.id}`);
          expect(keys).toHaveLength(list.length + 1);
          expect(new Set(keys).size).toBe(keys.length);
          expect(keys.filter((k) => k !== 'space:x')).toEqual(list.map((p) => `${p.type}:${p.id}`));
          const at = keys.indexOf('space:x');
          expect(at).toBeGreaterThanOrEqual(0);
          if (before) expect(keys[at + 1]).toBe(`${before.type}:${before.id}`);
          if (after) expect(keys[at - 1]).toBe(`${after.type}:${after.id}`);
          if (!before && !after) expect(at).toBe(list.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('placementOf', () => {
  it('turns the API pointers into typed pointers', () => {
    expect(placementOf(undefined)).toBeUndefined();
    expect(placementOf({ before: { type: 'space', space: 's1' }, after: { type: 'collection', collection: 'c1' } })).toEqual({
      before: { type: 'space', id: 's1' },
      after: { type: 'collection', id: 'c1' },
    });
    expect(placementOf({})).toEqual({});
  });
});
