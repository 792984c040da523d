import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDialects, type TestServer } from '../helpers/server.js';
import { type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { runCli } from '../cli/run-cli.js';
import { withSyncServer } from './sync-server.js';
import { clonedSpace, editMain, git } from './fixture.js';

// Issue 13, item 5: a tracked branch deleted with `git branch -D` is a branch no longer
// followed (said once), not a workspace that cannot sync; `cr open` makes it again.
describe.each(testDialects())('a tracked branch deleted with git (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string>;
  withSyncServer(dialect, 'docsync-deleted-branch-', (h) => ({ s, work, client, env } = h));

  it('is no longer followed, said once; main and sync go on; cr open makes it again with what the change request holds', async () => {
    const t = await clonedSpace(s, client, work, 'branch-deleted');
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text\n\ntopic line\n');
    git(t.dir, 'commit', '-qam', 'topic');
    const pushed = await push(client, t.dir);
    const cr = pushed.changeRequest!;
    git(t.dir, 'checkout', '-q', 'main');
    git(t.dir, 'branch', '-qD', 'topic');
    // Both the change request and main move on the platform.
    const edit = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree\nreviewer\n' } }] },
    });
    expect(edit.status).toBe(200);
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text\n\nlive edit\n' } },
    ]);

    const first = await runCli(['pull', '--dir', t.dir], env);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toContain('topic: the git branch was deleted; no longer followed');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('live edit');
    expect((await readState(t.dir)).branches.topic).toMatchObject({ closed: 'deleted' });
    // Said once: the next pull and sync pass do not mention it, and nothing fails.
    expect((await pull(client, t.dir)).map((p) => p.branch)).toEqual(['main']);
    const synced = await runCli(['sync', '--dir', t.dir], env);
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(synced.stdout).not.toContain('topic');
    expect(git(t.dir, 'branch', '--list', 'topic')).toBe('');

    const opened = await runCli(['cr', 'open', String(cr.number), '--dir', t.dir], env);
    expect(opened.code, opened.stdout + opened.stderr).toBe(0);
    expect(git(t.dir, 'branch', '--list', 'topic').trim()).toBe('topic');
    expect(git(t.dir, 'show', 'topic:beta.md')).toContain('topic line');
    expect(git(t.dir, 'show', 'topic:README.md')).toContain('reviewer');
    expect((await readState(t.dir)).branches.topic!.closed).toBeUndefined();
    expect((await pull(client, t.dir)).map((p) => p.branch)).toEqual(['main', 'topic']);
  });
});
