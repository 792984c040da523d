import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
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

  it('round-trips through .git/docsync/state.json', async () => {
    await writeState(dir, state);
    expect(await readState(dir)).toEqual(state);
    expect(JSON.parse(await readFile(join(dir, '.git', 'docsync', 'state.json'), 'utf8'))).toEqual(state);
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
