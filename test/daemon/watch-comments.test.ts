import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { clone, pull } from '../../src/sync/index.js';
import { readDaemonStatus, startDaemon, type DaemonEvent } from '../../src/daemon/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { changeRequestWith, editMain, git } from '../sync/fixture.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** `docsync watch` tells the writer about review comments as they arrive (issue 17). */
describe('the daemon reports new comments', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let reviewer: { id: string; token: string };
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-watch-comments-'));
    client = createClient({ baseUrl: s.url, token: s.token });
    reviewer = await s.user({ org: s.orgId, role: 'comment', name: 'Rita Reviewer' });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const waitFor = async (what: string, ok: () => boolean | Promise<boolean>, ms = EVENT_WAIT_MS) => {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  it("prints a reviewer's comment on a followed change request at its block's line, then the replies, but not what was there before", async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'watched', empty: true } })).body;
    await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'inherit' } });
    const ids = await editMain(s, space.id, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\nOne.\n\nTwo.\n' } },
    ]);
    const alpha = ids.get('a')!;
    const dir = join(work, 'watched');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
    const cr = await changeRequestWith(s, space.id, 'Review', [
      { operation: 'update_page', page: alpha, document: { markdown: '# Alpha\n\nOne.\n\nTwo, better.\n' } },
    ]);
    await pull(client, dir);
    const base = `/v1/spaces/${space.id}/change-requests/${cr.id}`;
    const comment = async (markdown: string, text?: string) => {
      let node: string | undefined;
      if (text !== undefined) {
        const page = await s.request('GET', `${base}/content/page/${alpha}?format=document`, { token: reviewer.token });
        node = (page.body.document.nodes as { key: string; nodes: { leaves: { text: string }[] }[] }[]).find(
          (b) => b.nodes.map((n) => n.leaves.map((l) => l.text).join('')).join('') === text,
        )!.key;
      }
      const res = await s.request('POST', `${base}/comments`, {
        token: reviewer.token,
        body: { body: { markdown }, page: alpha, ...(node ? { node } : {}) },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { id: string };
    };
    const before = await comment('Old news');

    const events: DaemonEvent[] = [];
    const daemon = await startDaemon({ client, dir, debounceMs: 50, pollMs: 150, onEvent: (e) => events.push(e) });
    try {
      // The first cycle (its pull took note of the comments already there) is over once the daemon idles.
      await waitFor('the first cycle', async () => (await readDaemonStatus(dir))?.activity === 'idle');
      // The writer adds lines above the block: the comment is reported where the block is now.
      git(dir, 'checkout', '-q', `cr/${cr.number}-review`);
      await writeFile(join(dir, 'README.md'), '# Alpha\n\nNew intro.\n\nOne.\n\nTwo, better.\n');
      await waitFor('the save to be pushed', () => events.some((e) => e.type === 'pushed'));
      const c = await comment('Why better?', 'Two, better.');
      await waitFor('the comment', () => events.some((e) => e.type === 'comment'));
      const reply = await s.request('POST', `${base}/comments/${c.id}/replies`, { body: { body: { markdown: 'Clearer.' } } });
      expect(reply.status).toBe(200);
      await waitFor('the reply', () => events.some((e) => e.type === 'comment' && e.replyTo === c.id));
      const arrived = events.filter((e) => e.type === 'comment');
      expect(arrived).toEqual([
        {
          type: 'comment',
          branch: `cr/${cr.number}-review`,
          place: `#${cr.number}`,
          id: c.id,
          path: 'README.md',
          line: 7,
          author: 'Rita Reviewer',
          text: 'Why better?',
        },
        expect.objectContaining({ type: 'comment', id: reply.body.id, replyTo: c.id, path: 'README.md', line: 7, text: 'Clearer.' }),
      ]);
      expect(arrived.map((e) => (e as { id: string }).id)).not.toContain(before.id);
    } finally {
      await daemon.stop();
    }
  });
});
