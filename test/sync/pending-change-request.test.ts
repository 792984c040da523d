import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { clonedSpace, git, remoteMarkdown } from './fixture.js';

// Issue 13, items 3 and 4: the change request a branch's commits wait in (main's outbox
// included) is edited or merged on the platform while the writer goes on committing.
describe.each(testDialects())('a pending change request moved on the platform (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-pending-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const editOnPlatform = async (spaceId: string, crId: string, changes: unknown[]) => {
    const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content?compat=false`, { body: { changes } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('main: a merged change request of main is the base of the next pull, so a later edit of a pushed line is no conflict', async () => {
    const t = await clonedSpace(s, client, work, 'own-edit');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nv1\n');
    git(t.dir, 'commit', '-qam', 'v1');
    const first = await push(client, t.dir);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nv2\n');
    git(t.dir, 'commit', '-qam', 'v2');
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${first.changeRequest!.id}/merge`)).status).toBe(200);

    const [pulled] = await pull(client, t.dir);
    expect(pulled).toMatchObject({ branch: 'main', conflicts: [], outboxClosed: 'merged' });
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nv2\n');
    expect((await readState(t.dir)).branches.main!.outbox).toBeUndefined();
    // v2 goes to a new change request, from main's merged content.
    const second = await push(client, t.dir);
    expect(second.changeRequest).toMatchObject({ opened: true });
    expect(second.changes).toMatchObject([{ operation: 'update_page', page: t.beta }]);
    expect(await remoteMarkdown(s, t.spaceId, t.beta, second.changeRequest!.id)).toContain('v2');
  });

  it("main: a reviewer's edit of main's change request comes into main on pull, and the next push goes through", async () => {
    const t = await clonedSpace(s, client, work, 'reviewed-main');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nmine\n');
    git(t.dir, 'commit', '-qam', 'mine');
    const first = await push(client, t.dir);
    const crId = first.changeRequest!.id;
    await editOnPlatform(t.spaceId, crId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree\nreviewer\n' } },
    ]);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nmine, again\n');
    git(t.dir, 'commit', '-qam', 'again');

    const [pulled] = await pull(client, t.dir);
    expect(pulled).toMatchObject({ branch: 'main', conflicts: [] });
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toContain('reviewer');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('mine, again');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    const again = await push(client, t.dir);
    expect(again.changeRequest).toMatchObject({ id: crId, opened: false });
    expect(await remoteMarkdown(s, t.spaceId, t.beta, crId)).toContain('mine, again');
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, crId)).toContain('reviewer');
    // Main's live content is untouched until the change request is merged.
    expect(await remoteMarkdown(s, t.spaceId, t.alpha)).not.toContain('reviewer');
    expect((await pull(client, t.dir))[0]).toMatchObject({ changes: [], conflicts: [] });
  });

  it("a branch: a reviewer's edit of its change request comes in on pull, and the next push goes through", async () => {
    const t = await clonedSpace(s, client, work, 'reviewed-branch');
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nmine\n');
    git(t.dir, 'commit', '-qam', 'mine');
    const first = await push(client, t.dir);
    const crId = first.changeRequest!.id;
    await editOnPlatform(t.spaceId, crId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree\nreviewer\n' } },
    ]);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nmine, again\n');
    git(t.dir, 'commit', '-qam', 'again');
    const pulled = await pull(client, t.dir);
    expect(pulled.find((p) => p.branch === 'topic')).toMatchObject({ conflicts: [] });
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toContain('reviewer');
    const again = await push(client, t.dir);
    expect(again.changeRequest).toMatchObject({ id: crId });
    expect(await remoteMarkdown(s, t.spaceId, t.beta, crId)).toContain('mine, again');
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, crId)).toContain('reviewer');
  });
});
