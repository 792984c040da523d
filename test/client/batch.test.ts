import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientError, createdRefs, planBatches, refDefinitions, refUses, rewriteRefs, type BatchLimits } from '../../src/client/index.js';
import type { ContentChange, InsertFileItem } from '../../src/model/index.js';

const page = (n: number, extra: Partial<Extract<ContentChange, { operation: 'insert_page' }>> = {}): ContentChange => ({
  operation: 'insert_page',
  title: `Page ${n}`,
  document: { markdown: `Body ${n}\n` },
  ...extra,
});
const file = (name: string, extra: Partial<InsertFileItem> = {}): InsertFileItem => ({
  name,
  contentType: 'image/png',
  base64: 'AAEC',
  ...extra,
});

/** The changes with each insert_files opened into its files, each tagged with the change it came from. */
type Atom = { index: number; atom: { file: InsertFileItem } | { change: ContentChange } };
function atoms(changes: readonly ContentChange[]): Atom[] {
  return changes.flatMap((change, index): Atom[] =>
    change.operation === 'insert_files' ? change.files.map((f) => ({ index, atom: { file: f } })) : [{ index, atom: { change } }],
  );
}

const refArb = fc.constantFrom('r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7');
const markdownArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('text ', '[x](../up.md) ', '[y](https://e.test/) '),
      refArb.map((r) => `[l](./${r}.md) `),
      refArb.map((r) => `![i](./${r}) `),
    ),
    { maxLength: 4 },
  )
  .map((parts) => parts.join(''));
const changeArb: fc.Arbitrary<ContentChange> = fc.oneof(
  fc.record({ ref: fc.option(refArb, { nil: undefined }), markdown: markdownArb }).map(({ ref, markdown }) => ({
    operation: 'insert_page' as const,
    document: { markdown },
    ...(ref !== undefined ? { ref } : {}),
  })),
  markdownArb.map((markdown) => ({ operation: 'update_page' as const, page: 'p1', document: { markdown } })),
  fc.constant({ operation: 'delete_page' as const, page: 'p2' }),
  fc.array(fc.record({ ref: fc.option(refArb, { nil: undefined }), size: fc.nat(300) }), { minLength: 1, maxLength: 45 }).map((files) => ({
    operation: 'insert_files' as const,
    files: files.map((f, i) => ({
      name: `f${i}.bin`,
      contentType: 'application/octet-stream',
      base64: 'A'.repeat(f.size),
      ...(f.ref !== undefined ? { ref: f.ref } : {}),
    })),
  })),
);
const limitsArb: fc.Arbitrary<Partial<BatchLimits>> = fc.record({
  maxChanges: fc.integer({ min: 1, max: 50 }),
  maxFiles: fc.integer({ min: 1, max: 20 }),
  maxBytes: fc.integer({ min: 2_000, max: 40_000 }),
});

describe('planBatches', () => {
  it('keeps every change in order, within every limit, and reports every ref it cuts off (property)', () => {
    fc.assert(
      fc.property(fc.array(changeArb, { maxLength: 160 }), limitsArb, (changes, limits) => {
        const { batches, splitRefs } = planBatches(changes, limits);
        const out = batches.flat();
        // Concatenation is the input, insert_files split only into consecutive runs of its own files.
        const inAtoms = atoms(changes);
        const outAtoms = atoms(out);
        expect(outAtoms.map((a) => a.atom)).toEqual(inAtoms.map((a) => a.atom));
        const origin = new Map<number, Set<number>>();
        outAtoms.forEach((a, i) => origin.set(a.index, (origin.get(a.index) ?? new Set()).add(inAtoms[i]!.index)));
        for (const sources of origin.values()) expect(sources.size).toBe(1);
        for (const batch of batches) {
          expect(batch.length).toBeGreaterThan(0);
          expect(batch.length).toBeLessThanOrEqual(limits.maxChanges!);
          expect(Buffer.byteLength(JSON.stringify({ changes: batch }))).toBeLessThanOrEqual(limits.maxBytes!);
          for (const c of batch) if (c.operation === 'insert_files') expect(c.files.length).toBeLessThanOrEqual(limits.maxFiles!);
        }
        // A ref whose definition and a use land in different batches is listed.
        const batchOf = batches.flatMap((b, i) => b.map(() => i));
        const defs = refDefinitions(out);
        out.forEach((change, i) => {
          for (const ref of refUses(change, defs)) {
            if (batchOf[defs.get(ref)!.index] !== batchOf[i]) expect(splitRefs).toContain(ref);
          }
        });
      }),
      { numRuns: 300 },
    );
  });

  it('cuts at the API limits: 50 changes, 20 files', () => {
    const { batches } = planBatches(Array.from({ length: 120 }, (_, i) => page(i)));
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    const files = planBatches([{ operation: 'insert_files', files: Array.from({ length: 45 }, (_, i) => file(`f${i}.png`)) }]);
    expect(files.batches).toHaveLength(1);
    expect(files.batches[0]!.map((c) => (c.operation === 'insert_files' ? c.files.length : 0))).toEqual([20, 20, 5]);
  });

  it('moves a cut back so a ref stays in the batch of its users', () => {
    const changes = Array.from({ length: 60 }, (_, i) => page(i));
    changes[45] = page(45, { ref: 'intro' });
    changes[55] = page(55, { document: { markdown: 'See [the intro](./intro.md).\n' } });
    const { batches, splitRefs } = planBatches(changes);
    expect(batches.map((b) => b.length)).toEqual([45, 15]);
    expect(splitRefs).toEqual([]);
    // A use before the definition ties them the same way.
    const before = Array.from({ length: 60 }, (_, i) => page(i));
    before[48] = page(48, { document: { markdown: '![logo](./logo)\n' } });
    before[52] = { operation: 'insert_files', files: [file('logo.png', { ref: 'logo' })] };
    expect(planBatches(before).batches.map((b) => b.length)).toEqual([48, 12]);
  });

  it('cuts a run of tied changes longer than a batch and names the refs cut', () => {
    const changes = Array.from({ length: 70 }, (_, i) =>
      page(i, { ref: `p${i}`, document: { markdown: i > 0 ? `[prev](./p${i - 1}.md)\n` : 'first\n' } }),
    );
    const { batches, splitRefs } = planBatches(changes);
    expect(batches.map((b) => b.length)).toEqual([50, 20]);
    expect(splitRefs).toEqual(['p49']);
  });

  it('splits files by bytes so a batch body stays under the budget', () => {
    const big = 'A'.repeat(1_000_000); // 750,000 bytes decoded each
    const changes: ContentChange[] = [
      { operation: 'insert_files', files: Array.from({ length: 20 }, (_, i) => file(`big${i}.bin`, { base64: big })) },
    ];
    const { batches } = planBatches(changes);
    const sizes = batches.map((b) => Buffer.byteLength(JSON.stringify({ changes: b })));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(batches.flat().flatMap((c) => (c.operation === 'insert_files' ? c.files : []))).toHaveLength(20);
    expect(batches.length).toBeGreaterThan(1);
  });

  it('refuses a base64 file over 1 MiB, naming it', () => {
    const huge = Buffer.alloc(1024 * 1024 + 1).toString('base64');
    const plan = () => planBatches([page(0), { operation: 'insert_files', files: [file('ok.png'), file('huge.bin', { base64: huge })] }]);
    expect(plan).toThrow(ClientError);
    expect(plan).toThrow(/changes\[1\]: file "huge.bin" is 1048577 bytes/);
    expect(() =>
      planBatches([{ operation: 'insert_files', files: [file('max.bin', { base64: Buffer.alloc(1024 * 1024).toString('base64') })] }]),
    ).not.toThrow();
  });

  it('refuses limits beyond the API', () => {
    expect(() => planBatches([], { maxChanges: 51 })).toThrow(/at most 50 changes/);
    expect(() => planBatches([], { maxFiles: 0 })).toThrow(/`maxFiles` must be a whole number/);
    expect(planBatches([]).batches).toEqual([]);
  });
});

describe('refs across batches', () => {
  it('finds uses in markdown and JSON documents, not ../ paths or unknown names', () => {
    const defs = refDefinitions([page(0, { ref: 'guide' }), { operation: 'insert_files', files: [file('a.png', { ref: 'img' })] }]);
    const uses = (markdown: string) => [...refUses({ operation: 'update_page', page: 'x', document: { markdown } }, defs)].sort();
    expect(uses('[a](./guide.md#top) ![b](./img "t") [c](../guide.md) [d](./other.md) [e](<./guide.md>)')).toEqual(['guide', 'img']);
    expect(uses('[ref]: ./guide.md\n')).toEqual(['guide']);
    const json: ContentChange = { operation: 'insert_page', document: { document: { object: 'document', nodes: [{ url: './img' }] } } };
    expect([...refUses(json, defs)]).toEqual(['img']);
  });

  it('rewrites uses to the ids the earlier batch created', () => {
    const first: ContentChange[] = [
      page(0, { ref: 'guide' }),
      { operation: 'insert_files', files: [file('a.png'), file('b.png', { ref: 'img' })] },
    ];
    const result = {
      changeRequest: {} as never,
      changes: [{ object: 'created_page' as const, ref: 'guide', page: { object: 'page' as const, id: 'PG1', urls: { location: 'x' } } }],
      insertedFiles: [
        { id: 'F1', name: 'a.png', contentType: 'image/png', downloadURL: 'u', size: 3 },
        { id: 'F2', name: 'b.png', contentType: 'image/png', downloadURL: 'u', size: 3 },
      ],
    };
    const created = createdRefs(first, result);
    expect([...created]).toEqual([
      ['guide', { kind: 'page', id: 'PG1' }],
      ['img', { kind: 'file', id: 'F2' }],
    ]);
    const later = rewriteRefs(
      { operation: 'update_page', page: 'z', document: { markdown: 'See [g](./guide.md#s), ![i](./img), [o](./other.md)\n' } },
      created,
    );
    expect(later).toEqual({
      operation: 'update_page',
      page: 'z',
      document: { markdown: 'See [g](/pages/PG1#s), ![i](/files/F2), [o](./other.md)\n' },
    });
  });
});
