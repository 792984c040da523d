import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { httpFixture, type Fixture } from '../client/http-fixture.js';
import { createClient } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { readState } from '../../src/sync/state/state.js';
import { hostedProxy } from '../helpers/hosted-proxy.js';
import { changeRequestWith, editMain, git } from './fixture.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** How clone reads the space: main and the change requests at once, each base once. */
describe('clone fetches', () => {
  let s: TestServer;
  let work: string;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-clone-fetch-'));
  });
  afterAll(async () => {
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /**
   * Forwards to the server, but holds main's revision read until a change request's content is
   * asked for: a clone that reads them at once goes on as soon as it asks; one that reads them one
   * after the other would wait for ever, so after EVENT_WAIT_MS (the bound of any wait on an event
   * here; 20 s once, which a loaded machine's clone could pass between two reads) main's read goes on and the clone is seen not to overlap.
   */
  async function holdingMain(spaceId: string): Promise<Fixture & { overlapped: () => boolean }> {
    let overlapped = false;
    let release: () => void = () => undefined;
    const crAsked = new Promise<void>((resolve) => (release = resolve));
    const proxy = await httpFixture(async (req, res, seen) => {
      const path = new URL(seen.url, s.url).pathname;
      if (path === `/v1/spaces/${spaceId}/content`) {
        const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), EVENT_WAIT_MS));
        overlapped = await Promise.race([crAsked.then(() => true), timer]);
      }
      if (/\/change-requests\/[^/]+\/content$/.test(path)) release();
      const upstream = await fetch(new URL(seen.url, s.url), {
        method: req.method ?? 'GET',
        headers: { authorization: seen.authorization ?? '' },
      });
      const headers: Record<string, string> = { 'content-type': upstream.headers.get('content-type') ?? 'application/json' };
      const extensions = upstream.headers.get('x-docsync-extensions');
      if (extensions) headers['x-docsync-extensions'] = extensions;
      res.writeHead(upstream.status, headers);
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    return { ...proxy, overlapped: () => overlapped };
  }

  it('reads main and the change requests at once; change requests on an older base read it once', async () => {
    const spaceId = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Concurrent', empty: true } })).body.id;
    await editMain(s, spaceId, [{ operation: 'insert_page', title: 'Alpha', document: { markdown: '# Alpha\n\nfirst\n' } }]);
    const oldBase = (await s.request('GET', `/v1/spaces/${spaceId}`)).body.revision as string;
    const first = await changeRequestWith(s, spaceId, 'First on old base', [
      { operation: 'insert_page', title: 'One', document: { markdown: '# One\n\n1\n' } },
    ]);
    const second = await changeRequestWith(s, spaceId, 'Second on old base', [
      { operation: 'insert_page', title: 'Two', document: { markdown: '# Two\n\n2\n' } },
    ]);
    await editMain(s, spaceId, [{ operation: 'insert_page', title: 'Beta', document: { markdown: '# Beta\n\nlater\n' } }]);
    const third = await changeRequestWith(s, spaceId, 'Third on main', [
      { operation: 'insert_page', title: 'Three', document: { markdown: '# Three\n\n3\n' } },
    ]);

    const proxy = await holdingMain(spaceId);
    const client = createClient({ baseUrl: proxy.url, token: s.token });
    const dir = join(work, 'concurrent');
    try {
      const events: { stage: string; done: number; total: number }[] = [];
      const result = await clone({ client, apiUrl: s.url, spaceId, dir, onProgress: (event) => events.push({ ...event }) });
      expect(proxy.overlapped()).toBe(true);
      // Pages of main (2), the old base (1) and the three change requests (2, 2 and 3).
      expect(events.filter((e) => e.stage === 'pages').at(-1)).toEqual({ stage: 'pages', done: 10, total: 10 });
      expect(proxy.seen.filter((r) => r.url.startsWith(`/v1/spaces/${spaceId}/revisions/${oldBase}`)).map((r) => r.url)).toEqual([
        `/v1/spaces/${spaceId}/revisions/${oldBase}`,
      ]);

      const branch = (cr: { number: number }) => result.branches.find((b) => b.changeRequest === cr.number)!.branch;
      // In the listing's order, as before: main, then each open change request.
      const listed = (await s.request('GET', `/v1/spaces/${spaceId}/change-requests?status=open`)).body.items.map(
        (cr: { number: number }) => cr.number,
      );
      expect(result.branches.map((b) => b.changeRequest)).toEqual([undefined, ...listed]);
      expect([...listed].sort()).toEqual([first.number, second.number, third.number].sort());
      // A change request on main's revision sits on main's commit; the others on a commit of their base.
      expect(git(dir, 'rev-parse', `${branch(third)}^`)).toBe(git(dir, 'rev-parse', 'main'));
      for (const cr of [first, second]) {
        const parent = git(dir, 'rev-parse', `${branch(cr)}^`).trim();
        expect(parent).toBe(git(dir, 'rev-parse', `refs/docsync/base/${cr.number}`).trim());
        expect(git(dir, 'log', '-1', '--format=%s', parent).trim()).toBe(
          `docsync: base of change request #${cr.number} (revision ${oldBase})`,
        );
        expect(git(dir, 'show', `${parent}:SUMMARY.md`)).not.toContain('Beta');
      }
      expect(git(dir, 'show', `${branch(first)}:SUMMARY.md`)).toContain('[One]');
      expect(git(dir, 'show', `${branch(second)}:SUMMARY.md`)).toContain('[Two]');
      expect(git(dir, 'show', `${branch(third)}:SUMMARY.md`)).toContain('[Beta]');
      expect(git(dir, 'status', '--porcelain')).toBe('');
      const state = await readState(dir);
      expect(Object.keys(state.branches)).toEqual(result.branches.map((b) => b.branch));
      expect(state.branches[branch(first)]).toMatchObject({
        changeRequestId: first.id,
        changeRequestNumber: first.number,
        syncedCommit: git(dir, 'rev-parse', branch(first)).trim(),
      });
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('downloads each file once, though main and two change requests read at the same time all hold it', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'files', empty: true } })).body;
    const files = Array.from({ length: 6 }, (_, i) => ({
      name: `image-${i}.png`,
      contentType: 'image/png',
      base64: Buffer.from(`bytes ${i}`).toString('base64'),
    }));
    await editMain(s, space.id, [
      { operation: 'insert_page', title: 'Alpha', document: { markdown: '# Alpha\n\none\n' } },
      { operation: 'insert_files', files },
    ]);
    await changeRequestWith(s, space.id, 'One', [{ operation: 'insert_page', title: 'One', document: { markdown: '# One\n' } }]);
    await changeRequestWith(s, space.id, 'Two', [{ operation: 'insert_page', title: 'Two', document: { markdown: '# Two\n' } }]);
    // A counting proxy: the download URLs the server gives name it, so downloads are seen.
    const counting = await hostedProxy(s.url, { passThrough: true });
    const client = createClient({ baseUrl: counting.url, token: s.token });
    try {
      const dir = join(work, 'files');
      await clone({ client, apiUrl: counting.url, spaceId: space.id, dir });
      expect(counting.seen.filter((r) => r.endsWith('/download'))).toHaveLength(files.length);
      expect(git(dir, 'show', `main:.gitbook/assets/image-5.png`)).toBe('bytes 5');
    } finally {
      await client.close();
      await counting.close();
    }
  });
});
