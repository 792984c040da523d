import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { clonedSpace, git, remoteMarkdown } from './fixture.js';

// Issue 13, item 10: a page keeps its id (and its comments) through a rename git's 50%
// similarity misses, matched by its SUMMARY.md title, front matter and place; two files whose
// names are swapped keep the ids with the paths.
describe.each(testDialects())('renames beyond git similarity (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-rename-match-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const pages = async (spaceId: string, crId: string) =>
    (await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content`)).body.pages as {
      id: string;
      title: string;
      pages: { id: string; title: string }[];
    }[];

  it('a small page moved into a folder and rewritten keeps its id (same title in SUMMARY.md)', async () => {
    const t = await clonedSpace(s, client, work, 'small-move');
    await mkdir(join(t.dir, 'guides'));
    git(t.dir, 'mv', 'beta.md', 'guides/beta.md');
    await writeFile(
      join(t.dir, 'guides/beta.md'),
      '# Beta\n\nAll new text here, nothing like before.\n\nSee [the start](../README.md).\n\nAnd a third paragraph.\n',
    );
    const summary = await readFile(join(t.dir, 'SUMMARY.md'), 'utf8');
    await writeFile(join(t.dir, 'SUMMARY.md'), summary.replace('(beta.md)', '(guides/beta.md)'));
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'move and rewrite beta');
    expect(git(t.dir, 'diff', '-M', '--name-status', 'HEAD~1', 'HEAD')).not.toMatch(/^R/m);

    const pushed = await push(client, t.dir);
    expect(pushed.changes.map((c) => c.operation)).not.toContain('delete_page');
    expect(pushed.changes.map((c) => c.operation)).not.toContain('insert_page');
    expect(await remoteMarkdown(s, t.spaceId, t.beta, pushed.changeRequest!.id)).toContain('All new text here');
  });

  it('swapping two files keeps the ids with the paths', async () => {
    const t = await clonedSpace(s, client, work, 'swap');
    await writeFile(join(t.dir, 'gamma.md'), '# Gamma\n\ngamma text\n');
    const summary = await readFile(join(t.dir, 'SUMMARY.md'), 'utf8');
    await writeFile(join(t.dir, 'SUMMARY.md'), `${summary.trimEnd()}\n* [Gamma](gamma.md)\n`);
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'gamma');
    const first = await push(client, t.dir);
    const crId = first.changeRequest!.id;
    const gamma = (await pages(t.spaceId, crId)).find((p) => p.title === 'Gamma')!.id;

    git(t.dir, 'mv', 'beta.md', 'tmp.md');
    git(t.dir, 'mv', 'gamma.md', 'beta.md');
    git(t.dir, 'mv', 'tmp.md', 'gamma.md');
    git(t.dir, 'commit', '-qm', 'swap');
    const swapped = await push(client, t.dir);
    expect(swapped.changes.map((c) => c.operation).sort()).toEqual(['update_page', 'update_page']);
    expect(await remoteMarkdown(s, t.spaceId, t.beta, crId)).toContain('gamma text');
    expect(await remoteMarkdown(s, t.spaceId, gamma, crId)).toContain('beta text');
  });
});
