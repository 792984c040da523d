import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startDaemon, type Daemon, type DaemonEvent } from '../../src/daemon/index.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { hostedProxy, type HostedProxy } from '../helpers/hosted-proxy.js';
import { clonedSpace, editMain } from '../sync/fixture.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const HOUR = 3_600_000;

const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, ms = EVENT_WAIT_MS) => {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const fileHas = (path: string, text: string) => async () => (await readFile(path, 'utf8').catch(() => '')).includes(text);

/** `docsync watch` follows the server's event stream where offered, and polls otherwise (issue 23). */
describe.each(testDialects())('the daemon follows platform edits as events (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  const clients: Client[] = [];
  const daemons: Daemon[] = [];
  beforeAll(async () => {
    s = await startServer(dialect, { events: { pollMs: 50 } });
    work = await mkdtemp(join(tmpdir(), 'docsync-watch-events-'));
  });
  afterAll(async () => {
    for (const d of daemons) await d.stop();
    for (const c of clients) await c.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });
  const client = (baseUrl: string) => {
    const c = createClient({ baseUrl, token: s.token, retries: 0 });
    clients.push(c);
    return c;
  };
  const start = async (c: Client, dir: string, pollMs: number, events: DaemonEvent[]) => {
    const daemon = await startDaemon({
      client: c,
      dir,
      debounceMs: 50,
      pollMs,
      backoff: { initialMs: 50, maxMs: 200 },
      onEvent: (e) => events.push(e),
    });
    daemons.push(daemon);
    return daemon;
  };

  it('writes a platform edit into the files without polling (poll interval an hour)', async () => {
    const c = client(s.url);
    const { spaceId, dir, alpha } = await clonedSpace(s, c, work, 'streamed');
    const events: DaemonEvent[] = [];
    await start(c, dir, HOUR, events);
    await waitFor('the stream', () => events.some((e) => e.type === 'remote' && e.mode === 'events'));
    await waitFor('the first cycles', () => events.filter((e) => e.type === 'pulled' || e.type === 'started').length >= 1);
    await editMain(s, spaceId, [{ operation: 'update_page', page: alpha, document: { markdown: '# Alpha\n\nedited on the platform\n' } }]);
    await waitFor('the edit on disk', fileHas(join(dir, 'README.md'), 'edited on the platform'));
    await waitFor('the pull reported', () =>
      events.some((e) => e.type === 'pulled' && e.branch === 'main' && e.files.includes('README.md')),
    );
    await editMain(s, spaceId, [{ operation: 'update_page', page: alpha, document: { markdown: '# Alpha\n\nand again\n' } }]);
    await waitFor('the second edit on disk', fileHas(join(dir, 'README.md'), 'and again'));
  });

  it('polls against the hosted API (no stream offered), never asking for one', async () => {
    const proxy: HostedProxy = await hostedProxy(s.url);
    try {
      const c = client(proxy.url);
      const { spaceId, dir, alpha } = await clonedSpace(s, c, work, 'hosted');
      const events: DaemonEvent[] = [];
      const daemon = await start(c, dir, 200, events);
      await editMain(s, spaceId, [{ operation: 'update_page', page: alpha, document: { markdown: '# Alpha\n\npolled in\n' } }]);
      await waitFor('the polled edit on disk', fileHas(join(dir, 'README.md'), 'polled in'));
      await daemon.stop();
      expect(events.filter((e) => e.type === 'remote')).toEqual([]);
      expect(proxy.seen.filter((line) => line.includes('/events'))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('polls while the stream is lost and follows it again once it is back', async () => {
    const peer = await s.peer({ events: { pollMs: 50 } });
    const port = new URL(peer.url).port;
    const c = client(peer.url);
    const { spaceId, dir, alpha } = await clonedSpace(s, c, work, 'reconnects');
    const events: DaemonEvent[] = [];
    await start(c, dir, 300, events);
    await waitFor('the stream', () => events.some((e) => e.type === 'remote' && e.mode === 'events'));
    await peer.close();
    await waitFor('the fallback to polling', () => events.some((e) => e.type === 'remote' && e.mode === 'polling'));
    await s.peer({ events: { pollMs: 50 }, port: Number(port) });
    await waitFor('the stream again', () => events.filter((e) => e.type === 'remote' && e.mode === 'events').length >= 2);
    await editMain(s, spaceId, [{ operation: 'update_page', page: alpha, document: { markdown: '# Alpha\n\nafter the restart\n' } }]);
    await waitFor('the edit on disk', fileHas(join(dir, 'README.md'), 'after the restart'));
  });
});
