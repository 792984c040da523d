import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { listChangeRequests } from '../../src/sync/change-requests/list.js';
import { setChangeRequestStatus } from '../../src/sync/change-requests/open-archive.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { changeRequestWith, clonedSpace, git } from './fixture.js';

describe('change requests: list, open, archive', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-crs-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const remoteStatus = async (spaceId: string, id: string) =>
    (await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${id}`)).body.status;

  it('lists the open change requests with their local branch, or none for one opened since the last pull', async () => {
    const t = await clonedSpace(s, client, work, 'listed');
    const tracked = await changeRequestWith(s, t.spaceId, 'Tracked', [{ operation: 'update_page', page: t.beta, title: 'Beta two' }]);
    await pull(client, t.dir);
    const fresh = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Fresh' } })).body;
    const archived = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Old' } })).body;
    expect(
      (await s.request('PATCH', `/v1/spaces/${t.spaceId}/change-requests/${archived.id}`, { body: { status: 'archived' } })).status,
    ).toBe(200);

    const open = await listChangeRequests(client, t.dir);
    expect(open.map((e) => [e.number, e.subject, e.status, e.branch, e.followed]).sort()).toEqual(
      [
        [fresh.number, 'Fresh', 'open', null, false],
        [tracked.number, 'Tracked', 'open', `cr/${tracked.number}-tracked`, true],
      ].sort(),
    );
    expect(open.find((e) => e.number === tracked.number)).toMatchObject({
      id: tracked.id,
      outdated: false,
      url: expect.stringMatching(new RegExp(`/change-requests/${tracked.number}$`)),
    });
    expect((await listChangeRequests(client, t.dir, { status: 'archived' })).map((e) => e.number)).toEqual([archived.number]);
    expect(await listChangeRequests(client, t.dir, { status: 'merged' })).toEqual([
      expect.objectContaining({ status: 'merged', subject: 'server edit', branch: null }),
    ]);
  });

  it('archives by branch: the platform archives it, pull stops following it, the git branch stays; open follows it again and pulls it', async () => {
    const t = await clonedSpace(s, client, work, 'archive-open');
    const cr = await changeRequestWith(s, t.spaceId, 'Maybe', [
      { operation: 'insert_page', title: 'Maybe', document: { markdown: '# Maybe\n\nfirst\n' } },
    ]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-maybe`;

    // An edit on the platform that this workspace has not pulled when it archives the change request.
    const maybe = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content/path/maybe`)).body.id;
    expect(
      (
        await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, {
          body: { changes: [{ operation: 'update_page', page: maybe, document: { markdown: '# Maybe\n\nsecond\n' } }] },
        })
      ).status,
    ).toBe(200);

    expect(await setChangeRequestStatus(client, t.dir, branch, 'archived')).toEqual({
      changeRequest: cr.number,
      status: 'archived',
      branch,
      pulled: [],
    });
    expect(await remoteStatus(t.spaceId, cr.id)).toBe('archived');
    expect((await readState(t.dir)).branches[branch]).toMatchObject({ closed: 'archived', changeRequestId: cr.id });
    expect(git(t.dir, 'branch', '--list', branch).trim()).toBe(branch);
    expect((await pull(client, t.dir)).map((r) => r.branch)).toEqual(['main']);
    expect(git(t.dir, 'show', `${branch}:maybe.md`)).toBe('# Maybe\n\nfirst\n');
    expect((await listChangeRequests(client, t.dir, { status: 'archived' }))[0]).toMatchObject({ branch, followed: false });

    // Opening it again follows the branch from where it was and pulls what came meanwhile.
    const opened = await setChangeRequestStatus(client, t.dir, branch, 'open');
    expect(opened).toMatchObject({
      changeRequest: cr.number,
      status: 'open',
      branch,
      pulled: [{ branch, changes: [{ path: 'maybe.md' }] }],
    });
    expect(await remoteStatus(t.spaceId, cr.id)).toBe('open');
    expect((await readState(t.dir)).branches[branch]!.closed).toBeUndefined();
    expect(git(t.dir, 'show', `${branch}:maybe.md`)).toBe('# Maybe\n\nsecond\n');
    expect((await pull(client, t.dir)).map((r) => r.branch)).toEqual(['main', branch]);
  });

  it('opens by number a change request archived before the clone, making its branch', async () => {
    const t = await clonedSpace(s, client, work, 'open-number');
    const cr = await changeRequestWith(s, t.spaceId, 'Forgotten', [
      { operation: 'insert_page', title: 'Forgotten', document: { markdown: '# Forgotten\n' } },
    ]);
    expect((await s.request('PATCH', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`, { body: { status: 'archived' } })).status).toBe(
      200,
    );
    const branch = `cr/${cr.number}-forgotten`;
    expect(await setChangeRequestStatus(client, t.dir, `#${cr.number}`, 'open')).toMatchObject({
      branch,
      pulled: [{ branch, created: true }],
    });
    expect(git(t.dir, 'show', `${branch}:forgotten.md`)).toMatch(/^# Forgotten\n/);
    expect((await readState(t.dir)).branches[branch]).toMatchObject({ changeRequestId: cr.id });
    // And archives it again by number, which finds its branch.
    expect(await setChangeRequestStatus(client, t.dir, String(cr.number), 'archived')).toMatchObject({ branch });
    expect((await readState(t.dir)).branches[branch]!.closed).toBe('archived');
  });

  it('refuses main, unknown branches and merged change requests', async () => {
    const t = await clonedSpace(s, client, work, 'status-refused');
    await expect(setChangeRequestStatus(client, t.dir, 'main', 'archived')).rejects.toThrow(
      'main is the live content, not a change request; cr archive works on a change request branch',
    );
    await expect(setChangeRequestStatus(client, t.dir, 'cr/9-nope', 'open')).rejects.toThrow('no branch cr/9-nope');
    const merged = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests?status=merged`)).body.items[0];
    await expect(setChangeRequestStatus(client, t.dir, `#${merged.number}`, 'open')).rejects.toThrow(
      `change request #${merged.number} is merged; its status can no longer change`,
    );
  });
});
