import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { jsonOf, runCli } from './run-cli.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test', ...args], { cwd: dir, encoding: 'utf8' });

/** login, clone, status and pull as a writer runs them, against a real server. */
describe('docsync login / clone / status / pull', () => {
  let s: TestServer;
  let home: string;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    s = await startServer('sqlite');
    home = await mkdtemp(join(tmpdir(), 'docsync-cli-sync-'));
    env = { XDG_CONFIG_HOME: join(home, 'config'), DOCSYNC_API_URL: undefined, DOCSYNC_TOKEN: undefined };
  });
  afterAll(async () => {
    await s?.close();
    await rm(home, { recursive: true, force: true });
  });

  async function mainEdit(spaceId: string, changes: unknown[]) {
    const cr = (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'edit' } })).body;
    const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { body: { changes } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    return res.body.changes as any[];
  }

  it('logs in, clones by app URL, shows status, and pulls an edit made on the platform', async () => {
    const login = await runCli(['login', '--api', s.url], { ...env, DOCSYNC_TOKEN: s.token });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toMatch(/^logged in to .* as admin/);
    expect(login.stdout).not.toContain(s.token);
    const credentials = join(home, 'config', 'docsync', 'credentials.json');
    expect((await stat(credentials)).mode & 0o777).toBe(0o600);

    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'User Guide', empty: true } })).body;
    const [created] = await mainEdit(space.id, [
      { operation: 'insert_page', title: 'Start', document: { markdown: '# Start\n\nFirst steps.\n' } },
    ]);
    const dir = join(home, 'guide');
    const cloned = await runCli(['clone', space.urls.app, dir, '--json'], env);
    expect(cloned.code, cloned.stderr).toBe(0);
    expect(jsonOf(cloned)).toMatchObject({ spaceTitle: 'User Guide', branches: [{ branch: 'main' }] });
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Start\n\nFirst steps.\n');

    const clean = await runCli(['status', '--dir', dir], env);
    expect(clean.stdout).toBe('daemon: not running\n* main: in sync\n');

    await writeFile(join(dir, 'README.md'), '# Start\n\nFirst steps, edited here.\n');
    await mainEdit(space.id, [{ operation: 'insert_page', title: 'Next', document: { markdown: '# Next\n\nThen this.\n' } }]);
    const dirty = await runCli(['status', '--dir', dir], env);
    expect(dirty.stdout).toMatch(
      /^daemon: not running\n\* main: 1 uncommitted file change\(s\); remote moved \S+ -> \S+: run docsync pull\n$/,
    );

    const pulled = await runCli(['pull', '--dir', dir], env);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toMatch(/^main: \S+ -> \S+: modified SUMMARY\.md, added next\.md\n$/);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# Start\n\nFirst steps, edited here.\n');
    expect(await readFile(join(dir, 'next.md'), 'utf8')).toBe('# Next\n\nThen this.\n');
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(created.page.id).toBeTruthy();
  });

  it('exits 3 and names the files when a pull leaves conflict markers', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Conflicts', empty: true } })).body;
    const [page] = await mainEdit(space.id, [
      { operation: 'insert_page', title: 'Only', document: { markdown: '# Only\n\nshared line\n' } },
    ]);
    const dir = join(home, 'conflicts');
    expect((await runCli(['clone', space.id, dir], { ...env, DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token })).code).toBe(0);
    await writeFile(join(dir, 'README.md'), '# Only\n\nlocal line\n');
    await mainEdit(space.id, [{ operation: 'update_page', page: page.page.id, document: { markdown: '# Only\n\nremote line\n' } }]);
    const pulled = await runCli(['pull', '--dir', dir], { ...env, DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });
    expect(pulled.code).toBe(3);
    expect(pulled.stderr).toContain('docsync: pull left conflict markers in main:README.md');
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toContain('<<<<<<< local\nlocal line\n=======\nremote line\n>>>>>>> remote\n');
  });

  it('says what is missing without a login, and rejects a SPACE that is neither id nor URL', async () => {
    const none = await runCli(['clone', 'abc', join(home, 'x')], {
      XDG_CONFIG_HOME: join(home, 'empty-config'),
      DOCSYNC_API_URL: undefined,
      DOCSYNC_TOKEN: undefined,
    });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no API URL: run docsync login --api URL');
    const bad = await runCli(['clone', 'not an id!', join(home, 'y')], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('SPACE must be a space id or its app URL');
  });
});
