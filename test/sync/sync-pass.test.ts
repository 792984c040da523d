import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { mirror } from '../../src/sync/mirror.js';
import { syncPass } from '../../src/sync/sync-pass.js';
import { readState } from '../../src/sync/state/state.js';
import { clonedSpace, editMain, git, remoteMarkdown } from './fixture.js';

describe('sync and mirror', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-sync-pass-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('pulls every branch, pushes every branch with local changes, and a second pass has nothing to do', async () => {
    const t = await clonedSpace(s, client, work, 'pass');
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta on topic\n');
    git(t.dir, 'commit', '-qam', 'Topic edit');
    git(t.dir, 'checkout', '-q', 'main');

    const dry = await syncPass(client, t.dir, { dryRun: true });
    expect(dry.pulled).toEqual([]);
    expect(dry.pushed.map((p) => [p.branch, p.dryRun, p.changes.map((c) => c.operation)])).toEqual([['topic', true, ['update_page']]]);
    expect(await client.changeRequests.list(t.spaceId).next()).toMatchObject({ done: true });

    // Meanwhile main changes on the platform.
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree\nfour\n' } },
    ]);

    const pass = await syncPass(client, t.dir);
    expect(pass.pulled.find((p) => p.branch === 'main')!.to).not.toBe(pass.pulled.find((p) => p.branch === 'main')!.from);
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toContain('four');
    // topic forked before main's pull: it has to take main first, and the pass says so.
    expect(pass.pushed).toEqual([]);
    expect(pass.failed).toEqual([expect.objectContaining({ branch: 'topic', code: 'not-based-on-main' })]);
    expect(pass.failed[0]!.message).toContain('git merge main');
    git(t.dir, 'checkout', '-q', 'topic');
    git(t.dir, 'merge', '-q', '--no-edit', 'main');
    const merged = await syncPass(client, t.dir);
    expect(merged.failed).toEqual([]);
    expect(merged.pushed.map((p) => [p.branch, p.changeRequest?.opened])).toEqual([['topic', true]]);
    const topic = (await readState(t.dir)).branches.topic!;
    expect(await remoteMarkdown(s, t.spaceId, t.beta, topic.changeRequestId)).toContain('beta on topic');
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, topic.changeRequestId)).toContain('four');

    const again = await syncPass(client, t.dir);
    expect(again.pushed).toEqual([]);
    expect(again.pulled.every((p) => p.from === p.to)).toBe(true);
  });

  it('mirrors every space of an organization through a listing of several pages, then pulls and pushes them', async () => {
    const org = (await s.request('POST', '/v1/orgs', { body: { title: 'Mirror org' } })).body;
    const orgId = org?.id ?? s.orgId;
    const titles = ['Handbook', 'API', 'Handbook', 'Runbooks', 'Release notes'];
    const ids: string[] = [];
    for (const title of titles) ids.push((await s.request('POST', `/v1/orgs/${orgId}/spaces`, { body: { title, empty: true } })).body.id);
    const dir = join(work, 'mirror');
    const first = await mirror({ client, apiUrl: s.url, orgId, dir, pageSize: 2 });
    const mine = first.filter((r) => ids.includes(r.spaceId));
    expect(mine.map((r) => r.action)).toEqual(['cloned', 'cloned', 'cloned', 'cloned', 'cloned']);
    expect(new Set(mine.map((r) => r.folder)).size).toBe(5);
    expect(mine.map((r) => r.folder)).toEqual(expect.arrayContaining(['handbook', 'api', 'runbooks', 'release-notes']));
    const folders = await readdir(dir);
    for (const r of mine) expect(folders).toContain(r.folder);

    // A local edit in one space: mirror without --push only pulls; with --push it opens a change request.
    const handbook = join(dir, mine[0]!.folder);
    await writeFile(join(handbook, 'README.md'), '# Welcome\n\nwritten in the mirror\n');
    await writeFile(join(handbook, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n');
    git(handbook, 'add', '-A');
    git(handbook, 'commit', '-qm', 'First page');
    const pulled = await mirror({ client, apiUrl: s.url, orgId, dir, pageSize: 2 });
    expect(pulled.filter((r) => ids.includes(r.spaceId)).map((r) => r.action)).toEqual(['synced', 'synced', 'synced', 'synced', 'synced']);
    expect(pulled.find((r) => r.spaceId === ids[0])!.pass!.pushed).toEqual([]);
    const pushed = await mirror({ client, apiUrl: s.url, orgId, dir, pageSize: 2, push: true });
    const pass = pushed.find((r) => r.spaceId === ids[0])!.pass!;
    expect(pass.pushed.map((p) => p.branch)).toEqual(['main']);
    expect(pass.pushed[0]!.changeRequest?.opened).toBe(true);
    expect(pushed.find((r) => r.spaceId === ids[1])!.pass!.pushed).toEqual([]);
  });
});
