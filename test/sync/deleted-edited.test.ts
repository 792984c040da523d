import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDialects, type TestServer } from '../helpers/server.js';
import { type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { runCli } from '../cli/run-cli.js';
import { withSyncServer } from './sync-server.js';
import { clonedSpace, editMain, git, remoteMarkdown } from './fixture.js';

// Issue 13, item 7: a page deleted on one side and edited on the other keeps both sides where
// the writer sees them: the edit stays a listed page, and the CLI says which file and what
// happened, with no "resolve the markers" when there are none.
describe.each(testDialects())('delete against edit (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string>;
  withSyncServer(dialect, 'docsync-deleted-edited-', (h) => ({ s, work, client, env } = h));

  const pages = async (spaceId: string) =>
    (await s.request('GET', `/v1/spaces/${spaceId}/content`)).body.pages as { id: string; title: string }[];

  it('deleted on the platform, edited here: the edit stays a listed page and the next push sends it', async () => {
    const t = await clonedSpace(s, client, work, 'remote-delete');
    await editMain(s, t.spaceId, [{ operation: 'delete_page', page: t.beta }]);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nmy new paragraph\n');
    git(t.dir, 'commit', '-qam', 'edit beta');

    const pulled = await runCli(['pull', '--dir', t.dir], env);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('main:beta.md: deleted on the platform, edited here: your text is kept in beta.md');
    expect(pulled.stdout).not.toContain('CONFLICTS');
    expect(pulled.stdout).not.toContain('markers');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nbeta text\n\nmy new paragraph\n');
    expect(await readFile(join(t.dir, 'SUMMARY.md'), 'utf8')).toContain('(beta.md)');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');

    const pushed = await push(client, t.dir);
    expect(pushed.changes).toMatchObject([{ operation: 'insert_page', title: 'Beta' }]);
    const inserted = (
      await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${pushed.changeRequest!.id}/content`)
    ).body.pages.find((p: any) => p.title === 'Beta');
    expect(await remoteMarkdown(s, t.spaceId, inserted.id, pushed.changeRequest!.id)).toContain('my new paragraph');
  });

  it("deleted here, edited on the platform: the platform's edit comes back as a listed page and a push does not delete it", async () => {
    const t = await clonedSpace(s, client, work, 'local-delete');
    git(t.dir, 'rm', '-q', 'beta.md');
    const summary = await readFile(join(t.dir, 'SUMMARY.md'), 'utf8');
    await writeFile(
      join(t.dir, 'SUMMARY.md'),
      summary
        .split('\n')
        .filter((line) => !line.includes('(beta.md)'))
        .join('\n'),
    );
    git(t.dir, 'commit', '-qam', 'delete beta');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text\n\nthe platform paragraph\n' } },
    ]);

    const [main] = await pull(client, t.dir);
    expect(main).toMatchObject({ conflicts: [], kept: [{ path: 'beta.md', what: 'deleted-locally' }] });
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('the platform paragraph');
    expect(await readFile(join(t.dir, 'SUMMARY.md'), 'utf8')).toBe(summary);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');

    // Nothing to send: the platform keeps the page with its id and its paragraph.
    const pushed = await push(client, t.dir);
    expect(pushed.changes).toEqual([]);
    expect((await pages(t.spaceId)).map((p) => p.id)).toContain(t.beta);
    expect(await remoteMarkdown(s, t.spaceId, t.beta)).toContain('the platform paragraph');

    // Deleting it again, having seen the edit, deletes the page.
    git(t.dir, 'rm', '-q', 'beta.md');
    await writeFile(
      join(t.dir, 'SUMMARY.md'),
      summary
        .split('\n')
        .filter((line) => !line.includes('(beta.md)'))
        .join('\n'),
    );
    git(t.dir, 'commit', '-qam', 'delete beta again');
    expect((await push(client, t.dir)).changes).toMatchObject([{ operation: 'delete_page', page: t.beta }]);
  });

  it('sync names the file and what happened, and exits 0', async () => {
    const t = await clonedSpace(s, client, work, 'sync-local-delete');
    git(t.dir, 'rm', '-q', 'beta.md');
    const summary = await readFile(join(t.dir, 'SUMMARY.md'), 'utf8');
    await writeFile(
      join(t.dir, 'SUMMARY.md'),
      summary
        .split('\n')
        .filter((line) => !line.includes('(beta.md)'))
        .join('\n'),
    );
    git(t.dir, 'commit', '-qam', 'delete beta');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text\n\nthe platform paragraph\n' } },
    ]);

    const synced = await runCli(['sync', '--dir', t.dir], env);
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(synced.stdout).toContain("main:beta.md: deleted here, edited on the platform: the platform's version is back in beta.md");
    expect(synced.stdout).not.toContain('CONFLICTS');
    expect(await remoteMarkdown(s, t.spaceId, t.beta)).toContain('the platform paragraph');
  });
});
