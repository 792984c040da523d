import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
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
import { clonedSpace, editMain, git } from './fixture.js';

const files = (folder: Map<string, Uint8Array | string>) =>
  new Map([...folder].map(([path, value]) => [path, typeof value === 'string' ? value : Buffer.from(value).toString('base64')]));

// Issue 14, item 1: the server keeps the file each page had in the folder it was pushed from
// (`git-path`), so a fresh clone writes every page back where the writer had it.
describe.each(testDialects())('a page keeps its file on the platform (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let proxy: HostedProxy;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-kept-files-'));
    client = createClient({ baseUrl: s.url, token: s.token });
    proxy = await hostedProxy(s.url);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const summary =
    '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Note](misc/note.md)\n* [Tutorials](tutorials.md)\n  * [One](tutorials/one.md)\n  * [Two](tutorials-two.md)\n';
  const note = '# Note\n\nSee [the tutorials](../tutorials.md), [two](../tutorials-two.md#setup) and [beta](../beta.md).\n';

  async function pushed(name: string) {
    const t = await clonedSpace(s, client, work, name);
    await mkdir(join(t.dir, 'misc'));
    await mkdir(join(t.dir, 'tutorials'));
    await writeFile(join(t.dir, 'misc', 'note.md'), note);
    await writeFile(join(t.dir, 'tutorials.md'), '# Tutorials\n\nSee [one](tutorials/one.md).\n');
    await writeFile(join(t.dir, 'tutorials', 'one.md'), '# One\n\nBack to [the list](../tutorials.md).\n');
    await writeFile(join(t.dir, 'tutorials-two.md'), '# Two\n\n## Setup\n');
    await writeFile(join(t.dir, 'SUMMARY.md'), summary);
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Hand-placed pages');
    const first = await push(client, t.dir);
    expect(first.skipped).toEqual([]);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${first.changeRequest!.id}/merge`)).status).toBe(200);
    await pull(client, t.dir);
    return t;
  }

  it("a fresh clone has every file of the writer's folder, byte for byte, links included", async () => {
    const t = await pushed('fresh');
    const back = join(work, 'fresh-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    expect(files(await loadFolder(back))).toEqual(files(await loadFolder(t.dir)));
    expect(await readFile(join(back, 'misc', 'note.md'), 'utf8')).toBe(note);
    expect(existsSync(join(back, 'tutorials', 'README.md'))).toBe(false);
  });

  it('a page the platform moves goes to its rule path in the next pull and clone', async () => {
    const t = await pushed('moved');
    const pages = (await s.request('GET', `/v1/spaces/${t.spaceId}/content`)).body.pages as { id: string; title: string }[];
    const tutorials = pages.find((p) => p.title === 'Tutorials')!.id;
    const noteId = pages.find((p) => p.title === 'Note')!.id;
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: noteId, into: tutorials }]);
    const back = join(work, 'moved-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    expect(existsSync(join(back, 'misc', 'note.md'))).toBe(false);
    expect(await readFile(join(back, 'tutorials', 'note.md'), 'utf8')).toBe(
      '# Note\n\nSee [the tutorials](../tutorials.md), [two](../tutorials-two.md#setup) and [beta](../beta.md).\n',
    );
    expect(await readFile(join(back, 'tutorials.md'), 'utf8')).toBe('# Tutorials\n\nSee [one](tutorials/one.md).\n');
  });

  it('through an API without the extension (the hosted one), pages are cloned at the rule paths', async () => {
    const t = await pushed('hosted');
    const hosted = createClient({ baseUrl: proxy.url, token: s.token });
    try {
      const back = join(work, 'hosted-reader');
      await clone({ client: hosted, apiUrl: proxy.url, spaceId: t.spaceId, dir: back });
      expect(existsSync(join(back, 'tutorials', 'README.md'))).toBe(true);
      expect(existsSync(join(back, 'note.md'))).toBe(true);
      expect(existsSync(join(back, 'misc', 'note.md'))).toBe(false);
    } finally {
      await hosted.close();
    }
  });
});
