import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState, writeState } from '../../src/sync/state/state.js';
import { listChangeRequests } from '../../src/sync/change-requests/list.js';
import { changeRequestWith, clonedSpace, editMain, git } from './fixture.js';

/** Which branches pull follows: some only, not the closed ones, and the ones opened again. */
describe('pull: followed branches', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-pull-following-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const setStatus = async (spaceId: string, id: string, status: string) =>
    expect((await s.request('PATCH', `/v1/spaces/${spaceId}/change-requests/${id}`, { body: { status } })).status).toBe(200);
  const editCr = async (spaceId: string, id: string, changes: unknown[]) =>
    expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${id}/content`, { body: { changes } })).status).toBe(200);

  it('pulls only the branches named, and opens no branch for new change requests then', async () => {
    const t = await clonedSpace(s, client, work, 'only');
    const cr = await changeRequestWith(s, t.spaceId, 'Tracked', [{ operation: 'update_page', page: t.beta, title: 'Beta two' }]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-tracked`;
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\nmain edit\n' } }]);
    await editCr(t.spaceId, cr.id, [{ operation: 'update_page', page: t.beta, title: 'Beta three' }]);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Untracked yet' } })).status).toBe(201);

    const results = await pull(client, t.dir, { branches: [branch] });
    expect(results.map((r) => r.branch)).toEqual([branch]);
    expect(git(t.dir, 'show', `${branch}:SUMMARY.md`)).toContain('[Beta three](beta.md)');
    expect(git(t.dir, 'show', 'main:README.md')).not.toContain('main edit');
    expect(Object.keys((await readState(t.dir)).branches)).toEqual(['main', branch]);

    await expect(pull(client, t.dir, { branches: ['cr/404-none'] })).rejects.toThrow('branch cr/404-none is not tracked by docsync');
  });

  it('pulls a change request archived on the platform one last time, then no more; follows it again once opened again', async () => {
    const t = await clonedSpace(s, client, work, 'archived-remotely');
    const cr = await changeRequestWith(s, t.spaceId, 'Shelf', [
      { operation: 'insert_page', title: 'Shelf', document: { markdown: '# Shelf\n\nfirst\n' } },
    ]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-shelf`;
    await editCr(t.spaceId, cr.id, [
      {
        operation: 'update_page',
        page: (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content/path/shelf`)).body.id,
        document: { markdown: '# Shelf\n\nsecond\n' },
      },
    ]);
    await setStatus(t.spaceId, cr.id, 'archived');

    const last = (await pull(client, t.dir)).find((r) => r.branch === branch);
    expect(last).toMatchObject({ closed: 'archived', changes: [{ path: 'shelf.md', status: 'modified' }] });
    expect(git(t.dir, 'show', `${branch}:shelf.md`)).toBe('# Shelf\n\nsecond\n');
    expect((await readState(t.dir)).branches[branch]!.closed).toBe('archived');
    expect((await pull(client, t.dir)).map((r) => r.branch)).toEqual(['main']);
    await expect(pull(client, t.dir, { branches: [branch] })).rejects.toThrow(
      `branch ${branch} is no longer followed (its change request is archived); run docsync cr open ${branch} to follow it again`,
    );

    // Local work on the branch while it was not followed is kept when it is followed again.
    git(t.dir, 'checkout', '-q', branch);
    git(t.dir, 'commit', '-q', '--allow-empty', '-m', 'still here');
    await setStatus(t.spaceId, cr.id, 'open');
    const again = (await pull(client, t.dir)).find((r) => r.branch === branch);
    expect(again).toMatchObject({ reopened: true, conflicts: [] });
    expect((await readState(t.dir)).branches[branch]!.closed).toBeUndefined();
    expect(git(t.dir, 'log', '--format=%s', branch)).toContain('still here');
  });

  it('stops following a branch whose change request was merged on the platform', async () => {
    const t = await clonedSpace(s, client, work, 'merged-remotely');
    const cr = await changeRequestWith(s, t.spaceId, 'Web', [{ operation: 'update_page', page: t.beta, title: 'Beta web' }]);
    await pull(client, t.dir);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const results = await pull(client, t.dir);
    expect(results.find((r) => r.branch === `cr/${cr.number}-web`)).toMatchObject({ closed: 'merged', changes: [] });
    expect(git(t.dir, 'show', 'main:SUMMARY.md')).toContain('[Beta web](beta.md)');
    expect((await pull(client, t.dir)).map((r) => r.branch)).toEqual(['main']);
  });

  it("makes no branch for main's outbox change request: main's own commits go there", async () => {
    const t = await clonedSpace(s, client, work, 'outbox');
    const cr = await changeRequestWith(s, t.spaceId, 'Edits on main', [{ operation: 'update_page', page: t.beta, title: 'Beta two' }]);
    const state = await readState(t.dir);
    const main = state.branches.main!;
    await writeState(t.dir, {
      ...state,
      branches: { main: { ...main, outbox: { ...main, changeRequestId: cr.id, changeRequestNumber: cr.number } } },
    });
    expect((await pull(client, t.dir)).map((r) => r.branch)).toEqual(['main']);
    expect(Object.keys((await readState(t.dir)).branches)).toEqual(['main']);
    expect((await listChangeRequests(client, t.dir)).map((e) => [e.number, e.branch, e.followed])).toEqual([[cr.number, 'main', true]]);
  });
});
