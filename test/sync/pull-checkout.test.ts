import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { httpFixture } from '../client/http-fixture.js';
import { createClient, type Client } from '../../src/client/index.js';
import { pull } from '../../src/sync/pull/pull.js';
import { clonedSpace, editMain, git } from './fixture.js';

/** How a pull brings its commit to the checked-out branch's files: only what it changed. */
describe('pull: the working tree', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-pull-checkout-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('writes the pulled changes (edit, addition, deletion of a nested page) and git status is clean', async () => {
    const t = await clonedSpace(s, client, work, 'lands');
    const ids = await editMain(s, t.spaceId, [
      { operation: 'insert_page', into: t.beta, ref: 'child', title: 'Child', document: { markdown: '# Child\n\nnested\n' } },
    ]);
    await pull(client, t.dir);
    expect(await readFile(join(t.dir, 'beta/child.md'), 'utf8')).toContain('nested');
    const untouched = await stat(join(t.dir, 'README.md'));

    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, edited on the platform\n' } },
      { operation: 'delete_page', page: ids.get('child') },
      { operation: 'insert_page', title: 'Gamma', document: { markdown: '# Gamma\n\nnew\n' } },
    ]);
    const [main] = await pull(client, t.dir);
    // Beta stays in the file the workspace has it in, beta.md, beside its children's folder and after.
    expect(main!.changes.map((c) => `${c.status} ${c.path}`)).toEqual([
      'modified SUMMARY.md',
      'modified beta.md',
      'deleted beta/child.md',
      'added gamma.md',
    ]);
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('edited on the platform');
    expect(await readFile(join(t.dir, 'gamma.md'), 'utf8')).toContain('new');
    expect(existsSync(join(t.dir, 'beta'))).toBe(false);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    expect(git(t.dir, 'diff', 'HEAD', '--stat')).toBe('');
    // A file the pull did not change is not written again.
    const after = await stat(join(t.dir, 'README.md'));
    expect([after.ino, after.mtimeMs]).toEqual([untouched.ino, untouched.mtimeMs]);
  });

  it('a merge of local commits with remote edits lands on disk, git status clean', async () => {
    const t = await clonedSpace(s, client, work, 'merged');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, edited locally\n');
    git(t.dir, 'commit', '-qam', 'local commit');
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nTWO\nthree\n' } }]);
    await pull(client, t.dir);
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toContain('TWO');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('edited locally');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });

  /** Pages the pull brings besides the edits: past 25 files, the whole branch is checked out. */
  const added = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      operation: 'insert_page',
      title: `Added ${i}`,
      document: { markdown: `# Added ${i}\n\ntext ${i}\n` },
    }));

  for (const [label, extra] of [
    ['a small pull', 0],
    ['a pull of 30 new pages', 30],
  ] as const) {
    it(`${label}: a file edited on disk while the pull runs is not overwritten, the rest lands`, async () => {
      const t = await clonedSpace(s, client, work, `edited-meanwhile-${extra}`);
      await editMain(s, t.spaceId, [
        { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nTWO\nthree\n' } },
        { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text from the platform\n' } },
        ...added(extra),
      ]);
      // The writer saves beta.md while the pull reads the remote content.
      const meanwhile = '# Beta\n\nbeta text typed during the pull\n';
      const proxy = await httpFixture(async (req, res, seen) => {
        if (new URL(seen.url, s.url).pathname === `/v1/spaces/${t.spaceId}/content`) await writeFile(join(t.dir, 'beta.md'), meanwhile);
        const upstream = await fetch(new URL(seen.url, s.url), {
          method: req.method ?? 'GET',
          headers: { authorization: seen.authorization ?? '' },
        });
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await upstream.arrayBuffer()));
      });
      const viaProxy = createClient({ baseUrl: proxy.url, token: s.token });
      try {
        await pull(viaProxy, t.dir);
      } finally {
        await viaProxy.close();
        await proxy.close();
      }
      expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe(meanwhile);
      expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toContain('TWO');
      for (let i = 0; i < extra; i += 1) expect(await readFile(join(t.dir, `added-${i}.md`), 'utf8')).toContain(`text ${i}`);
      // The branch has the platform's text; the writer's stays on disk, as an edit git shows.
      expect(git(t.dir, 'show', 'HEAD:beta.md')).toContain('from the platform');
      expect(
        git(t.dir, 'status', '--porcelain')
          .trim()
          .split('\n')
          .map((line) => line.slice(3)),
      ).toEqual(['beta.md']);
    });
  }

  it('a pull of 30 new pages lands, git status clean', async () => {
    const t = await clonedSpace(s, client, work, 'large');
    await editMain(s, t.spaceId, added(30));
    const [main] = await pull(client, t.dir);
    expect(main!.changes).toHaveLength(31);
    for (let i = 0; i < 30; i += 1) expect(await readFile(join(t.dir, `added-${i}.md`), 'utf8')).toContain(`text ${i}`);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });
});
