import { beforeEach, describe, expect, it, vi } from 'vitest';
import { commitFiles, readFileAt } from '../../src/git/index.js';
import { author, files, gitCli, tempRepo, text } from './helpers.js';

/**
 * Every pack index file the git layer reads: isomorphic-git reads through node's fs, docsync's
 * own object reader (src/git/objects/read-object.ts) through node:fs/promises.
 */
const seen = vi.hoisted(() => ({ idx: [] as string[] }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const readFile = ((path: unknown, ...rest: unknown[]) => {
    if (String(path).endsWith('.idx')) seen.idx.push(String(path));
    return (actual.promises.readFile as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof actual.promises.readFile;
  const promises = { ...actual.promises, readFile };
  return { ...actual, default: { ...actual, promises }, promises };
});

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const readFile = ((path: unknown, ...rest: unknown[]) => {
    if (String(path).endsWith('.idx')) seen.idx.push(String(path));
    return (actual.readFile as (...args: unknown[]) => unknown)(path, ...rest);
  }) as typeof actual.readFile;
  return { ...actual, default: { ...actual, readFile }, readFile };
});

beforeEach(() => {
  seen.idx.length = 0;
});

async function packedRepo(): Promise<{ dir: string; commit: string }> {
  const dir = await tempRepo();
  const entries: Record<string, string> = {};
  for (let i = 0; i < 50; i += 1) entries[`section/page-${i}.md`] = `page ${i}\n`;
  const commit = await commitFiles(dir, { branch: 'main', parent: null, files: files(entries), message: 'pages', author, checkout: true });
  await gitCli(dir, 'gc', '--quiet');
  return { dir, commit };
}

describe('packs read once per process', () => {
  it('parses a pack index once for many reads at a commit, not once per read', async () => {
    const { dir, commit } = await packedRepo();
    for (let i = 0; i < 5; i += 1) expect(text(await readFileAt(dir, commit, `section/page-${i}.md`))).toBe(`page ${i}\n`);
    expect(seen.idx).toHaveLength(1);
  });

  it('reads a pack that a later gc made, and no longer needs the one it removed', async () => {
    const { dir, commit } = await packedRepo();
    expect(text(await readFileAt(dir, commit, 'section/page-1.md'))).toBe('page 1\n');
    const next = await commitFiles(dir, {
      branch: 'main',
      parent: commit,
      files: files({ 'section/page-1.md': 'page 1 again\n', 'new.md': 'new\n' }),
      message: 'more',
      author,
    });
    await gitCli(dir, 'gc', '--quiet', '--prune=now');
    expect(text(await readFileAt(dir, next, 'new.md'))).toBe('new\n');
    expect(text(await readFileAt(dir, commit, 'section/page-1.md'))).toBe('page 1\n');
    expect(text(await readFileAt(dir, next, 'section/page-1.md'))).toBe('page 1 again\n');
  });
});
