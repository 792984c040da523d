import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { git } from '../sync/fixture.js';
import { runCli } from './run-cli.js';

/** `git config <key>` as git answers it: the value, or null when the key is not set. */
const gitConfig = (dir: string, key: string): string | null => {
  try {
    return execFileSync('git', ['config', key], { cwd: dir, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const CORE = ['core.filemode', 'core.symlinks', 'core.ignorecase'];

/** A docsync workspace used with the git CLI on this file system, as issue 14 found it used. */
describe('git repositories as git makes them', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-git-config-'));
    client = createClient({ baseUrl: s.url, token: s.token });
    env = { XDG_CONFIG_HOME: join(work, 'config'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('clone writes the core settings `git init` writes beside it; two assets differing only in case and an executable script go through git and push', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Case', empty: false } })).body;
    const dir = join(work, 'clone');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
    const beside = join(work, 'plain');
    execFileSync('git', ['init', '-q', beside]);
    for (const key of CORE) expect(gitConfig(dir, key), key).toBe(gitConfig(beside, key));

    await mkdir(join(dir, '.gitbook', 'assets'), { recursive: true });
    await writeFile(join(dir, '.gitbook', 'assets', '+Aggiungi.PNG'), 'upper');
    await writeFile(join(dir, '.gitbook', 'assets', '+aggiungi.PNG'), 'lower');
    await mkdir(join(dir, 'tools'), { recursive: true });
    await writeFile(join(dir, 'tools', 'build.sh'), '#!/bin/sh\necho built\n');
    await chmod(join(dir, 'tools', 'build.sh'), 0o755);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'Two screenshots and a script');
    expect(
      git(dir, 'ls-files', '-s', '.gitbook/assets', 'tools')
        .split('\n')
        .filter(Boolean)
        .map((l) => `${l.split(' ')[0]} ${l.split('\t')[1]}`),
    ).toEqual(['100644 .gitbook/assets/+Aggiungi.PNG', '100644 .gitbook/assets/+aggiungi.PNG', '100755 tools/build.sh']);

    const pushed = await runCli(['push', '--dir', dir, '--merge'], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toMatch(/core\./);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'ls-files', '-s', 'tools/build.sh').split(' ')[0]).toBe('100755');
    expect((await stat(join(dir, 'tools', 'build.sh'))).mode & 0o111).toBe(0o111);
    const files = (await s.request('GET', `/v1/spaces/${space.id}/content/files`)).body.items.map((f: { name: string }) => f.name).sort();
    expect(files).toEqual(expect.arrayContaining(['+Aggiungi.PNG', '+aggiungi.PNG']));

    const again = join(work, 'again');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: again });
    expect(
      git(again, 'ls-files', '.gitbook/assets')
        .split('\n')
        .filter((l) => /aggiungi/i.test(l)),
    ).toEqual(['.gitbook/assets/+Aggiungi.PNG', '.gitbook/assets/+aggiungi.PNG']);
  });

  it('a workspace an earlier docsync made with Windows settings is corrected on its next command, said once', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Old', empty: false } })).body;
    const dir = join(work, 'old');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
    git(dir, 'config', 'core.filemode', 'false');
    git(dir, 'config', 'core.symlinks', 'false');
    git(dir, 'config', 'core.ignorecase', 'true');
    const beside = join(work, 'plain');
    const first = await runCli(['pull', '--dir', dir], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/set core\.filemode, core\.symlinks and core\.ignorecase in .* as git init would/);
    for (const key of CORE) expect(gitConfig(dir, key), key).toBe(gitConfig(beside, key));
    const second = await runCli(['pull', '--dir', dir], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/core\./);
  });
});
