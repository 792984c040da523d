import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { loadFolder } from '../../src/workspace/index.js';

// A committer identity of its own: CI machines have no git config.
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test', ...args], { cwd: dir, encoding: 'utf8' });

describe('pull', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-pull-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** A space with two pages on main (Alpha is the first page: README.md), cloned into a new folder. */
  async function clonedSpace(name: string) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
    const ids = await editOnServer(space.id, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\none\ntwo\nthree\n' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\nbeta text\n' } },
    ]);
    const dir = join(work, name);
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
    return { spaceId: space.id as string, dir, alpha: ids.get('a')!, beta: ids.get('b')! };
  }

  /** Applies changes to main through a change request merged right away. */
  async function editOnServer(spaceId: string, changes: unknown[]): Promise<Map<string, string>> {
    const cr = (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'server edit' } })).body;
    const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { body: { changes } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    return new Map(res.body.changes.filter((c: any) => c.ref).map((c: any) => [c.ref, c.page.id]));
  }

  async function expectFolderIsRemote(dir: string, spaceId: string) {
    const expected = snapshotOf(await fetchContent(client, { space: spaceId })).files;
    const onDisk = await loadFolder(dir);
    expect([...onDisk.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected)
      expect(Buffer.from(onDisk.get(path) as Uint8Array).toString(), path).toBe(Buffer.from(bytes).toString());
  }

  it('brings main to the remote head when nothing changed locally, and reports what changed', async () => {
    const t = await clonedSpace('plain');
    expect((await pull(client, t.dir))[0]).toMatchObject({ branch: 'main', changes: [], conflicts: [] });
    await editOnServer(t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nTWO\nthree\n' } },
      { operation: 'insert_page', title: 'Gamma', document: { markdown: '# Gamma\n\nnew\n' } },
    ]);
    const [main] = await pull(client, t.dir);
    expect(main!.changes.map((c) => `${c.status} ${c.path}`)).toEqual(['modified README.md', 'modified SUMMARY.md', 'added gamma.md']);
    await expectFolderIsRemote(t.dir, t.spaceId);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    const head = (await s.request('GET', `/v1/spaces/${t.spaceId}`)).body.revision;
    expect((await readState(t.dir)).branches.main!.remoteRevision).toBe(head);
  });

  it('merges remote edits with local commits and uncommitted edits, line by line', async () => {
    const t = await clonedSpace('merging');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, edited locally\n');
    git(t.dir, 'commit', '-qam', 'local commit');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\nONE (local, not committed)\ntwo\nthree\n');
    await editOnServer(t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nTHREE (remote)\n' } },
    ]);

    const [main] = await pull(client, t.dir);
    expect(main!.conflicts).toEqual([]);
    expect(main!.savedLocalEdits).toMatch(/^[0-9a-f]{40}$/);
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toBe('# Alpha\n\nONE (local, not committed)\ntwo\nTHREE (remote)\n');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nbeta text, edited locally\n');
    // Every earlier state is still in git: the saved edits commit is an ancestor of main.
    expect(git(t.dir, 'log', '--format=%s', 'main')).toContain('docsync: save local edits before pulling');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });

  it('leaves git-style markers where both sides changed the same lines', async () => {
    const t = await clonedSpace('conflicting');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\nlocal two\nthree\n');
    git(t.dir, 'commit', '-qam', 'local');
    await editOnServer(t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nremote two\nthree\n' } },
    ]);
    const [main] = await pull(client, t.dir);
    expect(main!.conflicts).toEqual(['README.md']);
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toBe(
      '# Alpha\n\none\n<<<<<<< local\nlocal two\n=======\nremote two\n>>>>>>> remote\nthree\n',
    );
    expect(git(t.dir, 'log', '-1', '--format=%s', 'main')).toContain('with conflicts in README.md');
  });

  it('makes a branch for a change request opened after the clone', async () => {
    const t = await clonedSpace('late-cr');
    const cr = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Late idea' } })).body;
    expect(
      (
        await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, {
          body: { changes: [{ operation: 'insert_page', title: 'Idea', document: { markdown: '# Idea\n\nLater.\n' } }] },
        })
      ).status,
    ).toBe(200);
    const results = await pull(client, t.dir);
    const branch = `cr/${cr.number}-late-idea`;
    expect(results.find((r) => r.branch === branch)).toMatchObject({ created: true, conflicts: [] });
    expect(git(t.dir, 'show', `${branch}:idea.md`)).toBe('# Idea\n\nLater.\n');
    expect(git(t.dir, 'rev-parse', `${branch}^`).trim()).toBe(git(t.dir, 'rev-parse', 'main').trim());
    expect((await readState(t.dir)).branches[branch]).toMatchObject({ changeRequestId: cr.id, changeRequestNumber: cr.number });
    // A second pull finds the branch tracked and up to date.
    expect((await pull(client, t.dir)).find((r) => r.branch === branch)).toMatchObject({ changes: [], conflicts: [] });
  });

  it("makes the branch of a change request opened with nothing written in it from main's tree, reading none of its content", async () => {
    const t = await clonedSpace('empty-cr');
    const counted = createClient({ baseUrl: s.url, token: s.token });
    try {
      await pull(counted, t.dir);
      const quiet = counted.stats.requests;
      await pull(counted, t.dir);
      const perPull = counted.stats.requests - quiet;
      const cr = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Just opened' } })).body;
      const before = counted.stats.requests;
      const results = await pull(counted, t.dir);
      const branch = `cr/${cr.number}-just-opened`;
      expect(results.find((r) => r.branch === branch)).toMatchObject({ created: true, conflicts: [] });
      // What a pull with nothing new asks, and no read of the change request's pages.
      expect(counted.stats.requests - before).toBe(perPull);
      expect(git(t.dir, 'rev-parse', `${branch}^{tree}`)).toBe(git(t.dir, 'rev-parse', 'main^{tree}'));
      expect(git(t.dir, 'rev-parse', `${branch}^`).trim()).toBe(git(t.dir, 'rev-parse', 'main').trim());
      expect((await readState(t.dir)).branches[branch]).toMatchObject({ changeRequestId: cr.id, remoteRevision: cr.revision });
      // What is written in it afterwards comes in as into any branch.
      const edit = { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\nEdited in the change request.\n' } };
      expect(
        (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, { body: { changes: [edit] } })).status,
      ).toBe(200);
      await pull(counted, t.dir);
      expect(git(t.dir, 'show', `${branch}:README.md`)).toBe('# Alpha\n\nEdited in the change request.\n');
    } finally {
      await counted.close();
    }
  });

  it('pulls a change request branch', async () => {
    const t = await clonedSpace('with-cr');
    const cr = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Draft' } })).body;
    const dir = join(work, 'with-cr-2');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir });
    const branch = `cr/${cr.number}-draft`;
    expect(
      (
        await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, {
          body: { changes: [{ operation: 'update_page', page: t.beta, title: 'Beta two' }] },
        })
      ).status,
    ).toBe(200);
    const results = await pull(client, dir);
    expect(results.find((r) => r.branch === branch)!.changes.map((c) => c.path)).toEqual(['SUMMARY.md', 'beta.md']);
    expect(git(dir, 'show', `${branch}:SUMMARY.md`)).toContain('[Beta two](beta.md)');
    expect(results.find((r) => r.branch === 'main')!.changes).toEqual([]);
  });
});
