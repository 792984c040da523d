import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Client } from '../../src/client/index.js';
import { readTreeFiles } from '../../src/git/index.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import { runCli } from '../cli/run-cli.js';
import { startFaultProxy, type ProxiedRequest } from '../helpers/fault-proxy.js';
import type { TestServer } from '../helpers/server.js';
import { serverForTests } from './server-for-tests.js';
import { adoptMainScenario, type AdoptKind } from './adopt-main-fixture.js';
import { git } from './fixture.js';

/**
 * A push of a branch the writer merged main into (git merge main) brings main into its change
 * request first (adopt-main: the change request's update, after reverting conflicting pages when
 * it conflicts, and giving them back when it still conflicts). The answer to the update, or to
 * either revert write, cut after the server applied it: the push ends exactly as the same push
 * without the fault (a twin workspace): each update and revert applied once, no text lost.
 */
describe("a lost answer to adopt-main's update or reverts", () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-adopt-main-faults-', (t) => ({ s, client, work } = t));

  const text = (files: ReadonlyMap<string, Uint8Array>) =>
    Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes).toString('utf8')]));

  const scenario = (name: string, kind: AdoptKind) => adoptMainScenario(s, client, work, name, kind);

  /** What the push left: the branch's files, its change request's content on the platform, git's view, docsync's records. */
  async function outcome(dir: string, spaceId: string) {
    const state = await readState(dir);
    const crId = state.branches.topic!.changeRequestId!;
    const cr = await client.changeRequests.get(spaceId, crId);
    const remote = snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: crId }));
    const records = async (folder: string) => readdir(join(dir, '.git', 'docsync', folder)).catch(() => []);
    return {
      branch: text(await readTreeFiles(dir, git(dir, 'rev-parse', 'topic').trim())),
      changeRequest: text(remote.files),
      outdated: cr.outdated,
      synced: state.branches.topic!.remoteRevision === cr.revision,
      status: git(dir, 'status', '--porcelain', '--untracked-files=all'),
      records: { journal: await records('journal'), adopting: await records('adopting'), opening: await records('opening') },
    };
  }

  /** Writes the server applied (a 2xx): main's updates, and docsync's revert writes. */
  const applied = (log: readonly ProxiedRequest[], what: 'update' | 'revert') =>
    log.filter(
      (r) =>
        r.method === 'POST' &&
        r.reached &&
        r.status !== undefined &&
        r.status < 300 &&
        (what === 'update' ? r.path.endsWith('/update') : r.path.split('?')[0]!.endsWith('/content') && r.body.includes('revert_page')),
    );

  // The write whose answer is cut (or which is dropped before the server), by its order among
  // requests of its method and path: the update that goes through (the second when the first
  // conflicts), the revert of the conflicting page (the first content write of the push), and
  // the revert giving it back (the second).
  const cases = [
    { kind: 'clean', cut: 'update', nth: 0, fault: 'cut', title: 'the update, without a conflict' },
    { kind: 'conflict', cut: 'update', nth: 1, fault: 'cut', title: 'the update, after reverting the conflicting page' },
    { kind: 'conflict', cut: 'content', nth: 0, fault: 'cut', title: 'the revert of the conflicting page, which lets main in' },
    {
      kind: 'move',
      cut: 'content',
      nth: 0,
      fault: 'cut',
      title: 'the revert of the conflicting page, after which the update still conflicts',
    },
    { kind: 'move', cut: 'content', nth: 1, fault: 'cut', title: 'the revert giving the page back what the change request held' },
    { kind: 'conflict', cut: 'content', nth: 0, fault: 'drop', title: 'the revert of the conflicting page, dropped' },
    { kind: 'move', cut: 'content', nth: 1, fault: 'drop', title: 'the revert giving the page back, dropped' },
  ] as const;

  for (const { kind, cut, nth, fault, title } of cases) {
    it(`${title}: the push ends as one without the fault`, async () => {
      const plain = await scenario(`plain-${kind}-${cut}-${nth}-${fault}`, kind);
      const faulty = await scenario(`faulty-${kind}-${cut}-${nth}-${fault}`, kind);
      const env = (url: string) => ({ DOCSYNC_API_URL: url, DOCSYNC_TOKEN: s.token });
      // The push without the fault, through a proxy that only logs: what it applied.
      const logging = await startFaultProxy({ target: s.url, seed: 1, rate: 0 });
      const clean = await runCli(['push', '--json', '--dir', plain.dir], env(logging.url)).finally(() => logging.close());
      expect(clean.code, `${clean.stdout}${clean.stderr}`).toBe(kind === 'move' ? 3 : 0);

      // The write is applied, its answer cut; or it never reaches the server.
      const proxy = await startFaultProxy({
        target: s.url,
        seed: 1,
        rate: 0,
        force: ({ method, path, nth: n }) => (method === 'POST' && path.endsWith(`/${cut}`) && n === nth ? fault : undefined),
      });
      try {
        const result = await runCli(['push', '--json', '--dir', faulty.dir], env(proxy.url));
        expect(result.code, `${result.stdout}${result.stderr}`).toBe(clean.code);
        if (kind === 'move') expect(result.stderr).toContain('still conflicts with main');
        expect(proxy.counts()[fault]).toBe(1);
        expect(proxy.log.find((r) => r.fault === fault)!.body).toContain(cut === 'update' ? '' : 'revert_page');
        // Each update and revert applied as often as without the fault (once), none sent again.
        expect(applied(proxy.log, 'update')).toHaveLength(applied(logging.log, 'update').length);
        expect(applied(proxy.log, 'revert')).toHaveLength(applied(logging.log, 'revert').length);
      } finally {
        await proxy.close();
      }
      const expected = await outcome(plain.dir, plain.spaceId);
      expect(expected.changeRequest['beta.md']).toContain(kind === 'conflict' ? 'topic and main text' : 'topic text');
      if (kind !== 'move') expect(expected.changeRequest['README.md']).toContain('main line');
      expect(await outcome(faulty.dir, faulty.spaceId)).toEqual(expected);
    }, 180_000);
  }

  // The API names no revision's author: the head a lost revert would have made is told by its
  // content. A reviewer's edit on the head the revert was sent on (the revert never reached the
  // server) is not taken for docsync's: the push refuses it, as it refuses any reviewer's edit.
  it("a reviewer's edit after a revert that never reached the server is refused, not adopted", async () => {
    const t = await scenario('reviewer-after-dropped-revert', 'conflict');
    const env = (url: string) => ({ DOCSYNC_API_URL: url, DOCSYNC_TOKEN: s.token });
    const dropping = await startFaultProxy({
      target: s.url,
      seed: 1,
      rate: 0,
      force: ({ method, path }) => (method === 'POST' && path.endsWith('/content') ? 'drop' : undefined),
    });
    const failed = await runCli(['push', '--json', '--dir', t.dir], env(dropping.url)).finally(() => dropping.close());
    expect(failed.code, `${failed.stdout}${failed.stderr}`).not.toBe(0);
    expect(applied(dropping.log, 'revert')).toHaveLength(0);

    const crId = (await readState(t.dir)).branches.topic!.changeRequestId!;
    const edit = await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${crId}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nreviewer text\n' } }] },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);

    const logging = await startFaultProxy({ target: s.url, seed: 1, rate: 0 });
    const refused = await runCli(['push', '--json', '--dir', t.dir], env(logging.url)).finally(() => logging.close());
    expect(refused.code, `${refused.stdout}${refused.stderr}`).toBe(5);
    expect(refused.stderr).toContain('has changes made since topic was last synced');
    expect(applied(logging.log, 'update')).toHaveLength(0);
    expect(logging.log.filter((r) => r.method === 'POST' && r.path.split('?')[0]!.endsWith('/content'))).toHaveLength(0);
    expect((await outcome(t.dir, t.spaceId)).changeRequest['beta.md']).toContain('reviewer text');
  }, 180_000);
});
