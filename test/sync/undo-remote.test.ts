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

// Issue 13, item 9: a branch reset past a pull no longer holds the platform's changes; its push
// would send their undoing as the writer's own edits. Refused, as git refuses a
// non-fast-forward, unless --force.
describe.each(testDialects())('a push that would undo platform changes (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  let env: Record<string, string>;
  withSyncServer(dialect, 'docsync-undo-', (h) => ({ s, work, client, env } = h));

  it('refuses (exit 5, dry run included) a branch reset past a pull, naming the file; --force undoes them', async () => {
    const t = await clonedSpace(s, client, work, 'reset');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text\n\nplatform line\n' } },
    ]);
    await pull(client, t.dir);
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('platform line');
    git(t.dir, 'reset', '-q', '--hard', 'HEAD~1');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo\nthree\nfour\n');
    git(t.dir, 'commit', '-qam', 'four');

    const dry = await runCli(['push', '--dry-run', '--dir', t.dir], env);
    expect(dry.code, dry.stdout + dry.stderr).toBe(5);
    expect(dry.stderr).toContain('no longer holds changes made on the platform');
    expect(dry.stderr).toContain("beta.md: the platform's change would be undone");
    const plain = await runCli(['push', '--dir', t.dir], env);
    expect(plain.code).toBe(5);
    expect(await remoteMarkdown(s, t.spaceId, t.beta)).toContain('platform line');

    // Merging the pulled commit back makes it pushable again.
    const pulled = git(t.dir, 'rev-parse', 'refs/docsync/remote/main').trim();
    git(t.dir, 'merge', '-q', '--no-edit', pulled);
    const again = await push(client, t.dir, { dryRun: true });
    expect(again.changes).toMatchObject([{ operation: 'update_page', page: t.alpha }]);

    git(t.dir, 'reset', '-q', '--hard', 'HEAD~1');
    const forced = await push(client, t.dir, { force: true });
    expect(forced.changes.map((c) => c.operation)).toEqual(['update_page', 'update_page']);
    expect(await remoteMarkdown(s, t.spaceId, t.beta, forced.changeRequest!.id)).not.toContain('platform line');
  });

  it('does not refuse a branch that holds the platform lines and edited the same file since', async () => {
    const t = await clonedSpace(s, client, work, 'kept');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text\n\nplatform line\n' } },
    ]);
    await pull(client, t.dir);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, edited\n\nplatform line\n');
    git(t.dir, 'commit', '-qam', 'edit');
    // A history rewritten without the pull's merge (as a rebase does) but holding its lines.
    const tree = git(t.dir, 'rev-parse', 'HEAD^{tree}').trim();
    const lone = git(t.dir, 'commit-tree', tree, '-p', 'HEAD~2', '-m', 'flattened').trim();
    git(t.dir, 'reset', '-q', '--hard', lone);
    const pushed = await push(client, t.dir);
    expect(pushed.changes).toMatchObject([{ operation: 'update_page', page: t.beta }]);
  });
});
