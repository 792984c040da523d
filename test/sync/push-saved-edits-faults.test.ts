import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Client } from '../../src/client/index.js';
import { jsonOf, runCli } from '../cli/run-cli.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import type { TestServer } from '../helpers/server.js';
import { serverForTests } from './server-for-tests.js';
import { clonedSpace, git, remoteMarkdown } from './fixture.js';

/**
 * A push commits the writer's uncommitted edits first and says so (`savedLocalEdits`). When the
 * network fails after that and the push goes on in a further attempt, that attempt finds nothing
 * uncommitted: the push still reports the commit it made of the writer's edits.
 */
describe('a push that goes on after a network failure', () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-push-saved-edits-', (t) => ({ s, client, work } = t));

  it('reports the local edits it committed in its first attempt', async () => {
    const t = await clonedSpace(s, client, work, 'saved');
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nedited, not committed\n');
    const proxy = await startFaultProxy({
      target: s.url,
      seed: 1,
      rate: 0,
      force: ({ method, path, nth }) => (method === 'POST' && path.endsWith('/content') && nth === 0 ? 'drop' : undefined),
    });
    let result;
    try {
      result = await runCli(['push', '--json', '--dir', t.dir], { DOCSYNC_API_URL: proxy.url, DOCSYNC_TOKEN: s.token });
      expect(proxy.counts().drop).toBe(1);
    } finally {
      await proxy.close();
    }
    const pushed = jsonOf(result);
    const commit = git(t.dir, 'log', '-1', '--format=%H', '--grep=^docsync: local edits to beta.md', 'topic').trim();
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(pushed.savedLocalEdits).toBe(commit);
    expect(await remoteMarkdown(s, t.spaceId, t.beta, pushed.changeRequest.id)).toBe('edited, not committed\n');
    expect(git(t.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  }, 120_000);
});
