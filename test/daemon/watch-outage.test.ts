import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { readState } from '../../src/sync/state/state.js';
import type { TestServer } from '../helpers/server.js';
import { clonedSpace, git, remoteMarkdown } from '../sync/fixture.js';
import { expectExitOk, spawnWatch } from './watch-process.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * The server stopped under a running daemon and started again on the same port and store: saves
 * made meanwhile are committed locally, and all of them reach the change request once it is back.
 */
describe('docsync watch across a server outage', () => {
  let work: string;
  let dataDir: string;
  let server: RunningServer;
  let port: number;
  let client: Client;
  const token = `test_${randomBytes(16).toString('hex')}`;
  const start = async (at: number) => serve({ host: '127.0.0.1', port: at, dataDir, bootstrapToken: token, jobIntervalMs: 3_600_000 });

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'docsync-watch-outage-'));
    dataDir = join(work, 'data');
    server = await start(0);
    port = Number(new URL(server.url).port);
    client = createClient({ baseUrl: server.url, token });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** The parts of the test server the fixtures use, over this restartable server. */
  function fixtureServer(orgId: string): TestServer {
    const request = async (method: string, path: string, options: { body?: unknown } = {}) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    };
    return { url: server.url, token, orgId, request } as unknown as TestServer;
  }

  it('commits saves while the server is away and pushes them all when it is back', async () => {
    const orgs = [];
    for await (const org of client.orgs.list()) orgs.push(org);
    const s = fixtureServer(orgs[0]!.id);
    const t = await clonedSpace(s, client, work, 'outage');
    const watch = spawnWatch(t.dir, { DOCSYNC_API_URL: server.url, DOCSYNC_TOKEN: token });
    try {
      await watch.waitFor((e) => e.type === 'started');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nfirst save, server up\n');
      await watch.waitFor((e) => e.type === 'pushed');

      await server.close();
      const mark = watch.events().length;
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nsecond save, server down\n');
      // A poll may find the server gone before the save settles: wait for both, in any order.
      await watch.waitFor((e) => e.type === 'committed' && e.files.includes('beta.md'), EVENT_WAIT_MS, mark);
      await watch.waitFor((e) => e.type === 'offline', EVENT_WAIT_MS, mark);
      await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo\nthree\nthird save, server still down\n');
      const committed = await watch.waitFor((e) => e.type === 'committed' && e.files.includes('README.md'), EVENT_WAIT_MS, mark);
      expect(committed.branch).toBe('main');
      expect(
        watch
          .events()
          .slice(mark)
          .filter((e) => e.type === 'committed')
          .map((e) => e.files),
      ).toEqual([['beta.md'], ['README.md']]);

      server = await start(port);
      const back = watch.events().length;
      await watch.waitFor((e) => e.type === 'online', EVENT_WAIT_MS, back);
      const pushed = await watch.waitFor((e) => e.type === 'pushed', EVENT_WAIT_MS, back);
      expect(pushed.pages).toMatchObject({ updated: 2 });
    } finally {
      await expectExitOk(watch);
    }
    const { outbox } = (await readState(t.dir)).branches.main!;
    expect(await remoteMarkdown(fixtureServer(''), t.spaceId, t.beta, outbox!.changeRequestId)).toContain('second save, server down');
    expect(await remoteMarkdown(fixtureServer(''), t.spaceId, t.alpha, outbox!.changeRequestId)).toContain('third save, server still down');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });
});
