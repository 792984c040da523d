import { mkdtemp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readState, writeState, type WorkspaceState } from '../../src/sync/state/state.js';
import { credentialsPath, loadCredentials, saveCredentials } from '../../src/sync/state/credentials.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docsync-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('workspace state', () => {
  const state: WorkspaceState = {
    version: 1,
    binding: { apiUrl: 'http://127.0.0.1:1', spaceId: 'space1' },
    branches: {
      main: { remoteRevision: 'r1', syncedCommit: 'c'.repeat(40), index: { pages: { 'README.md': 'p1' }, files: {}, includes: {} } },
    },
  };

  it('round-trips through .git/docsync/state.json, the sync index in a file of its own', async () => {
    await writeState(dir, state);
    expect(await readState(dir)).toEqual(state);
    const onDisk = JSON.parse(await readFile(join(dir, '.git', 'docsync', 'state.json'), 'utf8'));
    expect(onDisk.branches.main.index).toBeUndefined();
    expect(onDisk.branches.main.indexFile).toMatch(/^[0-9a-f]{40}\.json$/);
    expect(JSON.parse(await readFile(join(dir, '.git', 'docsync', 'index', onDisk.branches.main.indexFile), 'utf8'))).toEqual(
      state.branches.main!.index,
    );
  });

  it('reads a branch index only when asked for, and writes it again only when it changed', async () => {
    const big = { pages: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p/${i}.md`, `id${i}`])), files: {}, includes: {} };
    const outbox = { changeRequestId: 'cr1', remoteRevision: 'r2', syncedCommit: 'd'.repeat(40), index: big };
    await writeState(dir, { ...state, branches: { ...state.branches, main: { ...state.branches.main!, outbox }, other: { ...outbox } } });
    const text = await readFile(join(dir, '.git', 'docsync', 'state.json'), 'utf8');
    expect(text.length).toBeLessThan(1000);
    const indexDir = join(dir, '.git', 'docsync', 'index');
    expect(await readdir(indexDir)).toHaveLength(2); // the same index twice is one file

    // The index files gone: a read of the state, a change of other fields and a write need none of them.
    const saved = join(dir, 'saved-index');
    await rename(indexDir, saved);
    const read = await readState(dir);
    read.branches.other!.remoteRevision = 'r3';
    read.branches.main!.remoteRevision = 'r9';
    await writeState(dir, read);
    await expect(async () => read.branches.main!.index).rejects.toThrow(/damaged or missing/);
    await rm(indexDir, { recursive: true, force: true });
    await rename(saved, indexDir);

    const again = await readState(dir);
    expect(again.branches.main!.remoteRevision).toBe('r9');
    expect(again.branches.other!.remoteRevision).toBe('r3');
    expect(again.branches.main!.outbox!.index).toEqual(big);
    expect(again.branches.main!.index).toEqual(state.branches.main!.index);
  });

  it('reads a state.json that holds its index inline (written before) and moves it out on the next write', async () => {
    await mkdir(join(dir, '.git', 'docsync'), { recursive: true });
    await writeFile(join(dir, '.git', 'docsync', 'state.json'), JSON.stringify(state));
    const read = await readState(dir);
    expect(read).toEqual(state);
    await writeState(dir, read);
    expect(JSON.parse(await readFile(join(dir, '.git', 'docsync', 'state.json'), 'utf8')).branches.main.index).toBeUndefined();
    expect(await readState(dir)).toEqual(state);
  });

  it('says the folder is not a workspace, and names a damaged state file', async () => {
    await expect(readState(dir)).rejects.toThrow(/not a docsync workspace/);
    await mkdir(join(dir, '.git', 'docsync'), { recursive: true });
    await writeFile(join(dir, '.git', 'docsync', 'state.json'), '{"version": 1,');
    await expect(readState(dir)).rejects.toThrow(/state\.json is damaged/);
  });
});

describe('credentials', () => {
  it('are stored 0600 under XDG_CONFIG_HOME, and the environment overrides them', async () => {
    const env = { XDG_CONFIG_HOME: dir } as NodeJS.ProcessEnv;
    const path = await saveCredentials({ apiUrl: 'http://api.test/', token: 'secret-token' }, env);
    expect(path).toBe(credentialsPath(env));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await loadCredentials(env)).toEqual({ apiUrl: 'http://api.test', token: 'secret-token' });
    expect(await loadCredentials({ ...env, DOCSYNC_TOKEN: 'other', DOCSYNC_API_URL: 'http://x.test' })).toEqual({
      apiUrl: 'http://x.test',
      token: 'other',
    });
  });

  it('say what is missing without a login, never a token', async () => {
    const env = { XDG_CONFIG_HOME: dir } as NodeJS.ProcessEnv;
    await expect(loadCredentials(env)).rejects.toThrow(/no API URL/);
    await expect(loadCredentials({ ...env, DOCSYNC_API_URL: 'http://x.test' })).rejects.toThrow(/no token/);
  });
});
