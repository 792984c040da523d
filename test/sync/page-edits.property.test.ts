import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TreeChange } from '../../src/git/index.js';
import { pageEditSides } from '../../src/sync/push/page-edits.js';
import { planPush } from '../../src/sync/push/plan/plan.js';
import { readPushSides } from '../../src/sync/push/read.js';
import { writeFolder } from '../../src/workspace/index.js';
import { localOf, markdownArb, metaEditArb, remoteArbOf, type Edit } from './push-plan-harness.js';

const encoder = new TextEncoder();
const bytesOf = (files: Map<string, Uint8Array | string>) =>
  new Map([...files].map(([p, v]) => [p, typeof v === 'string' ? encoder.encode(v) : v]));
const same = (a: Uint8Array | undefined, b: Uint8Array | undefined) =>
  a !== undefined && b !== undefined && Buffer.from(a).equals(Buffer.from(b));

/** Edits that change pages' own files only: markdown and front matter fields. */
const pageFileEditArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('markdown' as const), pick: fc.nat(60), markdown: markdownArb }),
  metaEditArb
    .filter(({ key }) => key !== 'linkTitle')
    .chain(({ key, value }) =>
      fc.record({ op: fc.constant('meta' as const), pick: fc.nat(60), key: fc.constant(key), value: fc.constant(value) }),
    ),
);

describe('pageEditSides: a push of page-file edits read page by page', () => {
  it('plans exactly what the whole-folder read plans, or declines', () => {
    let planned = 0;
    fc.assert(
      fc.property(remoteArbOf(1, 25), fc.array(pageFileEditArb, { minLength: 1, maxLength: 4 }), (remote, edits) => {
        const local = localOf(remote, edits);
        const before = writeFolder(remote);
        const after = writeFolder(local);
        const base = bytesOf(before.files);
        const head = bytesOf(after.files);
        const changes: TreeChange[] = [];
        for (const path of new Set([...base.keys(), ...head.keys()])) {
          if (!base.has(path)) changes.push({ path, status: 'added', newOid: '' });
          else if (!head.has(path)) changes.push({ path, status: 'deleted', oldOid: '' });
          else if (!same(base.get(path), head.get(path))) changes.push({ path, status: 'modified', oldOid: '', newOid: '' });
        }
        const quick = pageEditSides(changes, base, head, before.index, { prefix: '', summary: 'SUMMARY.md' });
        const full = readPushSides(base, before.index, head, before.index);
        const fullPlan = planPush(full.remote, full.local, { pathOf: (id) => full.paths.get(id) ?? 'README.md' });
        if (quick === undefined) {
          // Declined only for what is not a page-file edit, or a file the full read has a problem with.
          const pageOnly =
            changes.length > 0 && changes.every((c) => c.status === 'modified' && c.path.endsWith('.md') && c.path !== 'SUMMARY.md');
          expect(pageOnly && full.skipped.length === 0 && changes.length > 0 ? 'declined a plain page edit' : 'ok').toBe('ok');
          return;
        }
        planned += 1;
        const quickPlan = planPush(quick.remote, quick.local, { pathOf: (id) => quick.paths.get(id) ?? 'README.md' });
        const sorted = (c: { changes: unknown[] }) => [...c.changes].map((x) => JSON.stringify(x)).sort();
        expect(sorted(quickPlan)).toEqual(sorted(fullPlan));
      }),
      { numRuns: 150 },
    );
    expect(planned).toBeGreaterThan(50);
  });

  it('declines anything but modified page files', () => {
    const remote = {
      pages: [{ type: 'document' as const, id: 'p1', title: 'Home', slug: 'home', markdown: 'hi\n', pages: [] }],
      files: [],
      variables: {},
      reusableContents: [],
      settings: {},
    };
    const { files, index } = writeFolder(remote);
    const base = bytesOf(files);
    expect(
      pageEditSides([{ path: 'SUMMARY.md', status: 'modified', oldOid: '', newOid: '' }], base, base, index, {
        prefix: '',
        summary: 'SUMMARY.md',
      }),
    ).toBeUndefined();
    expect(
      pageEditSides([{ path: 'new.md', status: 'added', newOid: '' }], base, base, index, { prefix: '', summary: 'SUMMARY.md' }),
    ).toBeUndefined();
    expect(pageEditSides([], base, base, index, { prefix: '', summary: 'SUMMARY.md' })).toBeUndefined();
    const marked = new Map(base);
    marked.set('README.md', encoder.encode('# Home\n\n<<<<<<< local\na\n=======\nb\n>>>>>>> remote\n'));
    expect(
      pageEditSides([{ path: 'README.md', status: 'modified', oldOid: '', newOid: '' }], base, marked, index, {
        prefix: '',
        summary: 'SUMMARY.md',
      }),
    ).toBeUndefined();
  });
});
