import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TreeChange } from '../../src/git/index.js';
import { pageEditSides, parsedItemLines, scanItemLines } from '../../src/sync/push/page-edits.js';
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

  it("finds a page's SUMMARY.md line by scanning as the whole parse finds it, or leaves it to the parse", () => {
    const key = fc.constantFrom('a.md', 'g/b.md', 'g/c.md', 'b.md', 'a b.md');
    const item = fc
      .tuple(
        fc.constantFrom('', '  ', '    ', '\t'),
        fc.constantFrom('*', '-', '+'),
        fc.constantFrom('A', 'B [x]', 'C \\] d'),
        key,
        fc.boolean(),
        fc.boolean(),
      )
      .map(
        ([indent, bullet, title, target, angle, linkTitle]) =>
          `${indent}${bullet} [${title}](${angle ? `<${target}>` : target}${linkTitle ? ' "t"' : ''})`,
      );
    const line = fc.oneof(
      { arbitrary: item, weight: 12 },
      { arbitrary: key.map((target) => `## [Group](${target})`), weight: 1 },
      { arbitrary: key.map((target) => `* [T](${target}#anchor)`), weight: 1 },
      { arbitrary: key.map((target) => `* [T](./${target})`), weight: 1 },
      { arbitrary: key.map((target) => `text (${target}) in a line`), weight: 1 },
      { arbitrary: fc.constantFrom('# Summary', '', '***', '* [Other](other.md)'), weight: 2 },
      // Rarely: what the scan leaves to the parse (a percent-encoded target, a fenced block holding an item line).
      { arbitrary: key.map((target) => `* [T](${target.replace('.', '%2E')})`), weight: 1 },
      { arbitrary: item.map((inside) => `* \`\`\`yaml\n  ${inside.trim()}\n  \`\`\``), weight: 1 },
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.array(fc.constantFrom('a.md', 'g/b.md', 'g/c.md', 'b.md'), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (lines, keys, crlf) => {
          const text = lines.join(crlf ? '\r\n' : '\n');
          const scanned = scanItemLines(text, keys);
          const parsed = parsedItemLines(text, keys);
          const trimmed = (found: Map<string, string> | undefined) => found && new Map([...found].map(([k, v]) => [k, v.trim()]));
          if (scanned !== undefined) expect(trimmed(scanned)).toEqual(trimmed(parsed));
        },
      ),
      { numRuns: 500 },
    );
    // The scan answers the plain case itself.
    expect(scanItemLines('# Summary\n\n* [A](a.md)\n  * [B](g/b.md)\n', ['g/b.md'])).toEqual(new Map([['g/b.md', '  * [B](g/b.md)']]));
  });
});
