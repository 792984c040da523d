import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { pull } from '../../src/sync/pull/pull.js';
import { push } from '../../src/sync/push/push.js';
import { extractLinks } from '../../src/content/index.js';
import { editMain, git, remoteMarkdown } from './fixture.js';

/** Relative `.md` links of a clone's pages that name no file of the clone. */
async function deadLinks(dir: string, files: readonly string[]): Promise<string[]> {
  const dead: string[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), 'utf8');
    for (const { url } of extractLinks(text)) {
      const path = url.split('#')[0]!;
      if (/^[a-z]+:/i.test(url) || path === '' || !path.endsWith('.md')) continue;
      if (!existsSync(join(dir, dirname(file), decodeURIComponent(path)))) dead.push(`${file}: ${url}`);
    }
  }
  return dead;
}

describe.each(testDialects())('links follow a page moved by a push (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-links-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('a rename pushed from one clone gives the linking page the new path, on the platform and in another clone', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Follow', empty: true } })).body;
    const ids = await editMain(s, space.id, [
      // `./b.md` is the batch ref of Beta, inserted after Alpha.
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\nsee [beta](./b.md#usage)\n' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\n## Usage\n\nbeta text\n' } },
    ]);
    const mover = join(work, `${dialect}-mover`);
    const reader = join(work, `${dialect}-reader`);
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: mover });
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: reader });
    expect(await readFile(join(reader, 'README.md'), 'utf8')).toContain('[beta](beta.md#usage)');

    // The writer renames beta.md and only fixes SUMMARY.md: README.md is not part of the push.
    git(mover, 'checkout', '-qb', 'rename-beta');
    await rename(join(mover, 'beta.md'), join(mover, 'beta-two.md'));
    await writeFile(join(mover, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta-two.md)\n');
    git(mover, 'add', '-A');
    git(mover, 'commit', '-qm', 'Rename beta');
    const pushed = await push(client, mover);
    expect(pushed.changes).toEqual([expect.objectContaining({ operation: 'update_page', page: ids.get('b'), slug: 'beta-two' })]);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${pushed.changeRequest!.id}/merge`)).status).toBe(200);

    expect(await remoteMarkdown(s, space.id, ids.get('a')!)).toBe('see [beta](beta-two.md#usage)\n');
    await pull(client, reader);
    expect(await readFile(join(reader, 'README.md'), 'utf8')).toContain('[beta](beta-two.md#usage)');
    expect(await deadLinks(reader, ['README.md', 'beta-two.md'])).toEqual([]);
    // A fresh clone after the move has no dead link either.
    const fresh = join(work, `${dialect}-fresh`);
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: fresh });
    expect(await deadLinks(fresh, ['README.md', 'beta-two.md'])).toEqual([]);
  });
  it("a rename pushed from one clone gives a reusable content's link the new path, in another clone's include file", async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Follow includes', empty: true } })).body;
    const ids = await editMain(s, space.id, [
      {
        operation: 'insert_page',
        ref: 'a',
        title: 'Alpha',
        document: { markdown: '# Alpha\n\n{% include ".gitbook/includes/note.md" %}\n' },
      },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\n## Usage\n\nbeta text\n' } },
    ]);
    await editMain(s, space.id, [
      { operation: 'insert_reusable_content', title: 'Note', name: 'note.md', document: { markdown: 'see [beta](../../beta.md#usage)\n' } },
    ]);
    const mover = join(work, `${dialect}-include-mover`);
    const reader = join(work, `${dialect}-include-reader`);
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: mover });
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: reader });
    const note = join(reader, '.gitbook/includes/note.md');
    expect(await readFile(note, 'utf8')).toContain('[beta](../../beta.md#usage)');

    // The writer renames beta.md and only fixes SUMMARY.md: the include is not part of the push.
    git(mover, 'checkout', '-qb', 'rename-beta');
    await rename(join(mover, 'beta.md'), join(mover, 'beta-two.md'));
    await writeFile(join(mover, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta-two.md)\n');
    git(mover, 'add', '-A');
    git(mover, 'commit', '-qm', 'Rename beta');
    const pushed = await push(client, mover);
    expect(pushed.changes).toEqual([expect.objectContaining({ operation: 'update_page', page: ids.get('b'), slug: 'beta-two' })]);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${pushed.changeRequest!.id}/merge`)).status).toBe(200);

    await pull(client, reader);
    expect(await readFile(note, 'utf8')).toContain('[beta](../../beta-two.md#usage)');
    expect(await deadLinks(reader, ['.gitbook/includes/note.md'])).toEqual([]);
    const fresh = join(work, `${dialect}-include-fresh`);
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: fresh });
    expect(await deadLinks(fresh, ['.gitbook/includes/note.md'])).toEqual([]);
  });
});
