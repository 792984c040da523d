import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { readState } from '../../src/sync/state/state.js';
import { clonedSpace, editMain, git, remoteMarkdown } from '../sync/fixture.js';
import { jsonOf, runCli } from './run-cli.js';

/** push, sync and mirror as a writer or a cron job runs them: output and exit codes. */
describe('docsync push / sync / mirror', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-cli-push-'));
    client = createClient({ baseUrl: s.url, token: s.token });
    env = { XDG_CONFIG_HOME: join(work, 'config'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('push opens a change request with --subject, prints its number and URL, and --merge merges it into main', async () => {
    const t = await clonedSpace(s, client, work, 'push-merge');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nshipped from main\n');
    const pushed = await runCli(['push', '--dir', t.dir, '--subject', 'Ship beta', '--merge'], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toMatch(
      /^main: pushed to new change request #\d+ http\S+ \(1 updated; 1 batch\), revision \S+\n {2}committed uncommitted edits first \(\w+\)\nmerged change request #\d+ into main/,
    );
    expect(await remoteMarkdown(s, t.spaceId, t.beta)).toContain('shipped from main');
    expect((await readState(t.dir)).branches.main!.outbox).toBeUndefined();
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    const status = await runCli(['status', '--dir', t.dir], env);
    expect(status.stdout).toBe('daemon: not running\n* main: in sync\n');
  });

  it('status tells commits on main pushed to their change request from commits not pushed', async () => {
    const t = await clonedSpace(s, client, work, 'outbox-status');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\npushed from main\n');
    expect((await runCli(['push', '--dir', t.dir], env)).code).toBe(0);
    const number = (await readState(t.dir)).branches.main!.outbox!.changeRequestNumber;
    expect((await runCli(['status', '--dir', t.dir], env)).stdout).toBe(
      `daemon: not running\n* main: commits pushed to change request #${number}, not merged yet\n`,
    );
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nnot pushed yet\n');
    git(t.dir, 'commit', '-qam', 'more');
    expect((await runCli(['status', '--dir', t.dir], env)).stdout).toBe(
      `daemon: not running\n* main: 1 committed file change(s) not pushed; commits pushed to change request #${number}, not merged yet\n`,
    );
  });

  it('--dry-run lists the operations and sends nothing', async () => {
    const t = await clonedSpace(s, client, work, 'dry');
    git(t.dir, 'checkout', '-qb', 'draft');
    await writeFile(join(t.dir, 'gamma.md'), '# Gamma\n\nnew\n');
    await writeFile(join(t.dir, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n* [Gamma](gamma.md)\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Gamma instead of Beta');
    const dry = await runCli(['push', '--dry-run', '--dir', t.dir], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      // beta.md stays in the folder, listed nowhere: it is kept as a folder file.
      `draft: would send 3 operations in 1 batch to a new change request (1 inserted, 1 deleted)\n  delete page ${t.beta}\n  insert page "Gamma" (gamma) at the top level at 1\n  store folder file beta.md\n`,
    );
    expect((await readState(t.dir)).branches.draft).toBeUndefined();
  });

  it('leaves out a page with conflict markers, sends the rest, and exits 4', async () => {
    const t = await clonedSpace(s, client, work, 'markers');
    git(t.dir, 'checkout', '-qb', 'mixed');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\n<<<<<<< local\none\n=======\nuno\n>>>>>>> remote\n');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nclean edit\n');
    git(t.dir, 'commit', '-qam', 'half resolved');
    const pushed = await runCli(['push', '--dir', t.dir], env);
    expect(pushed.code).toBe(4);
    expect(pushed.stdout).toContain('NOT SENT README.md: it has conflict markers (resolve them, then commit)');
    expect(pushed.stderr).toBe('docsync: 1 file(s) were not sent: README.md\n');
    const crId = (await readState(t.dir)).branches.mixed!.changeRequestId!;
    expect(await remoteMarkdown(s, t.spaceId, t.beta, crId)).toContain('clean edit');
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, crId)).not.toContain('<<<<<<<');
    // The file keeps its markers locally: nothing is overwritten.
    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toContain('<<<<<<< local');
  });

  it('refuses to delete most of a space without --allow-mass-delete (exit 5), and does it with', async () => {
    const t = await clonedSpace(s, client, work, 'mass');
    git(t.dir, 'checkout', '-qb', 'wipe');
    await rm(join(t.dir, 'beta.md'));
    await rm(join(t.dir, 'README.md'));
    await writeFile(join(t.dir, 'SUMMARY.md'), '# Table of contents\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'wipe');
    const refused = await runCli(['push', '--dir', t.dir], env);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toMatch(/would delete 2 of 2 pages \(the workspace has no pages\); nothing was sent\. .*--allow-mass-delete/);
    expect((await readState(t.dir)).branches.wipe).toBeUndefined();
    const allowed = await runCli(['push', '--dir', t.dir, '--allow-mass-delete', '--json'], env);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(jsonOf(allowed).counts).toMatchObject({ deleted: 2 });
  });

  it('sync exits 0 when clean, 5 when a push is refused, 3 when a pull leaves conflicts', async () => {
    const t = await clonedSpace(s, client, work, 'cron');
    expect((await runCli(['sync', '--dir', t.dir], env)).code).toBe(0);

    git(t.dir, 'checkout', '-qb', 'stale');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nstale branch\n');
    git(t.dir, 'commit', '-qam', 'stale');
    git(t.dir, 'checkout', '-q', 'main');
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nTWO\nthree\n' } }]);
    const refused = await runCli(['sync', '--dir', t.dir], env);
    expect(refused.code).toBe(5);
    expect(refused.stdout).toContain("stale: not pushed: stale does not contain main's last synced commit");

    git(t.dir, 'branch', '-qD', 'stale');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\nzwei\nthree\n');
    git(t.dir, 'commit', '-qam', 'local two');
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ndos\nthree\n' } }]);
    const conflicted = await runCli(['sync', '--dir', t.dir], env);
    expect(conflicted.code).toBe(3);
    expect(conflicted.stderr).toContain('conflict markers in main:README.md');
  });

  it('an API refusal is one line and exit 1, never an internal error', async () => {
    const t = await clonedSpace(s, client, work, 'refused-token');
    const denied = await runCli(['push', '--dir', t.dir], { ...env, DOCSYNC_TOKEN: 'not-a-token' });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^docsync: the bearer token is unknown[^\n]*\n$/);
    expect(denied.stderr).not.toContain('internal error');
  });

  it('mirror clones every space of an organization, then reports each one in sync', async () => {
    const org = (await s.request('POST', '/v1/orgs', { body: { title: 'Mirrored' } })).body;
    const orgId = org?.id ?? s.orgId;
    await s.request('POST', `/v1/orgs/${orgId}/spaces`, { body: { title: 'Runbooks', empty: true } });
    const dir = join(work, 'mirror');
    const first = await runCli(['mirror', dir, '--org', orgId], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('runbooks: cloned "Runbooks"');
    const again = await runCli(['mirror', dir, '--org', orgId, '--push'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('runbooks: up to date');
  });
});
