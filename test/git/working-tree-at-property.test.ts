import { execFileSync } from 'node:child_process';
import fs, { utimesSync } from 'node:fs';
import { readFile, rm, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { writeReplacing } from './write-replacing.js';
import * as git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import { commitFiles, type WorkingTreeChange, workingTreeChanges, workingTreeChangesAt } from '../../src/git/index.js';
import { author, files, tempRepo, withFastPaths } from './helpers.js';

// These tests are about the fast paths themselves: on even in the suite's DOCSYNC_GIT_FAST_PATHS=off run.
withFastPaths();

const FILES = ['a.md', 'b.md', 'd.md', 'd/c.md', 'd/e/f.md', 'd/e/g.md', 'd/x.log', 'x.log', 'ign/g.md', 'ign/h.md', 'é/ü.md', 'n/o/p.md'];
// Written later only: a file where HEAD has a file (a.md) or a folder (d/e) becomes a folder or a file.
const LATER = ['a.md/inner.md', 'a.md/deep/er.md', 'd/e', 'n/o', 'new/q.md', 'x.log/inner.md'];
const FOLDERS = ['d', 'd/e', 'ign', 'é', 'n', 'n/o', 'a.md', 'new'];
const CONTENTS = ['one\n', 'two\n', 'three\n', ''];
// Symbolic links to folders, and paths through them (which a walk never reaches: it does not follow links).
const LINKS = ['l', 'n/o', 'a.md'];
const THROUGH_LINKS = ['l/c.md', 'l/e/f.md', 'n/o/f.md', 'n/o/c.md', 'a.md/c.md'];

type Op =
  | { op: 'write'; path: string; content: string; now: boolean }
  | { op: 'delete'; path: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'touch'; path: string }
  | { op: 'stage'; path: string }
  | { op: 'unstage'; path: string }
  | { op: 'revert'; path: string }
  | { op: 'link'; path: string; target: string };

const file = fc.constantFrom(...FILES, ...LATER);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({ op: fc.constant('write' as const), path: file, content: fc.constantFrom(...CONTENTS), now: fc.boolean() }),
    weight: 4,
  },
  fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...FILES, ...FOLDERS) }),
  fc.record({ op: fc.constant('rename' as const), from: file, to: file }),
  fc.record({ op: fc.constant('touch' as const), path: file }),
  fc.record({ op: fc.constant('stage' as const), path: file }),
  fc.record({ op: fc.constant('unstage' as const), path: file }),
  fc.record({ op: fc.constant('revert' as const), path: file }),
  fc.record({ op: fc.constant('link' as const), path: fc.constantFrom(...LINKS), target: fc.constantFrom('d', 'd/e') }),
);
const initial = fc.dictionary(fc.constantFrom(...FILES), fc.constantFrom(...CONTENTS), { minKeys: 1 });

/** Modification times a second apart in the past; a write with `now` keeps the real one (racily clean against a later index). */
let clock = Math.floor(Date.now() / 1000) - 100_000;

/** Writes `content` at `path`, replacing a file on the way (a file turned into a folder) or a folder there; returns what it removed. */
async function put(dir: string, path: string, content: string | Buffer, now = false): Promise<string[]> {
  const removed = await writeReplacing(dir, path, content);
  if (!now) utimesSync(join(dir, path), (clock += 1), clock);
  return removed;
}

const isFile = (dir: string, path: string) => fs.existsSync(join(dir, path)) && fs.lstatSync(join(dir, path)).isFile();

/** Applies `step`; returns the paths a file watcher would report for it. */
async function apply(dir: string, step: Op, start: Record<string, string>): Promise<string[]> {
  switch (step.op) {
    case 'write':
      return [step.path, ...(await put(dir, step.path, step.content, step.now))];
    case 'delete':
      await rm(join(dir, step.path), { recursive: true, force: true }).catch(() => undefined); // under a file: nothing there
      return [step.path];
    case 'rename': {
      if (!isFile(dir, step.from) || step.from === step.to) return [];
      const content = await readFile(join(dir, step.from));
      await rm(join(dir, step.from));
      return [step.from, step.to, ...(await put(dir, step.to, content))];
    }
    case 'touch':
      if (isFile(dir, step.path)) utimesSync(join(dir, step.path), (clock += 1), clock);
      return [step.path];
    case 'stage':
      await git.add({ fs, dir, filepath: step.path, force: true }).catch(() => undefined);
      return [];
    case 'unstage':
      await git.remove({ fs, dir, filepath: step.path });
      return [];
    case 'revert': {
      // back to HEAD's content, as an editor's undo does
      const original = start[step.path];
      return original === undefined ? [] : [step.path, ...(await put(dir, step.path, original))];
    }
    case 'link': {
      const removed = await put(dir, step.path, '');
      await rm(join(dir, step.path));
      await symlink(relative(join(dir, step.path, '..'), join(dir, step.target)), join(dir, step.path));
      return [step.path, ...removed];
    }
  }
}

/** Each path with the folders on its way. */
const withFolders = (paths: string[]) => paths.flatMap((path) => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/')));

const restricted = (changes: WorkingTreeChange[], paths: string[]) =>
  changes.filter((change) => paths.some((path) => change.path === path || change.path.startsWith(`${path}/`)));

describe('workingTreeChangesAt, property', () => {
  it('equals workingTreeChanges restricted to the paths and their content, for touched paths, their folders and others', async () => {
    await fc.assert(
      fc.asyncProperty(
        initial,
        fc.array(op, { maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 5 }),
        async (start, ops, allTouched, picks) => {
          const dir = await tempRepo();
          const content = { ...start, '.gitignore': '*.log\nign/\n' };
          await commitFiles(dir, { branch: 'main', parent: null, files: files(content), message: 'start', author, checkout: true });
          const touched = new Set<string>();
          for (const step of ops) for (const path of await apply(dir, step, content)) touched.add(path);

          const candidates = [...new Set([...withFolders([...touched]), ...FILES, ...LATER, ...FOLDERS, ...THROUGH_LINKS])];
          const paths = [...(allTouched ? touched : []), ...picks.map((i) => candidates[i % candidates.length]!)];
          const at = await workingTreeChangesAt(dir, paths);
          const everything = await workingTreeChanges(dir);
          if (at === null) {
            // Only for an index git never writes (a file that is also a folder of another entry,
            // made by isomorphic-git's add of a folder over a file): the caller walks everything.
            const staged = execFileSync('git', ['ls-files'], { cwd: dir, encoding: 'utf8' }).split('\n').filter(Boolean);
            expect(staged.some((path) => staged.some((other) => other.startsWith(`${path}/`)))).toBe(true);
            return;
          }
          expect(at).toEqual(restricted(everything, paths));
          // Again after the full walk refreshed the index.
          expect(await workingTreeChangesAt(dir, paths)).toEqual(at);
        },
      ),
      { numRuns: 60 },
    );
  });
});
