import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { readTreeFiles } from '../../src/git/index.js';
import { clone } from '../../src/sync/clone.js';
import { pull } from '../../src/sync/pull/pull.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import { readDaemonStatus } from '../../src/daemon/index.js';
import { loadFolder } from '../../src/workspace/index.js';
import { eventually, spawnWatch } from '../daemon/watch-process.js';
import { seededRandom, startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, editMain, git } from '../sync/fixture.js';
import { spawnCli, type CliProcess } from './run-cli.js';
import { seedFromEnv } from '../helpers/seed.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * `push`, `pull`, `clone` and the daemon's cycle (`watch`), each killed with SIGKILL at a random
 * point (a seeded delay after its first request, within the time an uninterrupted run of it
 * takes; `KILL_SEED` replays a run), then run again: the workspace and the platform end exactly
 * as after an uninterrupted run: no lost edit, no page twice, no stray change request.
 */
const SEED = seedFromEnv('KILL_SEED', 31223);
const KILLS = { push: 14, pull: 14, clone: 12, watch: 10 };

const report = (line: string) => void process.stdout.write(`${line}\n`);
/** What git and docsync say of a lock file a killed process left (docs/git.md, `ref-locked`). */
const LOCK_LEFT = /(\S+\.lock) exists \(another git process is running, or remove it if one crashed\)/;
const text = (files: ReadonlyMap<string, Uint8Array | string>) =>
  Object.fromEntries(
    [...files]
      .filter(([path]) => !path.startsWith('.git/'))
      .map(([path, bytes]) => [path, Buffer.from(bytes as Uint8Array).toString('utf8')]),
  );
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills by command and how each killed run ended (killed, or done before the kill came). */
const outcomes: Record<string, Record<string, number>> = {};
const note = (command: string, outcome: string) => {
  outcomes[command] ??= {};
  outcomes[command]![outcome] = (outcomes[command]![outcome] ?? 0) + 1;
};

describe('commands killed at random points and run again', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  /** A forwarding proxy (no faults) in front of the server: it tells when a run's first request came. */
  let proxy: FaultProxy;
  /** When the proxy started: its log's times count from there. */
  let proxyStarted = 0;
  const random = seededRandom(SEED);
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-kill-'));
    client = createClient({ baseUrl: s.url, token: s.token });
    proxy = await startFaultProxy({ target: s.url, seed: SEED, rate: 0 });
    proxyStarted = Date.now();
    report(`kill seed ${SEED} (KILL_SEED=${SEED} replays it)`);
  });
  afterAll(async () => {
    report(`kills: ${JSON.stringify(outcomes)}`);
    await proxy?.close();
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });
  const env = () => ({ DOCSYNC_API_URL: proxy.url, DOCSYNC_TOKEN: s.token });

  /** Runs the command uninterrupted: how long it takes from its first request to its exit. */
  async function timed(args: string[]): Promise<number> {
    const first = proxy.nextRequest().then(() => Date.now());
    const run = spawnCli(args, env());
    expect(await run.exited, run.stderr()).toBe(0);
    return Date.now() - (await first);
  }

  /** Starts the command and kills it at a random point within `window` ms of its first request. */
  async function killed(command: string, args: string[], window: number): Promise<CliProcess> {
    const first = proxy.nextRequest();
    const run = spawnCli(args, env());
    const delay = Math.floor(random() * window);
    const began = await Promise.race([first.then(() => true), run.exited.then(() => false)]);
    if (began) await Promise.race([pause(delay), run.exited]);
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    const end = await run.exited;
    note(command, end === 'SIGKILL' ? 'killed' : `ended ${end} before the kill`);
    report(`${command}: kill at ${delay} ms of ${window} → ${end}`);
    return run;
  }

  async function expectAgain(args: string[], dir?: string) {
    let again = spawnCli(args, env());
    // A kill inside a ref or index update leaves its `.lock`, as a killed git does; the next
    // command refuses and names it (docs/git.md, `ref-locked`), and the writer removes it as the
    // message says. Nothing else may stop the second run.
    const first = await again.exited;
    const lock = LOCK_LEFT.exec(again.stderr());
    if (first !== 0 && lock) {
      note(args[0]!, 'stale lock removed');
      report(`${args[0]}: the kill left ${lock[1]}; removed as the message says`);
      await rm(lock[1]!, { force: true });
      again = spawnCli(args, env());
    }
    const left = dir === undefined ? '' : ` (left: ${JSON.stringify(await readdir(dir, { recursive: true }).catch(() => []))})`;
    expect(await again.exited, `${again.stdout()}${again.stderr()}${left}`).toBe(0);
  }

  async function openChangeRequests(spaceId: string) {
    const open = [];
    for await (const cr of client.changeRequests.list(spaceId, { status: 'open' })) open.push(cr);
    return open;
  }

  /** A branch's files as git holds them. */
  const treeOf = async (dir: string, branch: string) =>
    text(await readTreeFiles(dir, git(dir, 'rev-parse', `refs/heads/${branch}`).trim()));

  /** Every branch of a workspace with its files, and whether anything is left uncommitted or half-done. */
  async function workspaceOf(dir: string) {
    const out: Record<string, unknown> = {};
    for (const branch of git(dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n')) {
      out[branch] = await treeOf(dir, branch);
    }
    out.status = git(dir, 'status', '--porcelain');
    out.journal = await readdir(join(dir, '.git', 'docsync', 'journal')).catch(() => []);
    out.opening = await readdir(join(dir, '.git', 'docsync', 'opening')).catch(() => []);
    return out;
  }

  /** The change request matches the working tree exactly, every page once. */
  async function expectChangeRequestIsFolder(dir: string, spaceId: string, changeRequestId: string, pages: number) {
    const remote = snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: changeRequestId }));
    expect(text(await loadFolder(dir))).toEqual(text(remote.files));
    const res = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
    const count = (list: any[]): number => list.reduce((n, p) => n + 1 + count(p.pages ?? []), 0);
    expect(count(res.body.pages)).toBe(pages);
  }

  /** 55 new pages (two batches) and an edit, on a new branch made from main. */
  async function branchWithPages(dir: string, branch: string) {
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'checkout', '-qb', branch);
    const lines = ['# Table of contents', '', '* [Alpha](README.md)', '* [Beta](beta.md)'];
    for (let i = 0; i < 55; i += 1) {
      await writeFile(join(dir, `${branch}-${i}.md`), `# ${branch} ${i}\n\nbody ${i}\n`);
      lines.push(`* [${branch} ${i}](${branch}-${i}.md)`);
    }
    await writeFile(join(dir, 'SUMMARY.md'), `${lines.join('\n')}\n`);
    await writeFile(join(dir, 'beta.md'), `# Beta\n\nbeta, edited on ${branch}\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', `Pages of ${branch}`);
  }

  it(`push: ${KILLS.push} kills, each push run again ends as one push`, async () => {
    const t = await clonedSpace(s, client, work, 'push');
    await branchWithPages(t.dir, 'b0');
    const window = await timed(['push', '--dir', t.dir]);
    await expectChangeRequestIsFolder(t.dir, t.spaceId, (await readState(t.dir)).branches.b0!.changeRequestId!, 57);
    for (let kill = 1; kill <= KILLS.push; kill += 1) {
      const branch = `b${kill}`;
      await branchWithPages(t.dir, branch);
      await killed('push', ['push', '--dir', t.dir], window);
      await expectAgain(['push', '--dir', t.dir]);
      const state = await readState(t.dir);
      await expectChangeRequestIsFolder(t.dir, t.spaceId, state.branches[branch]!.changeRequestId!, 57);
      // One change request per branch: none opened twice, none left over.
      expect((await openChangeRequests(t.spaceId)).map((cr) => cr.subject).sort()).toEqual(
        Array.from({ length: kill + 1 }, (_, i) => `Pages of b${i}`).sort(),
      );
      const ws = await workspaceOf(t.dir);
      expect([ws.status, ws.journal, ws.opening]).toEqual(['', [], []]);
    }
  }, 600_000);

  it(`pull: ${KILLS.pull} kills, each pull run again ends as one pull`, async () => {
    const t = await clonedSpace(s, client, work, 'pull');
    const reference = join(work, 'pull-reference');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: reference });
    let window = 0;
    for (let kill = 0; kill <= KILLS.pull; kill += 1) {
      // Pages added, one edited, the last round's first page deleted; now and then a change request opened on the platform.
      const pages = (await s.request('GET', `/v1/spaces/${t.spaceId}/content`)).body.pages as { id: string; title: string }[];
      const gone = pages.find((p) => p.title === `Round ${kill - 1}.0`);
      await editMain(s, t.spaceId, [
        ...Array.from({ length: 8 }, (_, i) => ({
          operation: 'insert_page',
          title: `Round ${kill}.${i}`,
          document: { markdown: `# Round ${kill}.${i}\n\ntext\n` },
        })),
        { operation: 'update_page', page: t.beta, document: { markdown: `# Beta\n\nround ${kill}\n` } },
        ...(gone ? [{ operation: 'delete_page', page: gone.id }] : []),
      ]);
      if (kill % 4 === 1) {
        const cr = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: `Opened ${kill}` } })).body;
        const changes = [{ operation: 'insert_page', title: `Draft ${kill}`, document: { markdown: `# Draft ${kill}\n\ndraft\n` } }];
        expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, { body: { changes } })).status).toBe(
          200,
        );
      }
      await pull(client, reference);
      if (kill === 0) window = await timed(['pull', '--dir', t.dir]);
      else {
        await killed('pull', ['pull', '--dir', t.dir], window);
        await expectAgain(['pull', '--dir', t.dir]);
      }
      expect(await workspaceOf(t.dir)).toEqual(await workspaceOf(reference));
      const [state, want] = [await readState(t.dir), await readState(reference)];
      expect(Object.fromEntries(Object.entries(state.branches).map(([b, e]) => [b, [e.remoteRevision, e.changeRequestId]]))).toEqual(
        Object.fromEntries(Object.entries(want.branches).map(([b, e]) => [b, [e.remoteRevision, e.changeRequestId]])),
      );
    }
  }, 600_000);

  it(`clone: ${KILLS.clone} kills, each clone run again ends as one clone`, async () => {
    const t = await clonedSpace(s, client, work, 'clone');
    await editMain(
      s,
      t.spaceId,
      Array.from({ length: 40 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${i}`,
        document: { markdown: `# Page ${i}\n\ntext ${i}\n` },
      })),
    );
    for (let n = 0; n < 2; n += 1) {
      const cr = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: `Open ${n}` } })).body;
      const changes = [{ operation: 'update_page', page: t.alpha, document: { markdown: `# Alpha\n\nopen ${n}\n` } }];
      expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, { body: { changes } })).status).toBe(200);
    }
    const reference = join(work, 'clone-reference');
    const window = await timed(['clone', t.spaceId, reference]);
    const want = await workspaceOf(reference);
    for (let kill = 1; kill <= KILLS.clone; kill += 1) {
      const dir = join(work, `clone-${kill}`);
      await killed('clone', ['clone', t.spaceId, dir], window);
      if (existsSync(join(dir, '.git', 'docsync', 'state.json')) && !existsSync(join(dir, '.git', 'docsync', 'cloning'))) {
        // Killed once the clone was whole (printing its result): a second clone is refused, as after any clone.
        const again = spawnCli(['clone', t.spaceId, dir], env());
        expect(await again.exited).not.toBe(0);
        expect(again.stderr()).toMatch(/exists and is not empty/);
      } else await expectAgain(['clone', t.spaceId, dir], dir);
      expect(await workspaceOf(dir)).toEqual(want);
      expect(existsSync(join(dir, '.git', 'docsync', 'cloning'))).toBe(false);
    }
  }, 600_000);

  it(`watch: ${KILLS.watch} kills in the daemon's cycle, each daemon run again ends as one cycle`, async () => {
    const t = await clonedSpace(s, client, work, 'watch');
    /** The daemon caught up: nothing uncommitted, nothing the outbox's synced point lacks, no push half-done. */
    const caughtUp = (daemon: { events(): any[]; stderr(): string }) =>
      eventually(async () => {
        // A kill inside an index or ref update leaves its `.lock`: the daemon says so in an error
        // event (docs/git.md, `ref-locked`) and the writer removes it, as for the commands above.
        for (const event of daemon.events()) {
          const lock = event.type === 'error' ? LOCK_LEFT.exec(String(event.message)) : null;
          if (lock && existsSync(lock[1]!)) {
            note('watch', 'stale lock removed');
            report(`watch: the kill left ${lock[1]}; removed as the message says`);
            await rm(lock[1]!, { force: true });
          }
        }
        // The daemon's own account goes with a failure: its errors and activity say what held it.
        const said = `events: ${JSON.stringify(daemon.events())}\nstatus: ${JSON.stringify(await readDaemonStatus(t.dir))}\nstderr: ${daemon.stderr()}\nlast requests: ${JSON.stringify(proxy.log.slice(-12).map(({ body: _, ...request }) => request))} at ${Date.now() - proxyStarted} ms`;
        const outbox = (await readState(t.dir)).branches.main!.outbox;
        expect(outbox?.syncedCommit, said).toBeDefined();
        expect(git(t.dir, 'status', '--porcelain'), said).toBe('');
        expect(git(t.dir, 'diff', '--name-only', outbox!.syncedCommit, 'HEAD'), said).toBe('');
        expect(await readdir(join(t.dir, '.git', 'docsync', 'journal')).catch(() => []), said).toEqual([]);
      }, 60_000);
    let window = 0;
    for (let kill = 0; kill <= KILLS.watch; kill += 1) {
      const daemon = spawnWatch(t.dir, env());
      await daemon.waitFor((e) => e.type === 'started');
      const saved = Date.now();
      // Saves: 30 new pages under a section of their own, and an edit.
      await mkdir(join(t.dir, `round-${kill}`));
      const lines = [`* [Round ${kill}](round-${kill}/README.md)`];
      await writeFile(join(t.dir, `round-${kill}`, 'README.md'), `# Round ${kill}\n\nround\n`);
      for (let i = 0; i < 30; i += 1) {
        await writeFile(join(t.dir, `round-${kill}`, `p-${i}.md`), `# Round ${kill}.${i}\n\ntext\n`);
        lines.push(`  * [Round ${kill}.${i}](round-${kill}/p-${i}.md)`);
      }
      await writeFile(join(t.dir, 'beta.md'), `# Beta\n\nround ${kill}\n`);
      const summary = git(t.dir, 'show', 'HEAD:SUMMARY.md');
      await writeFile(join(t.dir, 'SUMMARY.md'), `${summary.trimEnd()}\n${lines.join('\n')}\n`);
      if (kill === 0) {
        // A loaded machine writes the round's files over more than the debounce: the first push
        // may hold only some. The window is until everything saved is pushed.
        await daemon.waitFor((e) => e.type === 'pushed');
        await caughtUp(daemon);
        window = Date.now() - saved;
        await daemon.stop();
      } else {
        const delay = Math.floor(random() * window);
        await Promise.race([pause(delay), daemon.exited]);
        daemon.child.kill('SIGKILL');
        const end = await daemon.exited;
        note(
          'watch',
          end === 'SIGKILL' ? (daemon.events().some((e) => e.type === 'pushed') ? 'killed after its push' : 'killed') : `ended ${end}`,
        );
        report(`watch: kill at ${delay} ms of ${window} → ${end}`);
        const again = spawnWatch(t.dir, env());
        try {
          await again.waitFor((e) => e.type === 'started');
          await caughtUp(again);
        } finally {
          expect(await again.stop(), again.stderr()).toBe(0);
        }
      }
      const state = await readState(t.dir);
      expect(Object.keys(state.branches)).toEqual(['main']);
      const ws = await workspaceOf(t.dir);
      expect([ws.status, ws.journal, ws.opening]).toEqual(['', [], []]);
      await expectChangeRequestIsFolder(t.dir, t.spaceId, state.branches.main!.outbox!.changeRequestId!, 2 + (kill + 1) * 31);
      // Main's own commits go to one change request, opened once.
      expect(await openChangeRequests(t.spaceId)).toHaveLength(1);
    }
  }, 900_000);
});
