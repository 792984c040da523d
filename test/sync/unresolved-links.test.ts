import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { clonedSpace, editMain, git, remoteMarkdown } from './fixture.js';

// Issue 13, item 2: a link or image the platform cannot resolve stays in the writer's file; the
// read-back never rewrites it to plain text. Issue 14: our server stores such a link as written
// (the published API makes it plain text), so nothing is reported lost; `unsentLinks` names
// (file:line) what a server that drops them did not store.
describe.each(testDialects())('links the platform cannot resolve (%s)', (dialect) => {
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

  const gamma =
    '# Gamma\n\nIntro.\n\nSee [Future](future.md) and [Beta](beta.md).\n\n![img](.gitbook/assets/nope.png)\n\nMore in [the reference][ref].\n\n[ref]: ./missing.md\n\nThe end.\n';

  it("keeps a new page's links to a page not written yet, a missing image and a reference definition, and names each with file and line", async () => {
    const t = await clonedSpace(s, client, work, 'new-page-links');
    git(t.dir, 'checkout', '-qb', 'gamma');
    await writeFile(join(t.dir, 'gamma.md'), gamma);
    await writeFile(join(t.dir, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Gamma](gamma.md)\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Gamma');
    const pushed = await push(client, t.dir);
    expect(pushed.counts).toMatchObject({ inserted: 1 });
    expect(await readFile(join(t.dir, 'gamma.md'), 'utf8')).toBe(gamma);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    expect(pushed.unsentLinks).toEqual([]);

    // A platform edit elsewhere in the page merges in; the writer's links stay.
    const crId = pushed.changeRequest!.id;
    const content = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${crId}/content`)).body;
    const gammaId = content.pages.find((p: { title: string }) => p.title === 'Gamma').id;
    const stored = await remoteMarkdown(s, t.spaceId, gammaId, crId);
    expect(stored).toContain('[Future](future.md)');
    expect(stored).toContain('![img](.gitbook/assets/nope.png)');
    expect(stored).toContain('[ref]: ./missing.md');
    const res = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${crId}/content?compat=false`, {
      body: {
        changes: [
          {
            operation: 'update_page',
            page: gammaId,
            document: { markdown: `# Gamma\n\n${stored.replace('Intro.', 'Intro, edited on the platform.')}` },
          },
        ],
      },
    });
    expect(res.status).toBe(200);
    const pulled = await pull(client, t.dir);
    expect(pulled.find((p) => p.branch === 'gamma')).toMatchObject({ conflicts: [] });
    const after = await readFile(join(t.dir, 'gamma.md'), 'utf8');
    expect(after).toContain('Intro, edited on the platform.');
    expect(after).toContain('[Future](future.md)');
    expect(after).toContain('![img](.gitbook/assets/nope.png)');
    expect(after).toContain('[ref]: ./missing.md');
  });

  it('keeps an image whose asset is left out for its size, and a link that went stale on the platform', async () => {
    const t = await clonedSpace(s, client, work, 'big-asset');
    git(t.dir, 'checkout', '-qb', 'big');
    await mkdir(join(t.dir, '.gitbook', 'assets'), { recursive: true });
    await writeFile(join(t.dir, '.gitbook', 'assets', 'big.png'), Buffer.alloc(1024 * 1024 + 10, 7));
    const beta = '# Beta\n\nbeta text\n\n![big](.gitbook/assets/big.png)\n';
    await writeFile(join(t.dir, 'beta.md'), beta);
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Big image');
    const pushed = await push(client, t.dir);
    expect(pushed.skipped.map((f) => f.path)).toEqual(['.gitbook/assets/big.png']);
    expect(pushed.unsentLinks).toEqual([]);
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe(beta);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });

  it('keeps a link the writer wrote to a page deleted on the platform meanwhile', async () => {
    const t = await clonedSpace(s, client, work, 'stale');
    await editMain(s, t.spaceId, [{ operation: 'delete_page', page: t.beta }]);
    await pull(client, t.dir);
    const alpha = '# Alpha\n\none\ntwo\nthree, and [Beta](beta.md)\n';
    await writeFile(join(t.dir, 'README.md'), alpha);
    git(t.dir, 'commit', '-qam', 'Link to beta');
    const pushed = await push(client, t.dir);
    expect(pushed.unsentLinks).toEqual([]);
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toBe(alpha);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });
});
