import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readState } from '../../src/sync/state/state.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { git } from '../sync/fixture.js';
import { spawnCli } from './run-cli.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** `docsync up --json` as a child process; its first line is the start banner. */
function up(args: string[], env: Record<string, string>) {
  const proc = spawnCli(['up', '--json', '--debounce', '100', '--poll', '0.5', ...args], env);
  const events = () =>
    proc
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
  const waitFor = async (match: (e: any) => boolean, ms = EVENT_WAIT_MS) => {
    const until = Date.now() + ms;
    for (;;) {
      const found = events().find(match);
      if (found) return found;
      if (proc.child.exitCode !== null || Date.now() > until)
        throw new Error(`no such event; stdout: ${proc.stdout()}\nstderr: ${proc.stderr()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  // Bounded: an up that does not stop on Ctrl-C fails with what it printed instead of hanging
  // the test until its timeout, which hides the cause.
  const interrupt = async () => {
    proc.child.kill('SIGINT');
    const stopped = await Promise.race([proc.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), EVENT_WAIT_MS))]);
    if (stopped !== 'hung') return stopped;
    proc.child.kill('SIGKILL');
    throw new Error(`up did not stop ${EVENT_WAIT_MS / 1000} s after SIGINT; stdout: ${proc.stdout()}\nstderr: ${proc.stderr()}`);
  };
  return { ...proc, events, waitFor, interrupt };
}

async function get(url: string, token: string) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any };
}

describe('docsync up', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'docsync-up-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 25 });
  });

  it('starts the embedded server, makes the sample space and its workspace, watches it, and stops on Ctrl-C', async () => {
    const data = join(home, 'data');
    const workspace = join(home, 'docs-workspace');
    const config = join(home, 'config');
    const env = { XDG_CONFIG_HOME: config };

    const first = up(['--data', data, '--workspace', workspace, '--port', '0'], env);
    let token: string;
    let spaceId: string;
    try {
      const banner = await first.waitFor((e) => e.type === 'up');
      expect(banner).toMatchObject({
        embedded: true,
        workspace,
        workspaceWas: 'published',
        token: join(data, 'token'),
        space: { title: 'docsync sample' },
      });
      token = (await readFile(join(data, 'token'), 'utf8')).trim();
      expect((await stat(join(data, 'token'))).mode & 0o777).toBe(0o600);
      // No login existed: up stored one, so docsync commands in another shell work.
      expect(banner.login).toBe(join(config, 'docsync', 'credentials.json'));
      expect(JSON.parse(await readFile(banner.login, 'utf8'))).toEqual({ apiUrl: banner.api, token });
      spaceId = banner.space.id;

      // The sample is live on the platform and in the workspace, in sync.
      const content = await get(`${banner.api}/v1/spaces/${spaceId}/content`, token);
      expect(content.body.pages.map((p: any) => p.title)).toContain('Welcome');
      expect(git(workspace, 'status', '--porcelain')).toBe('');
      await first.waitFor((e) => e.type === 'started');

      // A save reaches a change request.
      const readme = join(workspace, 'README.md');
      await writeFile(readme, `${await readFile(readme, 'utf8')}\nA line written by the test.\n`);
      const pushed = await first.waitFor((e) => e.type === 'pushed');
      const { outbox } = (await readState(workspace)).branches.main!;
      expect(pushed.changeRequest.number).toBe(outbox!.changeRequestNumber);
      const page = (await readState(workspace)).branches.main!.index.pages['README.md']!;
      const markdown = await get(
        `${banner.api}/v1/spaces/${spaceId}/change-requests/${outbox!.changeRequestId}/content/page/${page}?format=markdown`,
        token,
      );
      expect(markdown.body.markdown).toContain('A line written by the test.');
    } finally {
      expect(await first.interrupt(), first.stderr()).toBe(0);
    }
    expect(first.events().at(-1)).toMatchObject({ type: 'stopped', reason: 'SIGINT' });

    // The next run keeps the workspace and the space; a new port is followed by the workspace.
    const second = up(['--data', data, '--workspace', workspace, '--port', '0'], env);
    try {
      const banner = await second.waitFor((e) => e.type === 'up');
      expect(banner).toMatchObject({ workspaceWas: 'kept', space: { id: spaceId } });
      // The login of the first run named the old port: it follows the server (same token).
      expect(banner.login).toBe(join(config, 'docsync', 'credentials.json'));
      expect(JSON.parse(await readFile(banner.login, 'utf8'))).toEqual({ apiUrl: banner.api, token });
      expect((await readState(workspace)).binding.apiUrl).toBe(banner.api);
      const spaces = await get(`${banner.api}/v1/orgs/${(await get(`${banner.api}/v1/orgs`, token)).body.items[0].id}/spaces`, token);
      expect(spaces.body.items).toHaveLength(1);
      await second.waitFor((e) => e.type === 'started');
      // A second `up` on the same workspace refuses before it starts a server or touches the binding.
      const binding = (await readState(workspace)).binding;
      const another = up(['--data', data, '--workspace', workspace, '--port', '0'], env);
      expect(await another.exited).toBe(5);
      expect(another.stderr()).toContain(`another docsync daemon (pid ${second.child.pid} `);
      expect(another.stdout()).toBe('');
      expect((await readState(workspace)).binding).toEqual(binding);
    } finally {
      expect(await second.interrupt(), second.stderr()).toBe(0);
    }

    // A workspace folder deleted by hand is cloned again from the same space.
    await rm(workspace, { recursive: true, force: true });
    const third = up(['--data', data, '--workspace', workspace, '--port', '0'], env);
    try {
      const banner = await third.waitFor((e) => e.type === 'up');
      expect(banner).toMatchObject({ workspaceWas: 'cloned', space: { id: spaceId } });
      expect(existsSync(join(workspace, 'README.md'))).toBe(true);
    } finally {
      expect(await third.interrupt(), third.stderr()).toBe(0);
    }
  }, 300_000); // four runs of up, each a server start, a publish or clone, and a daemon: 17 s quiet, 46-53 s at load 10, over 120 s once in CI

  it("leaves a login for another server alone, and says how to use this server's token", async () => {
    const config = join(home, 'config-other');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(config, 'docsync'), { recursive: true });
    const theirs = { apiUrl: 'https://docs.example.com', token: 'theirs' };
    await writeFile(join(config, 'docsync', 'credentials.json'), JSON.stringify(theirs));
    const run = up(['--data', join(home, 'data-other'), '--workspace', join(home, 'ws-other'), '--port', '0'], { XDG_CONFIG_HOME: config });
    try {
      const banner = await run.waitFor((e) => e.type === 'up');
      expect(banner.login).toBeUndefined();
      expect(banner.otherLogin).toBe('https://docs.example.com');
      expect(JSON.parse(await readFile(join(config, 'docsync', 'credentials.json'), 'utf8'))).toEqual(theirs);
      await run.waitFor((e) => e.type === 'started');
    } finally {
      expect(await run.interrupt(), run.stderr()).toBe(0);
    }
  });

  it('refuses a folder that is not a workspace, and says which', async () => {
    const workspace = join(home, 'not-a-workspace');
    await rm(workspace, { recursive: true, force: true });
    await writeFile(join(home, 'placeholder'), '');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(workspace);
    await writeFile(join(workspace, 'notes.txt'), 'mine\n');
    const run = up(['--data', join(home, 'data-2'), '--workspace', workspace, '--port', '0'], { XDG_CONFIG_HOME: join(home, 'config-2') });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain(`${workspace} exists and is not a docsync workspace`);
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  describe('with DOCSYNC_API_URL', () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startServer('sqlite');
    });
    afterAll(async () => {
      await s?.close();
    });

    it('uses that API: the sample space is made there, no embedded server, no data folder', async () => {
      const data = join(home, 'unused-data');
      const workspace = join(home, 'remote-workspace');
      const run = up(['--data', data, '--workspace', workspace], {
        DOCSYNC_API_URL: s.url,
        DOCSYNC_TOKEN: s.token,
        XDG_CONFIG_HOME: join(home, 'config-3'),
      });
      try {
        const banner = await run.waitFor((e) => e.type === 'up');
        expect(banner).toMatchObject({ embedded: false, api: s.url, token: 'DOCSYNC_TOKEN', workspaceWas: 'published' });
        expect((await s.request('GET', `/v1/spaces/${banner.space.id}`)).status).toBe(200);
        await run.waitFor((e) => e.type === 'started');
      } finally {
        expect(await run.interrupt(), run.stderr()).toBe(0);
      }
      expect(existsSync(data)).toBe(false);
      expect(existsSync(join(home, 'config-3'))).toBe(false);
    });
  });
});
