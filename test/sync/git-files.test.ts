import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { hostedProxy, type HostedProxy } from '../helpers/hosted-proxy.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { loadFolder } from '../../src/workspace/index.js';
import { clonedSpace, git } from './fixture.js';

const text = (folder: Map<string, Uint8Array | string>) =>
  new Map([...folder].map(([path, value]) => [path, typeof value === 'string' ? value : Buffer.from(value).toString('latin1')]));

// Issue 14: files a Git Sync folder holds that are neither pages nor assets (`.gitbook.yaml` as
// written, `.md` files SUMMARY.md does not list) are kept by the platform (`git-files`) and come back.
describe.each(testDialects())('folder files kept as written (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let proxy: HostedProxy;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-git-files-'));
    client = createClient({ baseUrl: s.url, token: s.token });
    proxy = await hostedProxy(s.url);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const CONFIG = "root: ./\n\n# moved pages\nredirects:\n  old/alpha: 'README.md'\n  beta-old: beta.md\n";
  const NOTES = '# Notes\n\nNot a page: a draft [link](missing.md).\n\n\n';
  const merge = async (spaceId: string, crId: string) =>
    expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/merge`)).status).toBe(200);
  const stored = async (spaceId: string) => (await s.request('GET', `/v1/spaces/${spaceId}/content`)).body.gitFiles;

  async function withFiles(name: string) {
    const t = await clonedSpace(s, client, work, name);
    await writeFile(join(t.dir, '.gitbook.yaml'), CONFIG);
    await mkdir(join(t.dir, 'drafts'));
    await writeFile(join(t.dir, 'drafts', 'notes.md'), NOTES);
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Settings and a draft');
    return t;
  }

  it('a push sends them, says once they are not pages, and a fresh clone writes them back byte for byte', async () => {
    const t = await withFiles('fresh');
    const pushed = await push(client, t.dir);
    expect(pushed.skipped).toEqual([]);
    expect(pushed.changes).toEqual([
      { operation: 'set_git_file', path: '.gitbook.yaml', text: CONFIG },
      { operation: 'set_git_file', path: 'drafts/notes.md', text: NOTES },
    ]);
    expect(pushed.unlisted).toEqual([
      expect.objectContaining({
        path: 'drafts/notes.md',
        reason: expect.stringContaining('the platform keeps it as a file of the folder'),
      }),
    ]);
    expect(pushed.normalised).toEqual([]);
    await merge(t.spaceId, pushed.changeRequest!.id);
    expect(await stored(t.spaceId)).toEqual([
      { path: '.gitbook.yaml', text: CONFIG },
      { path: 'drafts/notes.md', text: NOTES },
    ]);
    await pull(client, t.dir);
    const again = await push(client, t.dir);
    expect(again.changes).toEqual([]);
    expect(again.unlisted).toEqual([]);

    const back = join(work, 'fresh-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    expect(text(await loadFolder(back))).toEqual(text(await loadFolder(t.dir)));
  });

  it('edits and removals made in one clone reach another by pull; a file SUMMARY.md stops listing stays, one it starts listing becomes a page', async () => {
    const t = await withFiles('pulled');
    await merge(t.spaceId, (await push(client, t.dir)).changeRequest!.id);
    const other = join(work, 'pulled-other');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: other });
    expect(await readFile(join(other, 'drafts', 'notes.md'), 'utf8')).toBe(NOTES);

    // The other writer edits the draft, removes Beta from SUMMARY.md (keeping beta.md) and lists the draft as a page.
    await writeFile(join(other, 'drafts', 'notes.md'), `${NOTES}More.\n`);
    await writeFile(join(other, 'old.md'), 'An old page, unlisted.\n');
    git(other, 'add', '-A');
    git(other, 'commit', '-qm', 'Draft edited');
    await merge(t.spaceId, (await push(client, other)).changeRequest!.id);
    await pull(client, t.dir);
    expect(await readFile(join(t.dir, 'drafts', 'notes.md'), 'utf8')).toBe(`${NOTES}More.\n`);
    expect(await readFile(join(t.dir, 'old.md'), 'utf8')).toBe('An old page, unlisted.\n');

    await pull(client, other);
    const summary = await readFile(join(other, 'SUMMARY.md'), 'utf8');
    const beta = await readFile(join(other, 'beta.md'), 'utf8');
    await writeFile(join(other, 'SUMMARY.md'), `${summary.replace(/^\* \[Beta\]\(beta\.md\)\n/m, '')}* [Notes](drafts/notes.md)\n`);
    await rm(join(other, 'old.md'));
    git(other, 'add', '-A');
    git(other, 'commit', '-qm', 'Beta unlisted, notes listed, old removed');
    const relisted = await push(client, other);
    expect(relisted.skipped).toEqual([]);
    await merge(t.spaceId, relisted.changeRequest!.id);
    expect(((await stored(t.spaceId)) as { path: string }[]).map((f) => f.path)).toEqual(['.gitbook.yaml', 'beta.md']);
    const pages = (await s.request('GET', `/v1/spaces/${t.spaceId}/content`)).body.pages as { title: string }[];
    expect(pages.map((p) => p.title)).toEqual(['Alpha', 'Notes']);

    await pull(client, t.dir);
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe(beta);
    await expect(readFile(join(t.dir, 'old.md'), 'utf8')).rejects.toThrow();
    const back = join(work, 'pulled-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    expect(text(await loadFolder(back))).toEqual(text(await loadFolder(other)));
  });

  it('through an API without the extension (the hosted one) they are not sent, said once, and stay in the folder', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'hosted', empty: true } })).body;
    const hosted = createClient({ baseUrl: proxy.url, token: s.token });
    try {
      const dir = join(work, 'hosted');
      await clone({ client: hosted, apiUrl: proxy.url, spaceId: space.id, dir });
      await writeFile(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n');
      await writeFile(join(dir, 'README.md'), '# Alpha\n\nText.\n');
      await writeFile(join(dir, '.gitbook.yaml'), CONFIG);
      await writeFile(join(dir, 'notes.md'), NOTES);
      git(dir, 'add', '-A');
      git(dir, 'commit', '-qm', 'First page, settings and notes');
      const pushed = await push(hosted, dir);
      expect(pushed.skipped).toEqual([]);
      expect(pushed.changes.map((c) => c.operation)).toEqual(['insert_page']);
      expect(pushed.unlisted.map((u) => [u.path, u.reason])).toEqual([
        ['notes.md', expect.stringContaining('is not sent')],
        ['.gitbook.yaml', expect.stringContaining('stays here as written and is not sent')],
      ]);
      expect(await readFile(join(dir, '.gitbook.yaml'), 'utf8')).toBe(CONFIG);
      expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe(NOTES);
      const again = await push(hosted, dir);
      expect(again.changes).toEqual([]);
      expect(again.unlisted).toEqual([]);
      await merge(space.id, pushed.changeRequest!.id);
      await pull(hosted, dir);
      expect(await readFile(join(dir, '.gitbook.yaml'), 'utf8')).toBe(CONFIG);
      expect(await readFile(join(dir, 'notes.md'), 'utf8')).toBe(NOTES);
      expect(await stored(space.id)).toBeUndefined();
    } finally {
      await hosted.close();
    }
  });
});
