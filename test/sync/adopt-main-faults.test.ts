import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Client } from '../../src/client/index.js';
import { readTreeFiles } from '../../src/git/index.js';
import { pull } from '../../src/sync/pull/pull.js';
import { push } from '../../src/sync/push/push.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import { runCli } from '../cli/run-cli.js';
import { startFaultProxy, type ProxiedRequest } from '../helpers/fault-proxy.js';
import type { TestServer } from '../helpers/server.js';
import { serverForTests } from './server-for-tests.js';
import { clonedSpace, editMain, git } from './fixture.js';

/**
 * A push of a branch the writer merged main into (git merge main) brings main into its change
 * request first (adopt-main: the change request's update, after reverting conflicting pages when
 * it conflicts). The update's answer cut after the server applied it: the push ends exactly as
 * the same push without the fault (a twin workspace): one update applied, no text lost.
 */
describe("a lost answer to adopt-main's update", () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-adopt-main-faults-', (t) => ({ s, client, work } = t));

  const text = (files: ReadonlyMap<string, Uint8Array>) =>
    Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes).toString('utf8')]));

  /** A branch `topic` with its change request, main edited on the platform since (Beta too when `conflict`), pulled and merged into topic with git. */
  async function scenario(name: string, conflict: boolean) {
    const t = await clonedSpace(s, client, work, name);
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic text\n');
    git(t.dir, 'commit', '-qam', 'topic');
    await push(client, t.dir);
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo\nthree\nmain line\n' } },
      ...(conflict ? [{ operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nmain text\n' } }] : []),
    ]);
    git(t.dir, 'checkout', '-q', 'main');
    await pull(client, t.dir);
    git(t.dir, 'checkout', '-q', 'topic');
    if (conflict) {
      expect(() => git(t.dir, 'merge', '-q', 'main')).toThrow();
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic and main text\n');
      git(t.dir, 'commit', '-qam', 'merge main, resolved');
    } else {
      git(t.dir, 'merge', '-q', '--no-edit', 'main');
    }
    return t;
  }

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

  const updates = (log: readonly ProxiedRequest[]) =>
    log.filter((r) => r.method === 'POST' && r.path.endsWith('/update') && r.reached && r.status !== undefined && r.status < 300);

  for (const conflict of [false, true]) {
    it(`${conflict ? 'after reverting the conflicting page' : 'without a conflict'}: the push ends as one without the fault`, async () => {
      const plain = await scenario(`plain-${conflict}`, conflict);
      const faulty = await scenario(`faulty-${conflict}`, conflict);
      const env = (url: string) => ({ DOCSYNC_API_URL: url, DOCSYNC_TOKEN: s.token });
      const clean = await runCli(['push', '--json', '--dir', plain.dir], env(s.url));
      expect(clean.code, clean.stderr).toBe(0);

      // The update that goes through (the second when the first conflicts) is applied, its answer cut.
      const proxy = await startFaultProxy({
        target: s.url,
        seed: 1,
        rate: 0,
        force: ({ method, path, nth }) => (method === 'POST' && path.endsWith('/update') && nth === (conflict ? 1 : 0) ? 'cut' : undefined),
      });
      try {
        const result = await runCli(['push', '--json', '--dir', faulty.dir], env(proxy.url));
        expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
        expect(proxy.counts().cut).toBe(1);
        // One update applied, never sent again.
        expect(updates(proxy.log)).toHaveLength(1);
      } finally {
        await proxy.close();
      }
      const expected = await outcome(plain.dir, plain.spaceId);
      expect(expected.changeRequest['beta.md']).toContain(conflict ? 'topic and main text' : 'topic text');
      expect(expected.changeRequest['README.md']).toContain('main line');
      expect(await outcome(faulty.dir, faulty.spaceId)).toEqual(expected);
    }, 180_000);
  }
});
