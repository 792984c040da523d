import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { placesOf, snapshotOf } from '../../src/sync/remote/snapshot.js';
import { loadFolder } from '../../src/workspace/index.js';
import { readTreeFiles } from '../../src/git/index.js';
import { clonedSpace, editMain, git } from './fixture.js';

describe('push', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-push-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** The change request's content as a folder (pages in the files the branch keeps them in) equals the branch's committed files. */
  async function expectRemoteIsFolder(dir: string, spaceId: string, changeRequest: string) {
    const entries = Object.values((await readState(dir)).branches).flatMap((b) => [b, b.outbox]);
    const places = placesOf(entries.find((b) => b?.changeRequestId === changeRequest)?.index);
    const remote = snapshotOf(await fetchContent(client, { space: spaceId, changeRequest }), places).files;
    const local = await loadFolder(dir);
    local.delete('.git');
    const text = (m: Map<string, Uint8Array | string>) =>
      new Map([...m].filter(([p]) => !p.startsWith('.git/')).map(([p, b]) => [p, Buffer.from(b as Uint8Array).toString()]));
    expect(text(local)).toEqual(text(remote));
    expect(git(dir, 'status', '--porcelain')).toBe('');
  }

  /** Page id → title and parent in a change request, from the API. */
  async function pagesOf(spaceId: string, changeRequest: string) {
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content`);
    const out = new Map<string, { title: string; parent: string | null; slug: string }>();
    const visit = (pages: any[], parent: string | null) => {
      for (const p of pages) {
        out.set(p.id, { title: p.title, parent, slug: p.slug });
        visit(p.pages ?? [], p.id);
      }
    };
    visit(res.body.pages, null);
    return out;
  }

  it('turns a new branch into a change request: edit, add a page and a subpage, subject from the first commit', async () => {
    const t = await clonedSpace(s, client, work, 'new-branch');
    git(t.dir, 'checkout', '-qb', 'writer/more');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, edited\n');
    git(t.dir, 'commit', '-qam', 'Edit beta');
    await mkdir(join(t.dir, 'gamma'));
    await writeFile(join(t.dir, 'gamma', 'README.md'), '# Gamma\n\nnew page\n');
    await writeFile(join(t.dir, 'gamma', 'delta.md'), '# Delta\n\nchild page\n');
    await writeFile(
      join(t.dir, 'SUMMARY.md'),
      '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Gamma](gamma/README.md)\n  * [Delta](gamma/delta.md)\n',
    );
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Add gamma');

    const result = await push(client, t.dir);
    expect(result.changeRequest).toMatchObject({ opened: true });
    expect(result.counts).toMatchObject({ inserted: 2, updated: 1, deleted: 0 });
    const cr = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${result.changeRequest!.id}`)).body;
    expect(cr.subject).toBe('Edit beta');
    await expectRemoteIsFolder(t.dir, t.spaceId, cr.id);
    const pages = await pagesOf(t.spaceId, cr.id);
    expect(pages.get(t.beta)).toMatchObject({ title: 'Beta' });
    const state = await readState(t.dir);
    expect(state.branches['writer/more']).toMatchObject({
      changeRequestId: cr.id,
      changeRequestNumber: cr.number,
      remoteRevision: cr.revision,
    });

    // Nothing changed since: a second push sends nothing, and a pull does not bring the push back (no echo).
    const again = await push(client, t.dir);
    expect(again.changes).toEqual([]);
    const pulled = await pull(client, t.dir);
    expect(pulled.find((p) => p.branch === 'writer/more')).toMatchObject({ from: cr.revision, to: cr.revision, changes: [] });
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });

  it('renames and moves a page keeping its id, deletes one, and keeps a # heading that differs from the title as content', async () => {
    const t = await clonedSpace(s, client, work, 'rename');
    git(t.dir, 'checkout', '-qb', 'reshape');
    await mkdir(join(t.dir, 'guides'));
    await writeFile(join(t.dir, 'guides', 'README.md'), '# Guides\n\nall guides\n');
    await rename(join(t.dir, 'beta.md'), join(t.dir, 'guides', 'beta-renamed.md'));
    await writeFile(
      join(t.dir, 'SUMMARY.md'),
      '# Table of contents\n\n* [Alpha](README.md)\n* [Guides](guides/README.md)\n  * [Beta Two](guides/beta-renamed.md)\n',
    );
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Move beta under guides');
    const result = await push(client, t.dir);
    expect(result.counts).toMatchObject({ inserted: 1, moved: 1 });
    const crId = result.changeRequest!.id;
    const pages = await pagesOf(t.spaceId, crId);
    const guides = [...pages].find(([, p]) => p.title === 'Guides')![0];
    expect(pages.get(t.beta)).toEqual({ title: 'Beta Two', parent: guides, slug: 'beta-renamed' });
    await expectRemoteIsFolder(t.dir, t.spaceId, crId);

    // Delete the moved page; the next push deletes it by id.
    await rm(join(t.dir, 'guides', 'beta-renamed.md'));
    await writeFile(join(t.dir, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n* [Guides](guides/README.md)\n');
    git(t.dir, 'commit', '-qam', 'Drop beta');
    const dropped = await push(client, t.dir);
    // Guides has no child left, yet stays in guides/README.md: the server is told its file (git-path).
    expect(dropped.changes).toEqual([
      { operation: 'delete_page', page: t.beta },
      { operation: 'update_page', page: guides, gitPath: 'guides/README.md' },
    ]);
    await expectRemoteIsFolder(t.dir, t.spaceId, crId);
  });

  it('leaves uncommitted edits alone with commitWorkingTree: false (the daemon commits them once settled)', async () => {
    const t = await clonedSpace(s, client, work, 'committed-only');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ncommitted\n');
    git(t.dir, 'commit', '-qam', 'Beta, committed');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\nstill being written\n');
    const pushed = await push(client, t.dir, { commitWorkingTree: false });
    expect(pushed.savedLocalEdits).toBeUndefined();
    expect(pushed.changes).toMatchObject([{ operation: 'update_page', page: t.beta }]);
    expect(git(t.dir, 'status', '--porcelain')).toBe(' M README.md\n');
    const alpha = await s.request(
      'GET',
      `/v1/spaces/${t.spaceId}/change-requests/${pushed.changeRequest!.id}/content/page/${t.alpha}?format=markdown`,
    );
    expect(alpha.body.markdown).not.toContain('still being written');
  });

  it('commits on main go to one change request until it is merged', async () => {
    const t = await clonedSpace(s, client, work, 'main-outbox');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nfirst save\n');
    const first = await push(client, t.dir);
    expect(first.savedLocalEdits).toBeDefined();
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nsecond save\n');
    const second = await push(client, t.dir);
    expect(second.changeRequest!.id).toBe(first.changeRequest!.id);
    expect(second.changeRequest!.opened).toBe(false);
    const state = await readState(t.dir);
    expect(state.branches.main!.outbox?.changeRequestId).toBe(first.changeRequest!.id);
    await expectRemoteIsFolder(t.dir, t.spaceId, first.changeRequest!.id);
    // Main's live content is untouched until the change request is merged.
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('second save');
    const live = snapshotOf(await fetchContent(client, { space: t.spaceId })).files;
    expect(Buffer.from(live.get('beta.md')!).toString()).toContain('beta text');
  });

  it('reads back only the pages a page-only push changed, commits the server form, and the synced commit is the remote content', async () => {
    const t = await clonedSpace(s, client, work, 'read-back');
    git(t.dir, 'checkout', '-qb', 'tidy');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo\n');
    git(t.dir, 'commit', '-qam', 'Open the change request');
    await push(client, t.dir);
    await writeFile(join(t.dir, 'beta.md'), '---\ndescription: Second page\n---\n\n# Beta\n\n\nbeta text, edited\n\n\n\n');
    git(t.dir, 'commit', '-qam', 'Edit beta with stray blank lines');
    const before = client.stats.requests;
    const result = await push(client, t.dir);
    // The change request's head, the batch, and the one page read back.
    expect(client.stats.requests - before).toBe(3);
    expect(result.normalised).toEqual(['beta.md']);
    // Blank lines after the title go; those at the end are kept, as Git Sync exports have them.
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe(
      '---\ndescription: Second page\n---\n\n# Beta\n\nbeta text, edited\n\n\n\n',
    );
    expect(git(t.dir, 'log', '-1', '--format=%s')).toBe(
      "docsync: the server's form of 1 file(s) after pushing to change request #" + result.changeRequest!.number + '\n',
    );
    const state = (await readState(t.dir)).branches.tidy!;
    const remote = snapshotOf(await fetchContent(client, { space: t.spaceId, changeRequest: state.changeRequestId! }));
    const synced = await readTreeFiles(t.dir, state.syncedCommit);
    const text = (m: Map<string, Uint8Array>) => new Map([...m].map(([p, b]) => [p, Buffer.from(b).toString()]));
    expect(text(synced)).toEqual(text(remote.files));
    expect(state.remoteRevision).toBe(remote.revision);
    await expectRemoteIsFolder(t.dir, t.spaceId, state.changeRequestId!);
    expect((await push(client, t.dir)).changes).toEqual([]);
  });

  it('adds, replaces and deletes assets, with the page that shows them', async () => {
    const t = await clonedSpace(s, client, work, 'assets');
    git(t.dir, 'checkout', '-qb', 'images');
    await mkdir(join(t.dir, '.gitbook', 'assets'), { recursive: true });
    await writeFile(join(t.dir, '.gitbook', 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\n![Logo](.gitbook/assets/logo.png)\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Add a logo');
    const added = await push(client, t.dir);
    expect(added.counts).toMatchObject({ files: 1, updated: 1 });
    const crId = added.changeRequest!.id;
    const files = async () =>
      (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${crId}/content`)).body.files as { id: string; name: string }[];
    const [logo] = await files();
    expect(logo).toMatchObject({ name: 'logo.png' });
    await expectRemoteIsFolder(t.dir, t.spaceId, crId);

    // New bytes under the same name replace the file, which keeps its id.
    await writeFile(join(t.dir, '.gitbook', 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 9, 9]));
    git(t.dir, 'commit', '-qam', 'New logo');
    expect((await push(client, t.dir)).counts).toMatchObject({ files: 1 });
    expect((await files()).map((f) => f.id)).toEqual([logo!.id]);
    await expectRemoteIsFolder(t.dir, t.spaceId, crId);

    // Dropping the image and the file deletes the file on the platform.
    await rm(join(t.dir, '.gitbook', 'assets', 'logo.png'));
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nno logo\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Drop the logo');
    const dropped = await push(client, t.dir);
    expect(dropped.undeletableFiles).toEqual([]);
    expect(dropped.changes).toContainEqual({ operation: 'delete_file', file: logo!.id });
    expect(await files()).toEqual([]);
    await expectRemoteIsFolder(t.dir, t.spaceId, crId);
  });

  it('refuses to push main over remote changes it has not pulled (a branch catches up: push-behind-main.test.ts)', async () => {
    const t = await clonedSpace(s, client, work, 'behind');
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\nserver\n' } }]);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nlocal\n');
    git(t.dir, 'commit', '-qam', 'late edit');
    await expect(push(client, t.dir)).rejects.toMatchObject({ code: 'remote-ahead' });
  });
});
