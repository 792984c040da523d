import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from '../../src/client/index.js';
import { readTreeFiles } from '../../src/git/index.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import { seededRandom, startFaultProxy, type FaultProxy, type ProxiedRequest } from '../helpers/fault-proxy.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';
import { seedFromEnv } from '../helpers/seed.js';
import type { TestServer } from '../helpers/server.js';
import { adoptMainScenario, type AdoptKind } from '../sync/adopt-main-fixture.js';
import { git } from '../sync/fixture.js';
import { serverForTests } from '../sync/server-for-tests.js';
import { spawnCli } from './run-cli.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * `push` of a branch the writer merged main into with git (adopt-main: main brought into its
 * change request through the update, after reverting conflicting pages, giving them back when it
 * still conflicts; src/sync/push/adopt-main.ts), killed with SIGKILL at a random point (a seeded
 * delay after its first request, within the time an uninterrupted push of the same situation
 * takes; `KILL_SEED` replays a run), then run again: the workspace and the platform end exactly
 * as after the uninterrupted push on a twin workspace: no lost edit, no page twice, no stray
 * change request, no docsync revert left in the change request. The machinery is that of
 * kill-commands.test.ts.
 */
const SEED = seedFromEnv('KILL_SEED', 24024);
const KILLS = 8;
/** The situation of each kill, in turn (adopt-main-fixture.ts). */
const KINDS: readonly AdoptKind[] = ['conflict', 'move', 'clean'];

const report = (line: string) => void process.stdout.write(`${line}\n`);
/** What git and docsync say of a lock file a killed process left (docs/git.md, `ref-locked`). */
const LOCK_LEFT = /(\S+\.lock) exists \(another git process is running, or remove it if one crashed\)/;
const text = (files: ReadonlyMap<string, Uint8Array | string>) =>
  Object.fromEntries([...files].map(([path, bytes]) => [path, Buffer.from(bytes as Uint8Array).toString('utf8')]));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How each killed push ended (killed, or done before the kill came), by situation. */
const outcomes: Record<string, Record<string, number>> = {};
const note = (kind: string, outcome: string) => {
  outcomes[kind] ??= {};
  outcomes[kind]![outcome] = (outcomes[kind]![outcome] ?? 0) + 1;
};

/** adopt-main's writes in a run's requests, in order, with the server's status (or `lost` when the kill came first). */
const adoptWrites = (log: readonly ProxiedRequest[]) =>
  log
    .filter((r) => r.method === 'POST' && r.reached)
    .map((r) => {
      const path = r.path.split('?')[0]!;
      const what = path.endsWith('/update') ? 'update' : path.endsWith('/content') && r.body.includes('revert_page') ? 'revert' : undefined;
      return what === undefined ? undefined : `${what} ${r.status ?? 'lost'}`;
    })
    .filter((w) => w !== undefined);

describe('push of a branch merged with main (adopt-main) killed at random points and run again', () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-kill-adopt-', (t) => ({ s, client, work } = t));
  /** A forwarding proxy (no faults) in front of the server: it tells when a run's first request came. */
  let proxy: FaultProxy;
  const random = seededRandom(SEED);
  beforeAll(async () => {
    proxy = await startFaultProxy({ target: s.url, seed: SEED, rate: 0 });
    report(`kill seed ${SEED} (KILL_SEED=${SEED} replays it)`);
  });
  afterAll(async () => {
    report(`adopt-main kills: ${JSON.stringify(outcomes)}`);
    await proxy?.close();
  });
  const env = () => ({ DOCSYNC_API_URL: proxy.url, DOCSYNC_TOKEN: s.token });
  const pushArgs = (dir: string) => ['push', '--json', '--dir', dir];

  /** Runs the push uninterrupted: its exit, and how long it takes from its first request to its exit. */
  async function timed(dir: string): Promise<{ code: number | string; window: number }> {
    const first = proxy.nextRequest().then(() => Date.now());
    const run = spawnCli(pushArgs(dir), env());
    const code = await run.exited;
    expect(typeof code, run.stderr()).toBe('number');
    return { code, window: Date.now() - (await first) };
  }

  /** A push run to its end, once more if the kill left a `.lock` its error names (as kill-commands does). */
  async function again(dir: string): Promise<{ code: number | string; said: string }> {
    let run = spawnCli(pushArgs(dir), env());
    const code = await run.exited;
    const lock = LOCK_LEFT.exec(run.stderr());
    if (code !== 0 && lock) {
      note('push', 'stale lock removed');
      report(`push: the kill left ${lock[1]}; removed as the message says`);
      await rm(lock[1]!, { force: true });
      run = spawnCli(pushArgs(dir), env());
    }
    return { code: await run.exited, said: `${run.stdout()}${run.stderr()}` };
  }

  /**
   * What a push left, comparable across twin spaces: every branch's files and commit subjects, git's
   * status, docsync's records, the change request (content, page count, outdated, synced), the
   * space's main and its open change requests.
   */
  async function outcome(dir: string, spaceId: string) {
    const state = await readState(dir);
    const crId = state.branches.topic!.changeRequestId!;
    const cr = await client.changeRequests.get(spaceId, crId);
    const branches: Record<string, unknown> = {};
    for (const branch of git(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n')) {
      branches[branch] = {
        files: text(await readTreeFiles(dir, git(dir, 'rev-parse', `refs/heads/${branch}`).trim())),
        // Revision ids and the space's name (the folder's) differ between twins, and commits of
        // one second in another order: the branch's commits by subject, sorted.
        commits: git(dir, 'log', '--format=%s', branch)
          .replaceAll(basename(dir), '<space>')
          .replace(/revision [\w-]+/g, 'revision <id>')
          .trim()
          .split('\n')
          .sort(),
      };
    }
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}/content`);
    const count = (list: any[]): number => list.reduce((n, p) => n + 1 + count(p.pages ?? []), 0);
    const open = [];
    for await (const c of client.changeRequests.list(spaceId, { status: 'open' })) open.push(c.subject);
    const records = async (folder: string) => readdir(join(dir, '.git', 'docsync', folder)).catch(() => []);
    return {
      checkedOut: git(dir, 'branch', '--show-current').trim(),
      branches,
      status: git(dir, 'status', '--porcelain', '--untracked-files=all'),
      records: { journal: await records('journal'), adopting: await records('adopting'), opening: await records('opening') },
      changeRequest: text(snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: crId })).files),
      pages: count(res.body.pages),
      outdated: cr.outdated,
      synced: state.branches.topic!.remoteRevision === cr.revision,
      main: text(snapshotOf(await fetchContent(client, { space: spaceId })).files),
      open: open.sort(),
    };
  }

  it(`${KILLS} kills across the update, the reverts and the give-back; each push run again ends as one push`, async () => {
    // The uninterrupted push of each situation on a twin workspace: its exit, end state and
    // duration (the kill window); and a second push of it, which a kill after the push's work
    // (the give-back done, before the exit) leaves to the rerun.
    const twins = new Map<AdoptKind, { code: number | string; then: number | string; window: number; want: unknown }>();
    for (const kind of KINDS) {
      const t = await adoptMainScenario(s, client, work, `twin-${kind}`, kind);
      const { code, window } = await timed(t.dir);
      const want = await outcome(t.dir, t.spaceId);
      const second = await again(t.dir);
      expect(await outcome(t.dir, t.spaceId), second.said).toEqual(want);
      twins.set(kind, { code, then: second.code, window, want });
      report(`${kind}: uninterrupted push exits ${code} in ${window} ms (again: ${second.code})`);
    }
    expect([...twins.values()].map((t) => t.code)).toEqual([0, 3, 0]);

    for (let kill = 1; kill <= KILLS; kill += 1) {
      const kind = KINDS[(kill - 1) % KINDS.length]!;
      const twin = twins.get(kind)!;
      const t = await adoptMainScenario(s, client, work, `kill-${kill}-${kind}`, kind);
      const from = proxy.log.length;
      const first = proxy.nextRequest();
      const run = spawnCli(pushArgs(t.dir), env());
      const delay = Math.floor(random() * twin.window);
      const began = await Promise.race([first.then(() => true), run.exited.then(() => false)]);
      if (began) await Promise.race([pause(delay), run.exited]);
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
      const end = await run.exited;
      const writes = adoptWrites(proxy.log.slice(from));
      note(kind, end === 'SIGKILL' ? 'killed' : `ended ${end} before the kill`);
      report(
        `push (${kind}) ${kill}: kill at ${delay} ms of ${twin.window} → ${end}; adopt-main's writes by then: ${writes.join(', ') || 'none'}`,
      );

      const rerun = await again(t.dir);
      // The rerun exits as the uninterrupted push; once the give-back landed (the push's work
      // done, the kill before its exit), it may find nothing left and exit as a second push does.
      const gaveBack = writes.filter((w) => w.startsWith('revert')).length === 2;
      expect([twin.code, ...(gaveBack ? [twin.then] : [])], rerun.said).toContain(rerun.code);
      if (rerun.code !== twin.code) note(kind, `run again exits ${rerun.code}, as a second push`);
      report(`push (${kind}) ${kill}: run again → ${rerun.code}`);
      expect(await outcome(t.dir, t.spaceId), rerun.said).toEqual(twin.want);
    }
  }, 600_000);
});
