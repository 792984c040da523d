import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { merge } from '../../src/sync/change-requests/merge.js';
import { push } from '../../src/sync/push/push.js';
import { readState } from '../../src/sync/state/state.js';
import { loadFolder } from '../../src/workspace/index.js';
import { spawnCli } from '../cli/run-cli.js';
import { httpFixture } from '../client/http-fixture.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { clonedSpace, editMain, git } from './fixture.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * Reusable content round trip: a space whose page embeds a reusable content is cloned (the include
 * file is there, byte for byte), and local edits, additions and deletions of include files are
 * pushed as the batch's reusable content operations; a fresh clone of the result is the folder.
 */
describe('includes (.gitbook/includes/) between the folder and the server', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-includes-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** The reusable contents of a change request (or main), with their markdown and file. */
  async function remoteIncludes(spaceId: string, changeRequest?: string) {
    const scope = changeRequest ? `change-requests/${changeRequest}/content` : 'content';
    const revision = (await s.request('GET', `/v1/spaces/${spaceId}/${scope}`)).body;
    return Promise.all(
      (revision.reusableContents as { id: string }[]).map(async ({ id }) => {
        const res = await s.request('GET', `/v1/spaces/${spaceId}/${scope}/reusable-contents/${id}?format=markdown`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return { id, title: res.body.title as string, markdown: res.body.markdown as string, path: res.body.git.path as string };
      }),
    );
  }

  const files = async (dir: string) => {
    const all = await loadFolder(dir);
    return new Map(
      [...all]
        .filter(([path]) => !path.startsWith('.git/'))
        .map(([path, bytes]) => [path, Buffer.from(bytes as Uint8Array).toString('utf8')]),
    );
  };

  it('clones, pushes an edit, an addition and a deletion, and a fresh clone is the folder', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Includes', empty: true } })).body;
    await editMain(s, space.id, [
      { operation: 'insert_reusable_content', title: 'Install warning', document: { markdown: 'Run the installer **once**.\n' } },
      {
        operation: 'insert_page',
        title: 'Alpha',
        document: { markdown: '# Alpha\n\nBefore you start:\n\n{% include ".gitbook/includes/install-warning.md" %}\n' },
      },
      { operation: 'insert_page', title: 'Beta', document: { markdown: '# Beta\n\nbeta text\n' } },
    ]);
    const [warning] = await remoteIncludes(space.id);
    const dir = join(work, 'includes');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });

    // Cloned: the include file where the page embeds it, with its title and body.
    const cloned = await files(dir);
    expect(cloned.get('.gitbook/includes/install-warning.md')).toBe('---\ntitle: Install warning\n---\n\nRun the installer **once**.\n');
    expect(cloned.get('README.md')).toContain('{% include ".gitbook/includes/install-warning.md" %}');
    expect((await readState(dir)).branches.main!.index.includes).toEqual({ '.gitbook/includes/install-warning.md': warning!.id });

    // Edited locally (a new title in its front matter, a new body): one update, the file keeps its name.
    git(dir, 'checkout', '-qb', 'writer/includes');
    await writeFile(
      join(dir, '.gitbook/includes/install-warning.md'),
      '---\ntitle: Installer warning\n---\n\nRun the installer **once**, then restart.\n',
    );
    git(dir, 'commit', '-qam', 'Reword the install warning');
    const edited = await push(client, dir);
    expect(edited.skipped).toEqual([]);
    expect(edited.changes).toEqual([
      {
        operation: 'update_reusable_content',
        reusableContent: warning!.id,
        title: 'Installer warning',
        document: { markdown: 'Run the installer **once**, then restart.\n' },
      },
    ]);
    const cr = edited.changeRequest!.id;
    expect(await remoteIncludes(space.id, cr)).toEqual([
      {
        id: warning!.id,
        title: 'Installer warning',
        markdown: 'Run the installer **once**, then restart.\n',
        path: '.gitbook/includes/install-warning.md',
      },
    ]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect((await push(client, dir)).changes).toEqual([]);

    // A new include under a name of its own, embedded in Beta.
    await writeFile(
      join(dir, '.gitbook/includes/rollback.md'),
      '---\ntitle: How to roll back\n---\n\n1. Stop the service.\n2. Restore the backup.\n',
    );
    await writeFile(join(dir, 'beta.md'), '# Beta\n\nbeta text\n\n{% include ".gitbook/includes/rollback.md" %}\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'Add rollback steps');
    const added = await push(client, dir);
    expect(added.skipped).toEqual([]);
    expect(added.changes.map((c) => c.operation).sort()).toEqual(['insert_reusable_content', 'update_page']);
    const afterAdd = await remoteIncludes(space.id, cr);
    expect(afterAdd.map((i) => [i.title, i.path, i.markdown])).toEqual([
      ['Installer warning', '.gitbook/includes/install-warning.md', 'Run the installer **once**, then restart.\n'],
      ['How to roll back', '.gitbook/includes/rollback.md', '1. Stop the service.\n2. Restore the backup.\n'],
    ]);
    expect((await readState(dir)).branches['writer/includes']!.index.includes).toEqual({
      '.gitbook/includes/install-warning.md': warning!.id,
      '.gitbook/includes/rollback.md': afterAdd[1]!.id,
    });
    expect(git(dir, 'status', '--porcelain')).toBe('');

    // The first one deleted, with the line embedding it.
    git(dir, 'rm', '-q', '.gitbook/includes/install-warning.md');
    await writeFile(
      join(dir, 'README.md'),
      (await readFile(join(dir, 'README.md'), 'utf8')).replace('\n{% include ".gitbook/includes/install-warning.md" %}\n', ''),
    );
    git(dir, 'commit', '-qam', 'Drop the install warning');
    const deleted = await push(client, dir);
    expect(deleted.changes).toContainEqual({ operation: 'delete_reusable_content', reusableContent: warning!.id });
    expect((await remoteIncludes(space.id, cr)).map((i) => i.title)).toEqual(['How to roll back']);
    expect(git(dir, 'status', '--porcelain')).toBe('');

    // Merged, then cloned afresh: the same files as the folder.
    const merged = await merge(client, dir);
    expect(merged).toMatchObject({ branch: 'writer/includes' });
    git(dir, 'checkout', '-q', 'main');
    const fresh = join(work, 'includes-fresh');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: fresh });
    const mine = await files(dir);
    expect(await files(fresh)).toEqual(mine);
    expect(mine.get('.gitbook/includes/rollback.md')).toBe(
      '---\ntitle: How to roll back\n---\n\n1. Stop the service.\n2. Restore the backup.\n',
    );
    expect(mine.has('.gitbook/includes/install-warning.md')).toBe(false);
  });

  it('a push killed after its batch landed, run again, leaves one reusable content, not two', async () => {
    const t = await clonedSpace(s, client, work, 'includes-crash');
    git(t.dir, 'checkout', '-qb', 'writer/crash');
    await mkdir(join(t.dir, '.gitbook/includes'), { recursive: true });
    await writeFile(join(t.dir, '.gitbook/includes/notice.md'), '---\ntitle: Notice\n---\n\nRead me.\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Add a notice');
    const env = { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
    const killed = spawnCli(['push', '--dir', t.dir], { ...env, DOCSYNC_TEST_KILL: 'sent:0' });
    expect(await killed.exited, killed.stderr()).toBe('SIGKILL');
    const resumed = spawnCli(['push', '--json', '--dir', t.dir], env);
    expect(await resumed.exited, resumed.stderr()).toBe(0);
    expect(JSON.parse(resumed.stdout())).toMatchObject({ resumed: true, changes: [] });
    const { changeRequestId } = (await readState(t.dir)).branches['writer/crash']!;
    expect((await remoteIncludes(t.spaceId, changeRequestId)).map((i) => [i.title, i.path])).toEqual([
      ['Notice', '.gitbook/includes/notice.md'],
    ]);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });

  it("an include that cannot be read is not sent: a new one stays out, a known one keeps the server's version", async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Bad includes', empty: true } })).body;
    await editMain(s, space.id, [
      { operation: 'insert_reusable_content', title: 'Kept', document: { markdown: 'Server text.\n' } },
      { operation: 'insert_page', title: 'Alpha', document: { markdown: '# Alpha\n\ntext\n' } },
    ]);
    const dir = join(work, 'bad-includes');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
    git(dir, 'checkout', '-qb', 'writer/bad');
    await writeFile(
      join(dir, '.gitbook/includes/kept.md'),
      '---\ntitle: Kept\n---\n\n<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs\n',
    );
    await writeFile(join(dir, '.gitbook/includes/new.md'), '---\ntitle: [unclosed\n---\n\nNew.\n');
    await writeFile(join(dir, 'README.md'), '# Alpha\n\ntext, edited\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'Half-done includes');
    const result = await push(client, dir);
    expect(result.skipped.map((x) => x.path).sort()).toEqual(['.gitbook/includes/kept.md', '.gitbook/includes/new.md']);
    expect(result.changes.map((c) => c.operation)).toEqual(['update_page']);
    expect((await remoteIncludes(space.id, result.changeRequest!.id)).map((i) => [i.title, i.markdown])).toEqual([
      ['Kept', 'Server text.\n'],
    ]);
  });

  it('from a server without the markdown of reusable contents (the hosted API), no include is read or written', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Hosted-like', empty: true } })).body;
    await editMain(s, space.id, [{ operation: 'insert_reusable_content', title: 'Note', document: { markdown: 'x\n' } }]);
    // Forwards to our server without the x-docsync-extensions header, as the hosted API answers.
    const proxy = await httpFixture(async (req, res, seen) => {
      const upstream = await fetch(new URL(seen.url, s.url), {
        method: req.method ?? 'GET',
        headers: { authorization: seen.authorization ?? '' },
      });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    const hosted = createClient({ baseUrl: proxy.url, token: s.token });
    try {
      const remote = await fetchContent(hosted, { space: space.id });
      expect(remote.content.reusableContents).toEqual([]);
      expect(proxy.seen.some((r) => r.url.includes('/reusable-contents/'))).toBe(false);
    } finally {
      await hosted.close();
      await proxy.close();
    }
    const ours = await fetchContent(client, { space: space.id });
    expect(ours.content.reusableContents).toEqual([{ id: expect.any(String), title: 'Note', markdown: 'x\n', path: 'note.md' }]);
  });
});
