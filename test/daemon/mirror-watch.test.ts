import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { watchMirror, type MirrorWatch, type MirrorWatchEvent } from '../../src/daemon/index.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { hostedProxy } from '../helpers/hosted-proxy.js';
import { spawnCli } from '../cli/spawn-cli.js';
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

/** `docsync mirror --watch` keeps an organization's folders current from its event stream (issue 23). */
describe.each(testDialects())('mirror --watch (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  const clients: Client[] = [];
  const watches: MirrorWatch[] = [];
  beforeAll(async () => {
    s = await startServer(dialect, { events: { pollMs: 50 } });
    work = await mkdtemp(join(tmpdir(), 'docsync-mirror-watch-'));
  });
  afterAll(async () => {
    for (const w of watches) await w.stop();
    for (const c of clients) await c.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** An organization of its own (so a mirror holds only this test's spaces), with its admin's token. */
  const organization = async (title: string) => {
    const org = await s.organization(title);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await s.request(method, path, { token: org.adminToken, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body;
    };
    /** Writes `markdown` as the first page of the space on main (a change request merged at once); the page's id. */
    const write = async (spaceId: string, markdown: string, page?: string): Promise<string> => {
      const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'platform edit' });
      const change = page
        ? { operation: 'update_page', page, document: { markdown } }
        : { operation: 'insert_page', title: 'Home', document: { markdown } };
      const written = await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { changes: [change] });
      await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
      return page ?? (written.changes[0].page.id as string);
    };
    const space = async (title: string) => {
      const created = await call('POST', `/v1/orgs/${org.id}/spaces`, { title, empty: true });
      return { id: created.id as string, page: await write(created.id, '# Home\n\nfirst text\n') };
    };
    return { ...org, call, write, space };
  };

  const start = (client: Client, orgId: string, dir: string, pollMs: number, events: MirrorWatchEvent[]) => {
    const watch = watchMirror({
      client,
      apiUrl: s.url,
      orgId,
      dir,
      pollMs,
      backoff: { initialMs: 50, maxMs: 200 },
      onEvent: (e) => events.push(e),
    });
    watches.push(watch);
    return watch;
  };

  it("pulls the space a platform edit changed, and clones a new space, from the organization's stream without polling", async () => {
    const org = await organization('Streamed');
    const runbooks = await org.space('Runbooks');
    const guides = await org.space('Guides');
    const client = createClient({ baseUrl: s.url, token: org.adminToken, retries: 0 });
    clients.push(client);
    const dir = join(work, 'streamed');
    const events: MirrorWatchEvent[] = [];
    const watch = start(client, org.id, dir, HOUR, events);
    await waitFor('the stream', () => events.some((e) => e.type === 'remote' && e.mode === 'events'));
    // The first pass clones both; the one on connecting catches up with what came meanwhile.
    await waitFor('both cloned', () => events.filter((e) => e.type === 'space' && e.action === 'cloned').length === 2);
    await waitFor('the pass on connecting', () => events.filter((e) => e.type === 'pass' && e.all).length >= 2);
    expect(await readFile(join(dir, 'runbooks', 'README.md'), 'utf8')).toContain('first text');

    const from = events.length;
    await org.write(runbooks.id, '# Home\n\nedited on the platform\n', runbooks.page);
    await waitFor('the edit on disk', fileHas(join(dir, 'runbooks', 'README.md'), 'edited on the platform'));
    await waitFor('the pass', () => events.slice(from).some((e) => e.type === 'pass'));
    // That space alone was pulled: no pass over every space, no poll (an hour away).
    const after = events.slice(from);
    expect(after.filter((e) => e.type === 'pass').every((e) => e.type === 'pass' && !e.all && e.spaces === 1)).toBe(true);
    expect(after.filter((e) => e.type === 'space').map((e) => e.type === 'space' && e.spaceId)).not.toContain(guides.id);

    // A space the mirror has no folder for: a pass over every space clones it.
    const fresh = await org.space('Release notes');
    await waitFor('the new space cloned', () => events.some((e) => e.type === 'space' && e.spaceId === fresh.id && e.action === 'cloned'));
    // Cloned at its first event (maybe still empty), then pulled at the merge's.
    await waitFor('its page on disk', fileHas(join(dir, 'release-notes', 'README.md'), 'first text'));
    expect(events.some((e) => e.type === 'error')).toBe(false);

    await watch.stop();
    expect(events.at(-1)).toMatchObject({ type: 'stopped' });
    expect(watch.failure).toBeUndefined();
  });

  it('polls against the hosted API (no stream offered), never asking for one', async () => {
    const org = await organization('Polled');
    const manual = await org.space('Manual');
    const proxy = await hostedProxy(s.url);
    try {
      const client = createClient({ baseUrl: proxy.url, token: org.adminToken, retries: 0 });
      clients.push(client);
      const dir = join(work, 'polled');
      const events: MirrorWatchEvent[] = [];
      const watch = start(client, org.id, dir, 200, events);
      await waitFor('the clone', fileHas(join(dir, 'manual', 'README.md'), 'first text'));
      await org.write(manual.id, '# Home\n\npolled in\n', manual.page);
      await waitFor('the polled edit on disk', fileHas(join(dir, 'manual', 'README.md'), 'polled in'));
      await watch.stop();
      expect(proxy.seen.some((line) => line.includes('/events'))).toBe(false);
      expect(events.some((e) => e.type === 'remote' && e.mode === 'events')).toBe(false);
    } finally {
      await proxy.close();
    }
  });

  it('runs as `docsync mirror DIR --org ORG --watch --json` until SIGTERM, exit 0', async () => {
    const org = await organization('Command');
    const handbook = await org.space('Handbook');
    const dir = join(work, 'command');
    const env = { XDG_CONFIG_HOME: join(work, 'config-command'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: org.adminToken };
    const proc = spawnCli(['mirror', dir, '--org', org.id, '--watch', '--json', '--poll', '3600'], env);
    const events = () =>
      proc
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as MirrorWatchEvent);
    try {
      await waitFor('the stream', () => events().some((e) => e.type === 'remote' && e.mode === 'events'));
      await waitFor('the clone', fileHas(join(dir, 'handbook', 'README.md'), 'first text'));
      await org.write(handbook.id, '# Home\n\nfrom the stream\n', handbook.page);
      await waitFor('the edit on disk', fileHas(join(dir, 'handbook', 'README.md'), 'from the stream'));
    } finally {
      proc.child.kill('SIGTERM');
    }
    expect(await proc.exited, proc.stderr()).toBe(0);
    expect(events().at(0)).toMatchObject({ type: 'started', orgId: org.id });
    expect(events().at(-1)).toMatchObject({ type: 'stopped' });
  });
});
