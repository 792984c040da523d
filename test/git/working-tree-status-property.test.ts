import { execFileSync } from 'node:child_process';
import fs, { utimesSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { writeReplacing } from './write-replacing.js';
import * as git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { commitFiles } from '../../src/git/index.js';
import { repo } from '../../src/git/repo.js';
import { fastStatusRows, type StatusRow } from '../../src/git/working-tree/status-matrix.js';
import { author, files, gitCli, tempRepo, withFastPaths } from './helpers.js';

// These tests are about the fast paths themselves: on even in the suite's DOCSYNC_GIT_FAST_PATHS=off run.
withFastPaths();

const PATHS = ['a.md', 'b.md', 'd/c.md', 'd/e/f.md', 'x.log', 'ign/g.md', 'é/ü.md', 'a.md/inner.md'];
const CONTENTS = ['one\n', 'two\n', 'three\n', ''];

type Op =
  | { op: 'write'; path: string; content: string }
  | { op: 'delete'; path: string }
  | { op: 'touch'; path: string }
  | { op: 'stage'; path: string }
  | { op: 'unstage'; path: string }
  | { op: 'git-stage'; path: string }
  | { op: 'git-commit' };

const path = fc.constantFrom(...PATHS);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('write' as const), path, content: fc.constantFrom(...CONTENTS) }),
  fc.record({ op: fc.constant('delete' as const), path }),
  fc.record({ op: fc.constant('touch' as const), path }),
  fc.record({ op: fc.constant('stage' as const), path }),
  fc.record({ op: fc.constant('unstage' as const), path }),
  // The git CLI writes a cache tree (commit) and invalidates its folders (add): the status trusts what it holds valid.
  fc.record({ op: fc.constant('git-stage' as const), path }),
  fc.constant({ op: 'git-commit' as const }),
);
const initial = fc.dictionary(fc.constantFrom(...PATHS.filter((p) => !p.startsWith('a.md/'))), fc.constantFrom(...CONTENTS), {
  minKeys: 1,
});

const byPath = (a: StatusRow, b: StatusRow) => Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0]));

/**
 * Every write gets its own modification time, a second apart and in the past, so no file is
 * racily clean: there isomorphic-git trusts the stat data where git (and the fast path) hash.
 */
let clock = Math.floor(Date.now() / 1000) - 100_000;

async function apply(dir: string, step: Op): Promise<void> {
  if (step.op === 'git-commit') {
    await gitCli(dir, 'commit', '-q', '--allow-empty', '-m', 'by git');
    return;
  }
  const full = join(dir, step.path);
  switch (step.op) {
    case 'write': {
      await writeReplacing(dir, step.path, step.content);
      utimesSync(full, (clock += 1), clock);
      return;
    }
    case 'delete':
      await rm(full, { recursive: true, force: true }).catch(() => undefined); // under a file: nothing there
      return;
    case 'touch':
      if (fs.existsSync(full) && fs.lstatSync(full).isFile()) utimesSync(full, (clock += 1), clock);
      return;
    case 'stage':
      await git.add({ fs, dir, filepath: step.path, force: true }).catch(() => undefined);
      return;
    case 'unstage':
      await git.remove({ fs, dir, filepath: step.path });
      return;
    case 'git-stage':
      await gitCli(dir, 'add', '-A', '--', step.path).catch(() => undefined); // a path under a file: nothing to add
      return;
  }
}

describe('fast status rows, property', () => {
  it('equal isomorphic-git statusMatrix after any sequence of writes, deletions, touches, stagings', async () => {
    await fc.assert(
      fc.asyncProperty(initial, fc.array(op, { maxLength: 12 }), async (start, ops) => {
        const dir = await tempRepo();
        const content = { ...start, '.gitignore': '*.log\nign/\n' };
        await commitFiles(dir, { branch: 'main', parent: null, files: files(content), message: 'start', author, checkout: true });
        for (const step of ops) await apply(dir, step);
        const fast = await fastStatusRows(await repo(dir));
        const reference = await git.statusMatrix({ fs, dir, refresh: false });
        if (fast === null) {
          // Left to isomorphic-git only for an index git never writes: a file that is also a
          // folder of another entry (isomorphic-git's add of a folder over a file makes one).
          const staged = new Set(execFileSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean));
          expect([...staged].some((path) => staged.has(path.split('/')[0]!) && path.includes('/'))).toBe(true);
          return;
        }
        expect(fast.sort(byPath)).toEqual(reference.sort(byPath));
      }),
      { numRuns: 40 },
    );
  });
});
