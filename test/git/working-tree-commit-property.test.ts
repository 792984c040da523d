import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { writeReplacing } from './write-replacing.js';
import { describe, expect, it } from 'vitest';
import { commitFiles, commitWorkingTree, workingTreeChanges } from '../../src/git/index.js';
import { checkCacheTree } from './cache-tree-check.js';
import { author, files, gitCli, tempDir, tempRepo } from './helpers.js';

const PATHS = [
  'a.md',
  'b.md',
  'd.md',
  'd/c.md',
  'd/e/f.md',
  'd/e/g.md',
  'd-x/h.md',
  'x.log',
  'd/e/y.log',
  'ign/g.md',
  'é/ü.md',
  'a.md/inner.md',
];
const CONTENTS = ['one\n', 'two\n', 'three\n', ''];
const IGNORED = (path: string) => path.endsWith('.log') || path.startsWith('ign/');

type Op =
  | { op: 'write'; path: string; content: string }
  | { op: 'delete'; path: string }
  | { op: 'stage'; path: string }
  | { op: 'unstage'; path: string };

const path = fc.constantFrom(...PATHS);
const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('write' as const), path, content: fc.constantFrom(...CONTENTS) }), weight: 3 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), path }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('stage' as const), path }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('unstage' as const), path }), weight: 1 },
);
// What HEAD holds is never ignored: a tracked file git add -A would drop once unstaged is not what this is about.
const initial = fc.dictionary(
  fc.constantFrom(...PATHS.filter((p) => !p.startsWith('a.md/') && !IGNORED(p))),
  fc.constantFrom(...CONTENTS),
  { minKeys: 1 },
);

async function apply(dir: string, step: Op): Promise<void> {
  const full = join(dir, step.path);
  switch (step.op) {
    case 'write': {
      await writeReplacing(dir, step.path, step.content);
      return;
    }
    case 'delete':
      await rm(full, { recursive: true, force: true }).catch(() => undefined); // under a file: nothing there
      return;
    case 'stage':
      await gitCli(dir, 'add', '--force', '--', step.path).catch(() => undefined); // nothing there to stage
      return;
    case 'unstage':
      await gitCli(dir, 'rm', '-r', '-q', '--cached', '--ignore-unmatch', '--', step.path);
      return;
  }
}

const cli = (dir: string, ...args: string[]) => gitCli(dir, '-c', 'user.name=Cli Author', '-c', 'user.email=cli@example.com', ...args);

/** What a commit and an index hold, as the git CLI lists them; and whether git sees anything left to commit. */
async function snapshot(dir: string) {
  return {
    tree: await cli(dir, 'ls-tree', '-r', '--full-tree', 'HEAD'),
    index: await cli(dir, 'ls-files', '-s'),
    status: await cli(dir, 'status', '--porcelain', '--untracked-files=all'),
    parents: (await cli(dir, 'rev-list', '--count', 'HEAD')).trim(),
  };
}

describe('commitWorkingTree, property', () => {
  it('commits the tree and leaves the index that git add -A && git commit give, with or without the changes given', async () => {
    await fc.assert(
      fc.asyncProperty(
        initial,
        fc.array(op, { maxLength: 10 }),
        fc.boolean(),
        fc.boolean(),
        async (start, ops, indexByGit, giveChanges) => {
          const dir = await tempRepo();
          await commitFiles(dir, {
            branch: 'main',
            parent: null,
            files: files({ ...start, '.gitignore': '*.log\nign/\n' }),
            message: 'start',
            author,
            checkout: true,
          });
          // The index as docsync's fresh checkout wrote it, or as git rewrites it (version 2 with a cache tree).
          if (indexByGit) await cli(dir, 'reset', '-q');
          for (const step of ops) await apply(dir, step);
          const copy = join(await tempDir(), 'copy');
          await cp(dir, copy, { recursive: true, preserveTimestamps: true });

          const changes = giveChanges ? await workingTreeChanges(dir) : undefined;
          const ours = await commitWorkingTree(dir, { message: 'save', author, changes });
          await cli(copy, 'add', '-A');
          const staged = (await cli(copy, 'diff', '--cached', '--name-only')) !== '';
          if (staged) await cli(copy, 'commit', '-q', '-m', 'save');

          expect(ours !== null).toBe(staged);
          expect(await snapshot(dir)).toEqual(await snapshot(copy));
          // The stat data is right: git, which does not refresh here, sees no file as changed.
          expect(await cli(dir, 'diff-files', '--name-only')).toBe('');
          await cli(dir, 'fsck', '--strict', '--no-dangling');
          // The cache tree docsync left in the index (a clone's, made whole by the commit) is the one git would write.
          checkCacheTree(dir);
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
