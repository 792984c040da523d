import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace } from '../../src/sync/init.js';
import { isUnbound, readUnbound } from '../../src/sync/state/unbound.js';
import { readState } from '../../src/sync/state/state.js';
import { loadFolder, readFolder, writeFolder } from '../../src/workspace/index.js';
import { git } from './fixture.js';

const TEMPLATE = fileURLToPath(new URL('../../templates/workspace', import.meta.url));

describe('the workspace template', () => {
  it('is a folder docsync reads without a problem: pages, nesting and titles from SUMMARY.md', async () => {
    const read = readFolder(await loadFolder(TEMPLATE));
    expect(read.problems).toEqual([]);
    const outline = (pages: typeof read.content.pages): unknown[] =>
      pages.map((p) => (p.type === 'document' ? { title: p.title, pages: outline(p.pages) } : p.title));
    expect(outline(read.content.pages)).toEqual([
      { title: 'Welcome', pages: [] },
      { title: 'Writing pages', pages: [] },
      { title: 'Guides', pages: [{ title: 'Your first change', pages: [] }] },
    ]);
  });

  it('is in canonical form: written back, every file has the same bytes (so publishing commits nothing of its own)', async () => {
    const files = await loadFolder(TEMPLATE);
    const written = writeFolder(readFolder(files).content);
    expect(written.problems).toEqual([]);
    expect(new Map([...written.files].map(([path, text]) => [path, String(text)]))).toEqual(files);
  });

  it('tells the writer what to edit and how edits reach the platform', async () => {
    const welcome = await readFile(join(TEMPLATE, 'README.md'), 'utf8');
    expect(welcome).toContain('SUMMARY.md');
    expect(welcome).toContain('docsync push');
    expect(welcome).toContain('docsync push --merge');
  });
});

describe('initWorkspace', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'docsync-init-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('writes the template into a new git repository, committed on main, checked out and clean', async () => {
    const dir = join(work, 'handbook');
    const result = await initWorkspace(dir, TEMPLATE, { title: 'Team handbook' });
    expect(result).toMatchObject({ dir, title: 'Team handbook' });
    expect(result.files).toEqual([...(await loadFolder(TEMPLATE)).keys()].sort());
    expect(await loadFolder(dir)).toEqual(await loadFolder(TEMPLATE));
    expect(git(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    expect(git(dir, 'rev-parse', 'HEAD').trim()).toBe(result.commit);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'ls-files').trim().split('\n').sort()).toEqual(result.files);
    expect(git(dir, 'log', '--format=%s').trim()).toBe('docsync: new workspace "Team handbook" from the template');
  });

  it('marks the workspace as not bound to a space; commands that need one say to push it first', async () => {
    const dir = join(work, 'unbound');
    await initWorkspace(dir, TEMPLATE);
    expect(await isUnbound(dir)).toBe(true);
    expect(await readUnbound(dir)).toEqual({ version: 1, title: 'unbound' });
    await expect(readState(dir)).rejects.toMatchObject({
      code: 'not-published',
      message: `${dir} has no space yet (made by docsync init); run docsync push to create it`,
    });
    // Only a folder docsync init made is unbound.
    expect(await isUnbound(work)).toBe(false);
  });

  it('uses an empty existing folder', async () => {
    const dir = join(work, 'empty');
    await mkdir(dir);
    const result = await initWorkspace(dir, TEMPLATE);
    expect(result.title).toBe('empty');
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses a folder that is not empty, naming it, and writes nothing', async () => {
    const dir = join(work, 'notes');
    await mkdir(dir);
    await writeFile(join(dir, 'todo.md'), 'mine\n');
    await expect(initWorkspace(dir, TEMPLATE)).rejects.toMatchObject({
      code: 'folder-not-empty',
      message: `${dir} exists and is not empty; docsync init makes a workspace in a new or empty folder`,
    });
    expect(await readdir(dir)).toEqual(['todo.md']);
  });

  it('refuses a path that is a file', async () => {
    const file = join(work, 'a-file');
    await writeFile(file, 'x');
    await expect(initWorkspace(file, TEMPLATE)).rejects.toMatchObject({
      code: 'folder-not-empty',
      message: expect.stringContaining(`${file} exists and is not a folder`),
    });
  });

  it('refuses a title the API would refuse, and a missing template, before writing anything', async () => {
    const dir = join(work, 'long');
    await expect(initWorkspace(dir, TEMPLATE, { title: 'x'.repeat(51) })).rejects.toMatchObject({
      code: 'invalid-title',
      message: expect.stringContaining('has 51 characters; at most 50'),
    });
    await expect(initWorkspace(dir, TEMPLATE, { title: '  ' })).rejects.toMatchObject({
      message: expect.stringContaining('title is empty'),
    });
    await expect(initWorkspace(dir, join(work, 'no-template'))).rejects.toMatchObject({
      code: 'template-missing',
      message: expect.stringContaining('no-template is missing'),
    });
    await expect(readdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gives a long folder name as the title cut to the API limit', async () => {
    const name = `a-very-long-folder-name-for-the-documentation-of-the-whole-company`;
    const result = await initWorkspace(join(work, name), TEMPLATE);
    expect(result.title).toBe(name.slice(0, 50));
  });
});
