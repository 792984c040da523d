import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Client } from '../../src/client/index.js';
import { readState } from '../../src/sync/state/state.js';
import { runCli } from '../cli/run-cli.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import type { TestServer } from '../helpers/server.js';
import { serverForTests } from './server-for-tests.js';
import { clonedSpace, git, remoteMarkdown } from './fixture.js';

/**
 * A push that lost the answer to opening its change request (`.git/docsync/opening/`) looks for
 * the change request it opened: one with its subject, open, without edits, created since, that
 * nothing tracks, and opened by the same user (`GET /v1/user` against the change request's
 * `createdBy`). Another person's change request of the same subject is never taken for it.
 */
describe('the change request found after a lost answer to its opening', () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-opening-creator-', (t) => ({ s, client, work } = t));
  const env = (url: string) => ({ DOCSYNC_API_URL: url, DOCSYNC_TOKEN: s.token });
  const SUBJECT = 'Fix the intro';

  /** A clone with a branch `intro` whose one commit (its subject SUBJECT) edits Beta, and another person's open change request of that subject. */
  async function scenario(name: string) {
    const t = await clonedSpace(s, client, work, name);
    git(t.dir, 'checkout', '-qb', 'intro');
    await writeFile(join(t.dir, 'beta.md'), "# Beta\n\nbeta text, the writer's\n");
    git(t.dir, 'commit', '-qam', SUBJECT);
    const other = await s.user({ org: s.orgId, role: 'admin', name: 'Another Person' });
    const opened = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: SUBJECT }, token: other.token });
    expect(opened.status, JSON.stringify(opened.body)).toBeLessThan(300);
    return { ...t, theirs: opened.body as { id: string; revisionInitial: string } };
  }

  /** The push ended as one that met no fault: its own change request holds the edit, the other person's is untouched. */
  async function expectOwnChangeRequest(t: Awaited<ReturnType<typeof scenario>>) {
    const me = (await s.request('GET', '/v1/user')).body as { id: string };
    const theirs = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${t.theirs.id}`)).body;
    expect(theirs.revision).toBe(t.theirs.revisionInitial);
    const mine = (await readState(t.dir)).branches.intro?.changeRequestId;
    expect(mine).toBeDefined();
    expect(mine).not.toBe(t.theirs.id);
    const cr = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${mine}`)).body;
    expect(cr.createdBy.id).toBe(me.id);
    expect(cr.subject).toBe(SUBJECT);
    expect(await remoteMarkdown(s, t.spaceId, t.beta, mine)).toContain("beta text, the writer's");
    expect(git(t.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(await readdir(join(t.dir, '.git', 'docsync', 'opening')).catch(() => [])).toEqual([]);
    const open = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests?status=open`)).body.items;
    expect(open.filter((c: { subject: string }) => c.subject === SUBJECT)).toHaveLength(2);
  }

  it("a dropped opening (it never reached the server): the push opens its own, not the other person's", async () => {
    const t = await scenario('dropped');
    const proxy = await startFaultProxy({
      target: s.url,
      seed: 1,
      rate: 0,
      force: ({ method, path, nth }) => (method === 'POST' && path.endsWith('/change-requests') && nth === 0 ? 'drop' : undefined),
    });
    try {
      const result = await runCli(['push', '--json', '--dir', t.dir], env(proxy.url));
      expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
      expect(proxy.counts().drop).toBe(1);
    } finally {
      await proxy.close();
    }
    await expectOwnChangeRequest(t);
  }, 120_000);

  it("an opening record left by a killed push: the next push opens its own, not the other person's", async () => {
    const t = await scenario('killed');
    // What a push killed after recording its opening, before its request left, leaves (no creator yet).
    await mkdir(join(t.dir, '.git', 'docsync', 'opening'), { recursive: true });
    const since = new Date(Date.now() - 60_000).toISOString();
    await writeFile(
      join(t.dir, '.git', 'docsync', 'opening', 'intro.json'),
      JSON.stringify({ version: 1, branch: 'intro', subject: SUBJECT, since }),
    );
    const result = await runCli(['push', '--json', '--dir', t.dir], env(s.url));
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    await expectOwnChangeRequest(t);
  }, 120_000);
});
