import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { commitFiles, workingTreeChanges, workingTreeChangesAt } from '../../src/git/index.js';
import { author, tempRepo, withFastPaths } from './helpers.js';

// These tests are about the fast paths themselves: on even in the suite's DOCSYNC_GIT_FAST_PATHS=off run.
withFastPaths();

/** Every readdir and lstat the git layer makes, by path relative to the working tree. */
const seen = vi.hoisted(() => ({ root: '', readdir: [] as string[], lstat: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const relative = (path: unknown) => String(path).replace(seen.root, '').replace(/^\//, '');
  const readdirSync = ((path: string, options: unknown) => {
    seen.readdir.push(relative(path));
    return actual.readdirSync(path, options as never);
  }) as typeof actual.readdirSync;
  const lstatSync = ((path: string, options: unknown) => {
    seen.lstat.push(relative(path));
    return actual.lstatSync(path, options as never);
  }) as typeof actual.lstatSync;
  return { ...actual, default: { ...actual, readdirSync, lstatSync }, readdirSync, lstatSync };
});

/** Tree objects hashed (their oids computed from entries), by the git layer's one hashing function. */
const hashed = vi.hoisted(() => ({ trees: 0 }));

vi.mock('../../src/git/format/object-format.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/git/format/object-format.js')>();
  return {
    ...actual,
    objectOid: (type: Parameters<typeof actual.objectOid>[0], content: Uint8Array) => {
      if (type === 'tree') hashed.trees += 1;
      return actual.objectOid(type, content);
    },
  };
});

const FOLDERS = 20;
const FILES = 10;

async function workspace(): Promise<string> {
  const files = new Map<string, string>();
  for (let i = 0; i < FOLDERS * FILES; i += 1) files.set(`section-${Math.floor(i / FILES)}/page-${i % FILES}.md`, `page ${i}\n`);
  const dir = await tempRepo();
  await commitFiles(dir, { branch: 'main', parent: null, files, message: 'clone', author, checkout: true });
  seen.root = dir;
  return dir;
}

beforeEach(() => {
  seen.readdir.length = 0;
  seen.lstat.length = 0;
});

describe('workingTreeChangesAt looks only at the paths it is given', () => {
  it('one file: no folder listed, the file and its folder looked at', async () => {
    const dir = await workspace();
    writeFileSync(join(dir, 'section-3/page-7.md'), 'edited\n');
    seen.readdir.length = 0;
    seen.lstat.length = 0;
    expect(await workingTreeChangesAt(dir, ['section-3/page-7.md'])).toEqual([{ path: 'section-3/page-7.md', status: 'modified' }]);
    expect(seen.readdir).toEqual([]);
    expect(new Set(seen.lstat)).toEqual(new Set(['section-3', 'section-3/page-7.md']));

    // What the counting sees of the full walk: every folder, every file.
    seen.readdir.length = 0;
    seen.lstat.length = 0;
    await workingTreeChanges(dir);
    // The working tree's folders; `.git/objects/pack` is listed too, by the object reader finding its packs.
    expect(seen.readdir.filter((path) => !path.startsWith('.git'))).toHaveLength(FOLDERS + 1);
    expect(seen.lstat.length).toBeGreaterThanOrEqual(FOLDERS * FILES);
  });

  it("hashes no tree of the index when its cache tree names HEAD's (nothing staged)", async () => {
    const dir = await workspace();
    writeFileSync(join(dir, 'section-3/page-7.md'), 'edited\n');
    hashed.trees = 0;
    expect(await workingTreeChangesAt(dir, ['section-3/page-7.md'])).toEqual([{ path: 'section-3/page-7.md', status: 'modified' }]);
    expect(hashed.trees).toBe(0);
  });

  it('one folder: that folder listed alone', async () => {
    const dir = await workspace();
    writeFileSync(join(dir, 'section-4/new.md'), 'new\n');
    seen.readdir.length = 0;
    seen.lstat.length = 0;
    expect(await workingTreeChangesAt(dir, ['section-4'])).toEqual([{ path: 'section-4/new.md', status: 'added' }]);
    expect(seen.readdir).toEqual(['section-4']);
    expect(seen.lstat.every((path) => path.startsWith('section-4'))).toBe(true);
  });
});
