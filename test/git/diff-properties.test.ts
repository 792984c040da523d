import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commitFiles, diffTrees, readTreeFiles } from '../../src/git/index.js';
import { author, tempRepo } from './helpers.js';
import { cliCommit, cliNameStatus } from './history-script.js';

/** The blob oid git gives `bytes`: computed here independently of the code under test. */
const blobOid = (bytes: Uint8Array) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

const segment = fc.constantFrom('a', 'b', 'docs', 'é', '日本', 'x y');
const fileName = fc.constantFrom('README.md', 'page.md', 'a.md', 'ü.md', 'b');
const path = fc.tuple(fc.array(segment, { maxLength: 3 }), fileName).map(([dirs, name]) => [...dirs, name].join('/'));
// Few distinct lines, so that edited and moved files often stay similar enough to be renames.
const line = fc.constantFrom(
  'alpha\n',
  'beta\n',
  'gamma\n',
  'delta\n',
  '# Title\n',
  '\n',
  'a much longer line of prose that goes on\n',
  'no newline',
);
const content = fc.array(line, { maxLength: 12 }).map((ls) => ls.join(''));

/** A file map with no path that is also a folder of another path. */
const fileMap = fc.dictionary(path, content, { maxKeys: 12 }).map((entries) => {
  const paths = Object.keys(entries);
  return new Map(Object.entries(entries).filter(([p]) => !paths.some((other) => other.startsWith(`${p}/`))));
});

/** B derived from A by edits, deletes, moves and additions, like a real commit. */
const pairOfMaps = fileMap.chain((a) =>
  fc
    .record({
      ops: fc.array(fc.tuple(fc.constantFrom('keep', 'edit', 'delete', 'move'), path, content), { minLength: a.size, maxLength: a.size }),
      extra: fileMap,
    })
    .map(({ ops, extra }) => {
      const b = new Map<string, string>();
      [...a].forEach(([p, text], i) => {
        const [op, to, more] = ops[i]!;
        if (op === 'keep') b.set(p, text);
        if (op === 'edit') b.set(p, text + more);
        if (op === 'move') b.set(to, text);
      });
      for (const [p, text] of extra) if (!b.has(p)) b.set(p, text);
      const paths = [...b.keys()];
      for (const p of paths) if (paths.some((other) => other.startsWith(`${p}/`))) b.delete(p);
      return [a, b] as const;
    }),
);

// Each run makes real commits (the second with the git CLI): few runs, generous time limits, since
// these machines also run other suites at once. A 400-run local check found no disagreement.
describe('diffTrees properties', () => {
  it('applying diffTrees(A → B) to A yields B', async () => {
    const dir = await tempRepo();
    await fc.assert(
      fc.asyncProperty(pairOfMaps, async ([a, b]) => {
        const from = await commitFiles(dir, { branch: 'main', files: a, message: 'a', author });
        const to = await commitFiles(dir, { branch: 'main', files: b, message: 'b', author });
        const contentByOid = new Map([...b.values()].map((text) => [blobOid(Buffer.from(text)), text]));
        const result = new Map(a);
        for (const change of await diffTrees(dir, from, to)) {
          if (change.status !== 'added')
            expect(blobOid(Buffer.from(result.get(change.status === 'renamed' ? change.from : change.path)!))).toBe(change.oldOid);
          if (change.status === 'deleted' || change.status === 'renamed')
            result.delete(change.status === 'renamed' ? change.from : change.path);
          if (change.status !== 'deleted') result.set(change.path, contentByOid.get(change.newOid)!);
        }
        expect(Object.fromEntries([...result].sort())).toEqual(Object.fromEntries([...b].sort()));
        expect(await readTreeFiles(dir, to)).toEqual(new Map([...b].map(([p, t]) => [p, new Uint8Array(Buffer.from(t))])));
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('matches git diff --name-status -M50% on random histories', async () => {
    const dir = await tempRepo();
    const toStatus = (c: Awaited<ReturnType<typeof diffTrees>>[number]) =>
      c.status === 'renamed' ? `R${String(c.similarity).padStart(3, '0')}\t${c.from}\t${c.to}` : `${c.status[0]!.toUpperCase()}\t${c.path}`;
    await fc.assert(
      fc.asyncProperty(pairOfMaps, async ([a, b]) => {
        const from = await cliCommit(dir, Object.fromEntries(a), 'a');
        const to = await cliCommit(dir, Object.fromEntries(b), 'b');
        const ours = (await diffTrees(dir, from, to)).map(toStatus).sort();
        expect(ours).toEqual(await cliNameStatus(dir, from, to));
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});
