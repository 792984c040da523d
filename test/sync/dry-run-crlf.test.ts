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

// Issue 13, item 11: what push --dry-run shows is what the push would send (uncommitted edits
// included, to the change request that exists), and CRLF files round-trip without mixed endings.
describe.each(testDialects())('dry runs and line endings (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string>;
  withSyncServer(dialect, 'docsync-dry-crlf-', (h) => ({ s, work, client, env } = h));

  it('push --dry-run plans uncommitted edits, commits nothing, and names the change request it would go to', async () => {
    const t = await clonedSpace(s, client, work, 'dry');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nnot committed yet\n');
    const dry = await runCli(['push', '--dry-run', '--dir', t.dir], env);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.stdout).toContain('main: would send 1 operation in 1 batch to a new change request');
    expect(git(t.dir, 'status', '--porcelain')).toBe(' M beta.md\n');
    expect(git(t.dir, 'log', '--oneline').trim().split('\n')).toHaveLength(1);

    const real = await push(client, t.dir);
    expect(real.changes).toMatchObject([{ operation: 'update_page', page: t.beta }]);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nnot committed yet, again\n');
    const again = await runCli(['push', '--dry-run', '--dir', t.dir], env);
    expect(again.stdout).toContain(`main: would send 1 operation in 1 batch to change request #${real.changeRequest!.number}`);
  });

  it('a CRLF file keeps its endings through push and pull, and the platform gets no \\r', async () => {
    const t = await clonedSpace(s, client, work, 'crlf');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\r\n\r\nfirst line\r\nsame paragraph\r\n\r\nsecond\r\n');
    git(t.dir, 'commit', '-qam', 'crlf');
    const pushed = await push(client, t.dir, { branch: 'main' });
    const crId = pushed.changeRequest!.id;
    const stored = await remoteMarkdown(s, t.spaceId, t.beta, crId);
    expect(stored).not.toContain('\r');
    expect(stored).toContain('first line\nsame paragraph');
    const onDisk = await readFile(join(t.dir, 'beta.md'), 'utf8');
    expect(onDisk.replace(/\r\n/g, '')).not.toContain('\n');
    expect(git(t.dir, 'status', '--porcelain')).toBe('');

    // A platform edit pulled into the CRLF file keeps it CRLF throughout.
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${crId}/merge`)).status).toBe(200);
    await pull(client, t.dir);
    await editMain(s, t.spaceId, [
      {
        operation: 'update_page',
        page: t.beta,
        document: { markdown: '# Beta\n\nfirst line\nsame paragraph\n\nsecond\n\nfrom the platform\n' },
      },
    ]);
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo\nthree\nlocal\n');
    git(t.dir, 'commit', '-qam', 'local');
    await pull(client, t.dir);
    const merged = await readFile(join(t.dir, 'beta.md'), 'utf8');
    expect(merged).toContain('from the platform');
    expect(merged.replace(/\r\n/g, '')).not.toContain('\n');
  });
});
