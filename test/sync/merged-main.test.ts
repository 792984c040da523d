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

// Issue 13, item 8: resolving the git way (git merge main into the branch, conflicts resolved,
// committed) makes the branch pushable onto its change request, and the change request mergeable.
describe.each(testDialects())('main merged into a branch with git (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string>;
  withSyncServer(dialect, 'docsync-merged-main-', (h) => ({ s, work, client, env } = h));

  it('a conflict resolved with git merge main is pushed onto the change request, which then merges', async () => {
    const t = await clonedSpace(s, client, work, 'git-merge');
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic text\n');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo\nthree\ntopic only\n');
    git(t.dir, 'commit', '-qam', 'topic');
    const first = await push(client, t.dir);
    const crId = first.changeRequest!.id;
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nmain text\n' } }]);

    // The platform refuses the merge: both changed beta's line.
    expect((await runCli(['merge', 'topic', '--dir', t.dir], env)).code).toBe(3);
    git(t.dir, 'checkout', '-q', 'main');
    await pull(client, t.dir);
    git(t.dir, 'checkout', '-q', 'topic');
    expect(() => git(t.dir, 'merge', '-q', 'main')).toThrow();
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic and main text\n');
    git(t.dir, 'commit', '-qam', 'merge main, resolved');

    const pushed = await runCli(['push', '--dir', t.dir], env);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(await remoteMarkdown(s, t.spaceId, t.beta, crId)).toBe('topic and main text\n');
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, crId)).toContain('topic only');
    const merged = await runCli(['merge', 'topic', '--dir', t.dir], env);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    expect(await remoteMarkdown(s, t.spaceId, t.beta)).toBe('topic and main text\n');
    expect(await remoteMarkdown(s, t.spaceId, t.alpha)).toContain('topic only');
    git(t.dir, 'checkout', '-q', 'main');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\ntopic and main text\n');
  });

  it('without a conflict, the merge of main is pushed and the change request is no longer outdated', async () => {
    const t = await clonedSpace(s, client, work, 'git-merge-clean');
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic text\n');
    git(t.dir, 'commit', '-qam', 'topic');
    const crId = (await push(client, t.dir)).changeRequest!.id;
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree\nmain line\n' } },
    ]);
    git(t.dir, 'checkout', '-q', 'main');
    await pull(client, t.dir);
    git(t.dir, 'checkout', '-q', 'topic');
    git(t.dir, 'merge', '-q', '--no-edit', 'main');
    await push(client, t.dir);
    const cr = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${crId}`)).body;
    expect(cr.outdated).toBe(false);
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, crId)).toContain('main line');
    // Nothing left to push, nothing to pull.
    expect((await push(client, t.dir)).changes).toEqual([]);
    expect((await pull(client, t.dir)).find((p) => p.branch === 'topic')).toMatchObject({ conflicts: [] });
  });
});
