import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SpaceEvent } from '../../src/model/index.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { openStream, type TestStream } from '../helpers/event-stream.js';
import { createSpace } from '../helpers/spaces.js';
import { changeRequestWith } from '../sync/fixture.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** `GET /v1/spaces/{spaceId}/events` and `GET /v1/orgs/{orgId}/events` (issue 23, docs/api.md "Events"). */
describe.each(testDialects())('event streams (%s)', (dialect) => {
  let s: TestServer;
  const streams: TestStream[] = [];
  const open = async (url: string, token: string, headers?: Record<string, string>) => {
    const stream = await openStream(url, token, headers);
    streams.push(stream);
    return stream;
  };
  beforeAll(async () => {
    s = await startServer(dialect, { events: { pollMs: 50, heartbeatMs: 100 } });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await s?.close();
  });

  const page = (title: string) => ({ operation: 'insert_page', ref: title, title, document: { markdown: `# ${title}\n\nText.\n` } });

  it('advertises the extension and streams an event for each kind of change, in order, each valid', async () => {
    const space = await createSpace(s, { title: 'Streamed' });
    const stream = await open(`${s.url}/v1/spaces/${space.id}/events`, s.token);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('x-docsync-extensions')?.split(',')).toContain('space-events');

    const cr = await changeRequestWith(s, space.id, 'Draft', [page('Alpha')]);
    const comment = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, {
      body: { body: { markdown: 'Looks good' } },
    });
    expect(comment.status, JSON.stringify(comment.body)).toBe(200);
    const reply = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments/${comment.body.id}/replies`, {
      body: { body: { markdown: 'Thanks' } },
    });
    expect(reply.status).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const other = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Dropped' } })).body;
    expect((await s.request('PATCH', `/v1/spaces/${space.id}/change-requests/${other.id}`, { body: { status: 'archived' } })).status).toBe(
      200,
    );

    await stream.until('the archive', (events) => events.some((e) => e.changeRequest?.status === 'archived'));
    const head = (await s.request('GET', `/v1/spaces/${space.id}`)).body.revision as string;
    const crHead = (await s.request('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}`)).body.revision as string;
    const crRef = { id: cr.id, number: cr.number };
    expect(stream.events.map(({ type, changeRequest, revision, comment: c }) => ({ type, changeRequest, revision, comment: c }))).toEqual([
      { type: 'change-request', changeRequest: { ...crRef, status: 'open' }, revision: expect.any(String), comment: undefined },
      { type: 'revision', changeRequest: crRef, revision: crHead, comment: undefined },
      { type: 'comment', changeRequest: crRef, revision: undefined, comment: { id: comment.body.id } },
      { type: 'comment', changeRequest: crRef, revision: undefined, comment: { id: comment.body.id, reply: reply.body.id } },
      { type: 'revision', changeRequest: undefined, revision: head, comment: undefined },
      { type: 'change-request', changeRequest: { ...crRef, status: 'merged' }, revision: crHead, comment: undefined },
      {
        type: 'change-request',
        changeRequest: { id: other.id, number: other.number, status: 'open' },
        revision: expect.any(String),
        comment: undefined,
      },
      {
        type: 'change-request',
        changeRequest: { id: other.id, number: other.number, status: 'archived' },
        revision: expect.any(String),
        comment: undefined,
      },
    ]);
    for (const event of stream.events) {
      const { sseId, sseType, ...data } = event;
      expect(Value.Check(SpaceEvent, data), JSON.stringify(data)).toBe(true);
      expect(sseId).toBe(data.id);
      expect(sseType).toBe(data.type);
      expect(data.spaceId).toBe(space.id);
    }
    const ids = stream.events.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("brings a write's events to this process's subscribers at once, not at the hub's next read", async () => {
    // The hub of this server reads the table every 10 minutes: only the write's own wake brings its events.
    const slow = await s.peer({ events: { pollMs: 600_000 } });
    const space = await createSpace(s, { title: 'Woken' });
    const stream = await open(`${slow.url}/v1/spaces/${space.id}/events`, s.token);
    const res = await fetch(`${slow.url}/v1/spaces/${space.id}/change-requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ subject: 'At once' }),
    });
    expect(res.status).toBe(201);
    const cr = (await res.json()) as { id: string };
    await stream.until('the change request opened on this process', (events) =>
      events.some((e) => e.type === 'change-request' && e.changeRequest?.id === cr.id),
    );
  });

  it('reaches a subscriber of another server process on the same database', async () => {
    const peer = await s.peer({ events: { pollMs: 50 } });
    const space = await createSpace(s, { title: 'Two processes' });
    const stream = await open(`${peer.url}/v1/spaces/${space.id}/events`, s.token);
    const cr = await changeRequestWith(s, space.id, 'Elsewhere', [page('Beta')]);
    await stream.until('the write made on the other process', (events) =>
      events.some((e) => e.type === 'revision' && e.changeRequest?.id === cr.id),
    );
  });

  it('resumes after Last-Event-ID across a server restart, missing none and repeating none', async () => {
    const space = await createSpace(s, { title: 'Restarted' });
    const first = await s.peer({ events: { pollMs: 50 } });
    const before = await open(`${first.url}/v1/spaces/${space.id}/events`, s.token);
    const cr = await changeRequestWith(s, space.id, 'Before', [page('One')]);
    await before.until('the first write', (events) => events.some((e) => e.type === 'revision'));
    const last = before.events.at(-1)!.id;
    await first.close();
    await before.ended;
    // Written while nobody listened.
    for (const title of ['Two', 'Three', 'Four']) {
      const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { body: { changes: [page(title)] } });
      expect(res.status).toBe(200);
    }
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const second = await s.peer({ events: { pollMs: 50 } });
    const after = await open(`${second.url}/v1/spaces/${space.id}/events`, s.token, { 'last-event-id': last });
    await after.until('the merge', (events) => events.some((e) => e.changeRequest?.status === 'merged'));
    // Then one more, live.
    const next = await changeRequestWith(s, space.id, 'After', [page('Five')]);
    await after.until('the live write', (events) => events.some((e) => e.type === 'revision' && e.changeRequest?.id === next.id));
    const stored = await s.server.db.kysely
      .selectFrom('events')
      .select('id')
      .where('space_id', '=', space.id)
      .where('id', '>', Number(last))
      .orderBy('id')
      .execute();
    expect(after.events.map((e) => Number(e.id))).toEqual(stored.map((r) => Number(r.id)));
    expect(after.events.filter((e) => e.type === 'revision' && e.changeRequest?.id === cr.id)).toHaveLength(3);
  });

  it('shows a reader only what they can read: 404 on a hidden space, nothing of it in the organization stream', async () => {
    // A guest of the organization, given read on one space only.
    const reader = await s.user({ org: s.orgId, role: null });
    const open_ = await createSpace(s, { title: 'Open to the reader' });
    const hidden = await createSpace(s, { title: 'Hidden' });
    expect((await s.request('POST', `/v1/spaces/${open_.id}/permissions`, { body: { role: 'read', users: [reader.id] } })).status).toBe(
      204,
    );
    const refused = await open(`${s.url}/v1/spaces/${hidden.id}/events`, reader.token);
    expect(refused.status).toBe(404);
    const stranger = await s.organization('Elsewhere');
    expect((await open(`${s.url}/v1/orgs/${s.orgId}/events`, stranger.adminToken)).status).toBe(404);
    expect((await open(`${s.url}/v1/spaces/${open_.id}/events`, stranger.adminToken)).status).toBe(404);

    const org = await open(`${s.url}/v1/orgs/${s.orgId}/events`, reader.token);
    const admin = await open(`${s.url}/v1/orgs/${s.orgId}/events`, s.token);
    expect(org.status).toBe(200);
    await changeRequestWith(s, hidden.id, 'Secret', [page('Secret')]);
    const seen = await changeRequestWith(s, open_.id, 'Public', [page('Public')]);
    await admin.until('both spaces', (events) => events.some((e) => e.changeRequest?.id === seen.id && e.type === 'revision'));
    await org.until('the readable space', (events) => events.some((e) => e.changeRequest?.id === seen.id && e.type === 'revision'));
    expect(admin.events.some((e) => e.spaceId === hidden.id)).toBe(true);
    expect(org.events.filter((e) => e.spaceId === hidden.id)).toEqual([]);
  });

  it('ends the stream of a caller whose access is taken away', async () => {
    const reader = await s.user({ org: s.orgId, role: null });
    const space = await createSpace(s, { title: 'Soon hidden' });
    expect((await s.request('POST', `/v1/spaces/${space.id}/permissions`, { body: { role: 'read', users: [reader.id] } })).status).toBe(
      204,
    );
    const stream = await open(`${s.url}/v1/spaces/${space.id}/events`, reader.token);
    expect(stream.status).toBe(200);
    expect((await s.request('DELETE', `/v1/spaces/${space.id}/permissions/users/${reader.id}`)).status).toBe(205);
    await changeRequestWith(s, space.id, 'After the change', [page('Later')]);
    await stream.ended;
    expect(stream.events.filter((e) => e.type === 'revision')).toEqual([]);
  });

  it('sends heartbeats, and refuses a Last-Event-ID that is not one of its ids', async () => {
    const space = await createSpace(s, { title: 'Quiet' });
    const stream = await open(`${s.url}/v1/spaces/${space.id}/events`, s.token);
    const end = Date.now() + EVENT_WAIT_MS;
    while (stream.heartbeats < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(stream.heartbeats).toBeGreaterThanOrEqual(2);
    const bad = await s.request('GET', `/v1/spaces/${space.id}/events`, { headers: { 'last-event-id': 'yesterday' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(400);
    expect(bad.headers.get('x-docsync-extensions')).toContain('space-events');
  });
});
