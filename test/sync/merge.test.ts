import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { httpFixture, json } from '../client/http-fixture.js';
import { createClient, type Client } from '../../src/client/index.js';
import { merge } from '../../src/sync/change-requests/merge.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { loadFolder } from '../../src/workspace/index.js';
import { changeRequestWith, clonedSpace, editMain, git } from './fixture.js';

describe('merge', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-merge-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const crStatus = async (spaceId: string, id: string) =>
    (await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${id}`)).body.status;

  it("merges the branch's change request, pulls main to the merged content, and stops following the branch", async () => {
    const t = await clonedSpace(s, client, work, 'merged');
    const cr = await changeRequestWith(s, t.spaceId, 'Better alpha', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nTWO, better\nthree\n' } },
    ]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-better-alpha`;
    // A second edit pulled onto the branch: its head is now a pull commit, not the synced commit
    // itself, and holds nothing unpushed.
    expect(
      (
        await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, {
          body: { changes: [{ operation: 'update_page', page: t.beta, title: 'Beta two' }] },
        })
      ).status,
    ).toBe(200);
    await pull(client, t.dir);
    expect(git(t.dir, 'rev-parse', branch).trim()).not.toBe((await readState(t.dir)).branches[branch]!.syncedCommit);
    git(t.dir, 'checkout', '-q', branch);

    const result = await merge(client, t.dir);
    expect(result).toMatchObject({ kind: 'merged', branch, changeRequest: cr.number, already: false });
    expect(await crStatus(t.spaceId, cr.id)).toBe('merged');
    const space = (await s.request('GET', `/v1/spaces/${t.spaceId}`)).body;
    expect(result.kind === 'merged' && result.revision).toBe(space.revision);

    // main now holds exactly the space's live content.
    expect(git(t.dir, 'show', 'main:README.md')).toBe('# Alpha\n\none\nTWO, better\nthree\n');
    const expected = snapshotOf(await fetchContent(client, { space: t.spaceId })).files;
    git(t.dir, 'checkout', '-q', 'main');
    const onDisk = await loadFolder(t.dir);
    expect([...onDisk.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected)
      expect(Buffer.from(onDisk.get(path) as Uint8Array).toString(), path).toBe(Buffer.from(bytes).toString());

    const state = await readState(t.dir);
    expect(state.branches[branch]).toMatchObject({ closed: 'merged', changeRequestId: cr.id });
    expect(state.branches.main!.remoteRevision).toBe(space.revision);
    expect(git(t.dir, 'branch', '--list', branch).trim()).toBe(branch);
    expect((await pull(client, t.dir)).map((r) => r.branch)).toEqual(['main']);
  });

  it('reports the conflicting pages with their files when two change requests changed the same line, and changes nothing', async () => {
    const t = await clonedSpace(s, client, work, 'conflict');
    const first = await changeRequestWith(s, t.spaceId, 'First', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nfirst two\nthree\n' } },
    ]);
    const second = await changeRequestWith(s, t.spaceId, 'Second', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nsecond two\nthree\n' } },
    ]);
    await pull(client, t.dir);
    expect(await merge(client, t.dir, `cr/${first.number}-first`)).toMatchObject({ kind: 'merged' });
    const mainBefore = git(t.dir, 'rev-parse', 'main');
    const stateBefore = await readState(t.dir);

    const result = await merge(client, t.dir, `cr/${second.number}-second`);
    expect(result).toMatchObject({
      kind: 'conflict',
      branch: `cr/${second.number}-second`,
      changeRequest: second.number,
      conflicts: [
        { kind: 'page', title: 'Alpha', id: t.alpha, path: 'README.md', reason: 'both sides changed the same lines of its document' },
      ],
    });
    expect(result.kind === 'conflict' && result.message).toContain('cannot be merged');
    expect(await crStatus(t.spaceId, second.id)).toBe('open');
    expect(git(t.dir, 'rev-parse', 'main')).toBe(mainBefore);
    expect(await readState(t.dir)).toEqual(stateBefore);
  });

  it('refuses main without an outbox, named or checked out, before asking the platform anything', async () => {
    const t = await clonedSpace(s, client, work, 'main-refused');
    const before = client.stats.requests;
    await expect(merge(client, t.dir)).rejects.toThrow('main is the live content, not a change request');
    await expect(merge(client, t.dir, 'main')).rejects.toMatchObject({ code: 'not-a-change-request' });
    await expect(merge(client, t.dir, 'cr/99-nothing')).rejects.toThrow('no branch cr/99-nothing');
    git(t.dir, 'checkout', '-q', '-b', 'idea');
    await expect(merge(client, t.dir)).rejects.toThrow('branch idea has no change request yet; run docsync push to open one');
    expect(client.stats.requests).toBe(before);
  });

  it("merges main's outbox change request when main has one: its commits go live, the next ones open a new one", async () => {
    const t = await clonedSpace(s, client, work, 'main-outbox');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, saved on main\n');
    git(t.dir, 'commit', '-qam', 'Beta on main');
    const pushed = await push(client, t.dir);
    // Not pushed yet: refused before anything is sent.
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, saved again\n');
    git(t.dir, 'commit', '-qam', 'Beta again');
    await expect(merge(client, t.dir, 'main')).rejects.toThrow(
      `main has changes not pushed to change request #${pushed.changeRequest!.number} (beta.md); push first`,
    );
    await push(client, t.dir);
    const merged = await merge(client, t.dir);
    expect(merged).toMatchObject({ kind: 'merged', branch: 'main', changeRequest: pushed.changeRequest!.number });
    expect(await crStatus(t.spaceId, pushed.changeRequest!.id)).toBe('merged');
    const state = await readState(t.dir);
    expect(state.branches.main!.outbox).toBeUndefined();
    const live = snapshotOf(await fetchContent(client, { space: t.spaceId }));
    expect(Buffer.from(live.files.get('beta.md')!).toString()).toBe('# Beta\n\nbeta text, saved again\n');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses a branch with commits or edits not pushed: push first', async () => {
    const t = await clonedSpace(s, client, work, 'unpushed');
    const cr = await changeRequestWith(s, t.spaceId, 'Pending', [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, reviewed\n' } },
    ]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-pending`;
    git(t.dir, 'checkout', '-q', branch);

    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo, not saved yet\nthree\n');
    await expect(merge(client, t.dir)).rejects.toThrow(
      `${branch} has changes not pushed to change request #${cr.number} (README.md); push first (docsync push), then merge`,
    );
    git(t.dir, 'commit', '-qam', 'local edit');
    await expect(merge(client, t.dir, branch)).rejects.toMatchObject({
      code: 'unpushed-changes',
      data: { committed: [{ path: 'README.md', status: 'modified' }], uncommitted: [] },
    });
    expect(await crStatus(t.spaceId, cr.id)).toBe('open');
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toBe('# Alpha\n\none\ntwo, not saved yet\nthree\n');
    // Undoing the local commit makes the branch mergeable again.
    git(t.dir, 'reset', '-q', '--hard', 'HEAD~1');
    expect(await merge(client, t.dir)).toMatchObject({ kind: 'merged' });
  });

  it('refuses a branch with conflict markers left by a pull, naming the file', async () => {
    const t = await clonedSpace(s, client, work, 'markers');
    const cr = await changeRequestWith(s, t.spaceId, 'Marked', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nremote two\nthree\n' } },
    ]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-marked`;
    git(t.dir, 'checkout', '-q', branch);
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\nlocal two\nthree\n');
    git(t.dir, 'commit', '-qam', 'local two');
    expect(
      (
        await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, {
          body: { changes: [{ operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nother two\nthree\n' } }] },
        })
      ).status,
    ).toBe(200);
    expect((await pull(client, t.dir, { branches: [branch] }))[0]!.conflicts).toEqual(['README.md']);
    await expect(merge(client, t.dir)).rejects.toThrow(
      `${branch} has changes not pushed to change request #${cr.number} (README.md: it has conflict markers (resolve them, then commit)); push first`,
    );
  });

  it('merges a branch whose only local files are ones push does not send (.gitignore); notes not in SUMMARY.md are pushed first (the platform keeps them)', async () => {
    const t = await clonedSpace(s, client, work, 'not-content');
    const cr = await changeRequestWith(s, t.spaceId, 'Plain', [{ operation: 'update_page', page: t.beta, title: 'Beta two' }]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-plain`;
    git(t.dir, 'checkout', '-q', branch);
    await writeFile(join(t.dir, '.gitignore'), '*.tmp\n');
    git(t.dir, 'add', '.gitignore');
    git(t.dir, 'commit', '-qm', 'ignore temporary files');
    await writeFile(join(t.dir, 'notes.md'), '# Notes\n\nnot a page\n');
    // Unlisted notes are folder files the server keeps (extension git-files): not yet on the change request.
    await expect(merge(client, t.dir)).rejects.toThrow(/changes not pushed to change request #\d+ \(.*notes\.md/);
    await push(client, t.dir);
    expect(await merge(client, t.dir)).toMatchObject({ kind: 'merged', branch });
  });

  it('takes the hosted API\'s 200 with result "conflicts" as a conflict, never as a merge', async () => {
    const t = await clonedSpace(s, client, work, 'hosted-conflicts');
    const cr = await changeRequestWith(s, t.spaceId, 'Hosted', [{ operation: 'update_page', page: t.beta, title: 'Beta two' }]);
    await pull(client, t.dir);
    // The hosted API answers a conflicting merge with 200 and names no page.
    const hosted = await httpFixture(async (req, res, seen) => {
      if (req.method === 'POST' && seen.url.endsWith('/merge'))
        return json(res, 200, { revision: 'conflict-revision', result: 'conflicts' });
      const upstream = await fetch(new URL(seen.url, s.url), {
        method: req.method ?? 'GET',
        headers: { authorization: seen.authorization ?? '' },
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(await upstream.text());
    });
    const viaHosted = createClient({ baseUrl: hosted.url, token: s.token });
    try {
      const stateBefore = await readState(t.dir);
      const result = await merge(viaHosted, t.dir, `cr/${cr.number}-hosted`);
      expect(result).toMatchObject({ kind: 'conflict', conflicts: [], message: expect.stringContaining('result "conflicts"') });
      expect(await readState(t.dir)).toEqual(stateBefore);
    } finally {
      await viaHosted.close();
      await hosted.close();
    }
  });

  it('takes a change request merged on the platform meanwhile as merged, and still pulls main', async () => {
    const t = await clonedSpace(s, client, work, 'already');
    const cr = await changeRequestWith(s, t.spaceId, 'Elsewhere', [
      { operation: 'insert_page', title: 'New', document: { markdown: '# New\n\nfrom the web\n' } },
    ]);
    await pull(client, t.dir);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const result = await merge(client, t.dir, `cr/${cr.number}-elsewhere`);
    expect(result).toMatchObject({ kind: 'merged', already: true });
    expect(git(t.dir, 'show', 'main:new.md')).toBe('# New\n\nfrom the web\n');
  });

  it('refuses an archived change request, saying how to open it again', async () => {
    const t = await clonedSpace(s, client, work, 'archived');
    const cr = await changeRequestWith(s, t.spaceId, 'Shelved', [
      { operation: 'insert_page', title: 'Later', document: { markdown: '# Later\n' } },
    ]);
    await pull(client, t.dir);
    expect((await s.request('PATCH', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`, { body: { status: 'archived' } })).status).toBe(
      200,
    );
    const branch = `cr/${cr.number}-shelved`;
    await expect(merge(client, t.dir, branch)).rejects.toThrow(
      `change request #${cr.number} of ${branch} is archived; run docsync cr open ${branch} first`,
    );
  });

  it('merges main edits made meanwhile on other pages: the platform merges, main gets both', async () => {
    const t = await clonedSpace(s, client, work, 'both');
    const cr = await changeRequestWith(s, t.spaceId, 'Alpha edit', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\nONE\ntwo\nthree\n' } },
    ]);
    await pull(client, t.dir);
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, on main\n' } }]);
    expect(await merge(client, t.dir, `cr/${cr.number}-alpha-edit`)).toMatchObject({ kind: 'merged' });
    expect(git(t.dir, 'show', 'main:README.md')).toBe('# Alpha\n\nONE\ntwo\nthree\n');
    expect(git(t.dir, 'show', 'main:beta.md')).toBe('# Beta\n\nbeta text, on main\n');
  });
});
