import { utimesSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { readState } from '../../src/sync/state/state.js';
import { readDaemonStatus } from '../../src/daemon/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, editMain, git, remoteMarkdown } from '../sync/fixture.js';
import { runCli, spawnCli } from '../cli/run-cli.js';
import { cycleAfterTouch, eventually, expectExitOk, spawnWatch } from './watch-process.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** `docsync watch` as a child process on a real server and a real clone. */
describe('docsync watch', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-watch-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });
  const env = () => ({ DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });

  it('commits a save, pushes it to the change request, and exits 0 on SIGTERM', async () => {
    const t = await clonedSpace(s, client, work, 'save');
    const watch = spawnWatch(t.dir, env());
    try {
      await watch.waitFor((e) => e.type === 'started');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, saved in an editor\n');
      const committed = await watch.waitFor((e) => e.type === 'committed');
      expect(committed.files).toEqual(['beta.md']);
      const pushed = await watch.waitFor((e) => e.type === 'pushed');
      expect(pushed.branch).toBe('main');
      expect(pushed.pages).toMatchObject({ updated: 1, inserted: 0, deleted: 0 });
      const { outbox } = (await readState(t.dir)).branches.main!;
      expect(await remoteMarkdown(s, t.spaceId, t.beta, outbox!.changeRequestId)).toContain('saved in an editor');
      expect((await client.changeRequests.get(t.spaceId, outbox!.changeRequestId!)).subject).toBe('Edits saved on main (docsync watch)');
      // The commit names the file; the working tree is clean.
      expect(git(t.dir, 'log', '-1', '--format=%s', 'main')).toBe('docsync: save beta.md\n');
      expect(git(t.dir, 'status', '--porcelain')).toBe('');
      // Another shell sees the daemon, what it is doing and what it did last.
      const human = await eventually(async () => {
        const out = await runCli(['status', '--dir', t.dir], env());
        expect(out.stdout).toMatch(
          new RegExp(
            `^daemon: watching \\(pid ${watch.child.pid} since [0-9:]+\\), idle on main\n  last commit [0-9:]+ on main; last push [0-9:]+ main -> #${pushed.changeRequest.number}`,
          ),
        );
        return out;
      });
      expect(human.code, human.stderr).toBe(0);
      // Polls come every half second: between two of them the daemon is idle.
      await eventually(async () => {
        const json = JSON.parse((await runCli(['status', '--dir', t.dir, '--json'], env())).stdout);
        expect(json.daemon).toMatchObject({
          running: true,
          pid: watch.child.pid,
          status: { activity: 'idle', branch: 'main', unpushed: [] },
        });
        expect(json.branches).toMatchObject([{ branch: 'main', outbox: pushed.changeRequest.number }]);
      });
    } finally {
      await expectExitOk(watch);
    }
    expect(watch.events().at(-1)).toMatchObject({ type: 'stopped', reason: 'SIGTERM' });
    expect((await readDaemonStatus(t.dir))?.activity).toBe('stopped');
    expect((await runCli(['status', '--dir', t.dir], env())).stdout).toMatch(/^daemon: not running \(stopped at [0-9:]+\)\n/);
  });

  it('pulls an edit made on the platform into the file', async () => {
    const t = await clonedSpace(s, client, work, 'pull');
    const watch = spawnWatch(t.dir, env());
    try {
      await watch.waitFor((e) => e.type === 'started');
      await editMain(s, t.spaceId, [
        { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nedited on the platform\n' } },
      ]);
      const pulled = await watch.waitFor((e) => e.type === 'pulled' && e.branch === 'main');
      expect(pulled.files).toEqual(['beta.md']);
      expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain('edited on the platform');
      // The pull's own writes are not taken for saves: nothing is pushed back, once the cycle
      // of the pull is over and another has looked at the working tree.
      await eventually(async () => expect((await readDaemonStatus(t.dir))?.activity).toBe('idle'));
      await cycleAfterTouch(t.dir, 'README.md');
      expect(watch.events().filter((e) => e.type === 'committed' || e.type === 'pushed')).toEqual([]);
    } finally {
      await expectExitOk(watch);
    }
  });

  it('refuses a second daemon on the same workspace', async () => {
    const t = await clonedSpace(s, client, work, 'twice');
    const first = spawnWatch(t.dir, env());
    try {
      await first.waitFor((e) => e.type === 'started');
      const second = spawnWatch(t.dir, env());
      expect(await second.exited).toBe(5);
      expect(second.stderr()).toMatch(/another docsync daemon \(pid \d+ .*\) is watching/);
      expect(second.stderr()).toContain(String(first.child.pid));
    } finally {
      await expectExitOk(first);
    }
  });

  it("walks the working tree without taking git's index.lock, and still commits and pushes a save", async () => {
    const t = await clonedSpace(s, client, work, 'optional-locks');
    // New stat data, same content: what `git status` would store in the index under index.lock.
    for (const file of ['README.md', 'beta.md']) utimesSync(join(t.dir, file), 1_000_000, 1_000_000);
    const indexPath = join(t.dir, '.git', 'index');
    const before = await readFile(indexPath);
    const watch = spawnWatch(t.dir, env());
    try {
      await watch.waitFor((e) => e.type === 'started');
      await eventually(async () => expect((await readDaemonStatus(t.dir))?.cycles ?? 0).toBeGreaterThan(1));
      expect(await readFile(indexPath)).toEqual(before);
      // A commit writes the index, as it must.
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, saved after the walks\n');
      await watch.waitFor((e) => e.type === 'pushed');
      expect(git(t.dir, 'status', '--porcelain')).toBe('');
      expect(await readFile(indexPath)).not.toEqual(before);
    } finally {
      await expectExitOk(watch);
    }
  });

  it('follows a branch switch: saves on the new branch go to its own change request', async () => {
    const t = await clonedSpace(s, client, work, 'switch');
    const watch = spawnWatch(t.dir, env());
    try {
      await watch.waitFor((e) => e.type === 'started');
      // The writer switches at once: the daemon's first cycle walks the files the clone just
      // wrote, and takes no index.lock to store their stat data (a background process takes no
      // optional lock), so git's checkout cannot meet it (it did once in CI before).
      git(t.dir, 'checkout', '-qb', 'feature');
      await watch.waitFor((e) => e.type === 'branch' && e.to === 'feature');
      // A commit of the writer's own names the change request; the daemon's saves go with it.
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, committed by hand\n');
      git(t.dir, 'commit', '-qam', 'Explain beta better');
      await writeFile(join(t.dir, 'README.md'), '# Alpha\n\none\ntwo\nthree\nfour, on a branch\n');
      // The hand commit may be pushed on its own first; the save follows in the same change request.
      const opened = await watch.waitFor((e) => e.type === 'pushed' && e.branch === 'feature');
      expect(opened.changeRequest.opened).toBe(true);
      const isSave = (e: any) => e.type === 'committed' && e.files.includes('README.md');
      await watch.waitFor(isSave);
      await watch.waitFor((e) => e.type === 'pushed' && e.branch === 'feature', EVENT_WAIT_MS, watch.events().findIndex(isSave));
      const state = await readState(t.dir);
      expect((await client.changeRequests.get(t.spaceId, state.branches.feature!.changeRequestId!)).subject).toBe('Explain beta better');
      expect(await remoteMarkdown(s, t.spaceId, t.alpha, state.branches.feature!.changeRequestId)).toContain('four, on a branch');
      expect(state.branches.main!.outbox).toBeUndefined();
    } finally {
      await expectExitOk(watch);
    }
  });

  it('takes over the lock of a daemon that died, and sends what it left', async () => {
    const t = await clonedSpace(s, client, work, 'stale');
    const first = spawnWatch(t.dir, env());
    await first.waitFor((e) => e.type === 'started');
    first.child.kill('SIGKILL');
    await first.exited;
    // A save made while no daemon ran is committed and pushed by the next one.
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nsaved while nobody watched\n');
    const second = spawnWatch(t.dir, env());
    try {
      await second.waitFor((e) => e.type === 'pushed');
      const { outbox } = (await readState(t.dir)).branches.main!;
      expect(await remoteMarkdown(s, t.spaceId, t.beta, outbox!.changeRequestId)).toContain('saved while nobody watched');
      await eventually(async () => expect((await readDaemonStatus(t.dir))?.activity).toBe('idle'));
    } finally {
      await expectExitOk(second);
    }
  });

  it('pauses while a merge is in progress, and commits nothing of it', async () => {
    const t = await clonedSpace(s, client, work, 'paused');
    git(t.dir, 'checkout', '-qb', 'side');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nside version\n');
    git(t.dir, 'commit', '-qam', 'side');
    git(t.dir, 'checkout', '-q', 'main');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nmain version\n');
    git(t.dir, 'commit', '-qam', 'main');
    expect(() => git(t.dir, 'merge', 'side')).toThrow();
    const watch = spawnWatch(t.dir, env());
    try {
      const paused = await watch.waitFor((e) => e.type === 'paused');
      expect(paused.reason).toBe('a merge is in progress');
      // The save's own cycle, and one more, pass without a commit.
      const before = (await readDaemonStatus(t.dir))!.cycles;
      await writeFile(join(t.dir, 'README.md'), '# Alpha\n\nsaved during the merge\n');
      await eventually(async () => expect((await readDaemonStatus(t.dir))!.cycles).toBeGreaterThan(before));
      await cycleAfterTouch(t.dir, 'beta.md');
      expect(watch.events().filter((e) => ['committed', 'pushed', 'pulled'].includes(e.type))).toEqual([]);
      git(t.dir, 'merge', '--abort');
      await watch.waitFor((e) => e.type === 'resumed');
      // The save made meanwhile is committed once the merge is over; main's own commit goes with it.
      const committed = await watch.waitFor((e) => e.type === 'committed');
      expect(committed.files).toEqual(['README.md']);
      await watch.waitFor((e) => e.type === 'pushed');
    } finally {
      await expectExitOk(watch);
    }
  });

  it('stops with exit 1 and a plain message when its workspace is deleted', async () => {
    const t = await clonedSpace(s, client, work, 'deleted');
    const watch = spawnWatch(t.dir, env());
    await watch.waitFor((e) => e.type === 'started');
    // The daemon may be writing its status file meanwhile: retry the removal as `rm -rf` would.
    await rm(t.dir, { recursive: true, force: true, maxRetries: 20, retryDelay: 25 });
    expect(await watch.exited).toBe(1);
    expect(watch.stderr()).toMatch(
      /^docsync: stopped: (not a git repository: \S+ \(no \.git folder\)|\S+ is not a docsync workspace \(no \.git\/docsync\/state\.json\); run docsync clone first)\n$/,
    );
    expect(watch.events().at(-1)).toMatchObject({ type: 'stopped', reason: 'the workspace is gone' });
  });

  it('reports a conflict with the platform and leaves the markers for the writer, pushing nothing of them', async () => {
    const t = await clonedSpace(s, client, work, 'conflict');
    const watch = spawnWatch(t.dir, env());
    try {
      await watch.waitFor((e) => e.type === 'started');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, as the writer has it\n');
      await watch.waitFor((e) => e.type === 'pushed');
      await editMain(s, t.spaceId, [
        { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, as the platform has it\n' } },
      ]);
      const conflict = await watch.waitFor((e) => e.type === 'conflict');
      expect(conflict).toMatchObject({ branch: 'main', files: ['beta.md'] });
      const text = await readFile(join(t.dir, 'beta.md'), 'utf8');
      expect(text).toContain('<<<<<<<');
      expect(text).toContain('as the writer has it');
      expect(text).toContain('as the platform has it');
      // Polls come and go meanwhile: the file with markers is left out of any push.
      const at = watch.events().indexOf(conflict);
      for (let n = 0; n < 3; n += 1) await cycleAfterTouch(t.dir, 'README.md');
      for (const pushed of watch
        .events()
        .slice(at)
        .filter((e) => e.type === 'pushed')) {
        expect(pushed.skipped.map((k: { path: string }) => k.path)).toContain('beta.md');
      }
      const { outbox: before } = (await readState(t.dir)).branches.main!;
      expect(await remoteMarkdown(s, t.spaceId, t.beta, before!.changeRequestId)).not.toContain('<<<<<<<');
      // The writer resolves it; the resolution is committed and pushed.
      const mark = watch.events().length;
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, as both agreed\n');
      await watch.waitFor((e) => e.type === 'pushed', EVENT_WAIT_MS, mark);
      const { outbox } = (await readState(t.dir)).branches.main!;
      expect(await remoteMarkdown(s, t.spaceId, t.beta, outbox!.changeRequestId)).toContain('as both agreed');
    } finally {
      await expectExitOk(watch);
    }
  });

  it('reports a push the engine refuses once, and does not send it again until the branch moves', async () => {
    const t = await clonedSpace(s, client, work, 'refused');
    // The three deletions must settle as one burst (one mass delete), even on a loaded machine.
    const watch = spawnWatch(t.dir, env(), ['--debounce', '1500']);
    try {
      await watch.waitFor((e) => e.type === 'started');
      await rm(join(t.dir, 'beta.md'));
      await rm(join(t.dir, 'README.md'));
      await writeFile(join(t.dir, 'SUMMARY.md'), '# Table of contents\n');
      const refused = await watch.waitFor((e) => e.type === 'refused');
      expect(refused).toMatchObject({ branch: 'main', code: 'mass-delete' });
      for (let n = 0; n < 4; n += 1) await cycleAfterTouch(t.dir, 'SUMMARY.md'); // four more looks
      expect(watch.events().filter((e) => e.type === 'refused')).toHaveLength(1);
      // The deletions may be committed a moment before SUMMARY.md: that push sends nothing (the
      // entries of the missing files wait), and no push sends anything after.
      expect(watch.events().filter((e) => e.type === 'pushed' && e.pages.inserted + e.pages.updated + e.pages.deleted > 0)).toEqual([]);
      expect((await readState(t.dir)).branches.main!.outbox).toBeUndefined();
    } finally {
      await expectExitOk(watch);
    }
  });

  it('lets the writer merge the outbox from another shell while it runs; later saves open a new one', async () => {
    const t = await clonedSpace(s, client, work, 'merge-beside');
    const watch = spawnWatch(t.dir, env());
    try {
      await watch.waitFor((e) => e.type === 'started');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nfirst day of saves\n');
      const first = await watch.waitFor((e) => e.type === 'pushed');
      const merge = spawnCli(['merge', 'main', '--dir', t.dir], env());
      expect(await merge.exited, merge.stderr()).toBe(0);
      expect(merge.stdout()).toContain(`merged change request #${first.changeRequest.number} into main`);
      expect(await remoteMarkdown(s, t.spaceId, t.beta)).toContain('first day of saves');
      const mark = watch.events().length;
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nsecond day of saves\n');
      const second = await watch.waitFor((e) => e.type === 'pushed', EVENT_WAIT_MS, mark);
      expect(second.changeRequest.opened).toBe(true);
      expect(second.changeRequest.number).not.toBe(first.changeRequest.number);
      expect(second.pages).toMatchObject({ updated: 1, inserted: 0, deleted: 0 });
      expect(watch.events().filter((e) => e.type === 'error' || e.type === 'refused')).toEqual([]);
    } finally {
      await expectExitOk(watch);
    }
  });
});
