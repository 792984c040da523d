import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDialects, type TestServer } from '../helpers/server.js';
import { type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { runCli } from '../cli/run-cli.js';
import { withSyncServer } from './sync-server.js';
import { clonedSpace, git, remoteMarkdown } from './fixture.js';

// Issue 13, item 6: a SUMMARY.md line to a missing file (a typo) and a page file SUMMARY.md does
// not list are named with file and line; that entry waits (no empty page, no stub file), the
// rest of the push goes through.
describe.each(testDialects())('SUMMARY.md entries that cannot be sent (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string>;
  withSyncServer(dialect, 'docsync-summary-problems-', (h) => ({ s, work, client, env } = h));

  const titles = async (spaceId: string, crId: string) =>
    ((await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content`)).body.pages as { title: string }[]).map(
      (p) => p.title,
    );

  it('a line to a missing file is named SUMMARY.md:N and waits; no empty page, no stub file; the file written later is sent', async () => {
    const t = await clonedSpace(s, client, work, 'typo');
    const summary = await readFile(join(t.dir, 'SUMMARY.md'), 'utf8');
    await writeFile(join(t.dir, 'SUMMARY.md'), `${summary.trimEnd()}\n* [Gamma](gamma.md)\n`);
    const line = summary.trimEnd().split('\n').length + 1;
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nedited\n');
    git(t.dir, 'commit', '-qam', 'gamma listed, not written');

    const pushed = await runCli(['push', '--dir', t.dir], env);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(4);
    expect(pushed.stdout).toContain(`NOT SENT SUMMARY.md:${line}: gamma.md is listed but the folder has no such file`);
    expect(pushed.stderr).toContain(`SUMMARY.md:${line}`);
    const state = JSON.parse(await readFile(join(t.dir, '.git/docsync/state.json'), 'utf8'));
    const crId = state.branches.main.outbox.changeRequestId as string;
    expect(await titles(t.spaceId, crId)).toEqual(['Alpha', 'Beta']);
    expect(await remoteMarkdown(s, t.spaceId, t.beta, crId)).toContain('edited');
    expect(existsSync(join(t.dir, 'gamma.md'))).toBe(false);
    expect(await readFile(join(t.dir, 'SUMMARY.md'), 'utf8')).toContain('* [Gamma](gamma.md)');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');

    // It waits: the next push says so again, and sends nothing else.
    const again = await push(client, t.dir);
    expect(again.skipped).toMatchObject([{ path: 'SUMMARY.md', line }]);
    expect(again.changes).toEqual([]);

    await writeFile(join(t.dir, 'gamma.md'), '# Gamma\n\ngamma text\n');
    git(t.dir, 'add', 'gamma.md');
    git(t.dir, 'commit', '-qm', 'gamma written');
    const written = await push(client, t.dir);
    expect(written.skipped).toEqual([]);
    expect(written.changes).toMatchObject([{ operation: 'insert_page', title: 'Gamma' }]);
    expect(await titles(t.spaceId, crId)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('a page file SUMMARY.md does not list is named file:1 and kept by the platform as a file, not a page; it is a warning, not a change waiting (merge goes on)', async () => {
    const t = await clonedSpace(s, client, work, 'unlisted');
    await writeFile(join(t.dir, 'notes.md'), '# Notes\n\nmeant as a page\n');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\nedited\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'notes');
    const pushed = await runCli(['push', '--dir', t.dir], env);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain(
      'NOT A PAGE notes.md:1: not listed in SUMMARY.md, so it is not a page; the platform keeps it as a file of the folder (list it there to make it one)',
    );
    expect(await readFile(join(t.dir, 'notes.md'), 'utf8')).toBe('# Notes\n\nmeant as a page\n');
    const merged = await runCli(['push', '--merge', '--dir', t.dir], env);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
  });
});
