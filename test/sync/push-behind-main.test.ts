import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { clonedSpace, editMain, git, remoteMarkdown } from './fixture.js';

// Issue 14: a branch made from an older main is pushable, as git lets a pull request come from
// a branch that is behind. Main's changes since are merged in; where both changed the same
// lines, the push stops with exit 3 (code behind-main-conflicts) and sends nothing.
describe.each(testDialects())('a branch made from an older main (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-behind-main-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it("is pushed when the platform changed another page: the change request holds both, main's edit not undone", async () => {
    const t = await clonedSpace(s, client, work, 'other-page');
    git(t.dir, 'checkout', '-qb', 'late');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, edited on the branch\n');
    git(t.dir, 'commit', '-qam', 'Edit beta');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo, on the platform\nthree\n' } },
    ]);

    const pushed = await push(client, t.dir);
    expect(pushed.changes).toEqual([expect.objectContaining({ operation: 'update_page', page: t.beta })]);
    const crId = pushed.changeRequest!.id;
    expect(await remoteMarkdown(s, t.spaceId, t.beta, crId)).toBe('beta text, edited on the branch\n');
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, crId)).toBe('one\ntwo, on the platform\nthree\n');
    // The branch has main's edit merged in (a merge commit with main's content), in the working tree too.
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toBe('# Alpha\n\none\ntwo, on the platform\nthree\n');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    expect(git(t.dir, 'log', '--merges', '--format=%s', 'late')).toMatch(/merge main at revision .* into late/);
    // Merging it leaves main as both wanted it.
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${crId}/merge`)).status).toBe(200);
    expect(await remoteMarkdown(s, t.spaceId, t.alpha)).toBe('one\ntwo, on the platform\nthree\n');
  });

  it('merges a platform edit of other lines of the same page', async () => {
    const t = await clonedSpace(s, client, work, 'same-page');
    git(t.dir, 'checkout', '-qb', 'late');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none, on the branch\ntwo\nthree\n');
    git(t.dir, 'commit', '-qam', 'Edit line one');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree, on the platform\n' } },
    ]);
    const pushed = await push(client, t.dir);
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, pushed.changeRequest!.id)).toBe('one, on the branch\ntwo\nthree, on the platform\n');
  });

  it('stops with behind-main-conflicts (exit 3) naming the page when both changed the same line; nothing sent, the branch keeps its text', async () => {
    const t = await clonedSpace(s, client, work, 'same-line');
    git(t.dir, 'checkout', '-qb', 'late');
    const ours = '# Alpha\n\none\ntwo, on the branch\nthree\n';
    await writeFile(join(t.dir, 'README.md'), ours);
    git(t.dir, 'commit', '-qam', 'Edit line two');
    const head = git(t.dir, 'rev-parse', 'late');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo, on the platform\nthree\n' } },
    ]);
    await expect(push(client, t.dir)).rejects.toMatchObject({ code: 'behind-main-conflicts', details: ['README.md'] });
    expect(git(t.dir, 'rev-parse', 'late')).toBe(head);
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toBe(ours);
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests`)).body.items).toEqual([]);
    expect(await remoteMarkdown(s, t.spaceId, t.alpha)).toBe('one\ntwo, on the platform\nthree\n');
  });
});
