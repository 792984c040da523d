import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { readDaemonStatus, startDaemon, type DaemonEvent } from '../../src/daemon/index.js';
import { emptyFileWaitMs, type SchedulerEvent } from '../../src/daemon/scheduler/scheduler.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, git } from '../sync/fixture.js';
import { eventually } from './watch-process.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/** The daemon in this process, for what needs its timings under control. */
describe('startDaemon', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-daemon-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const waitFor = async (what: string, ok: () => boolean, ms = EVENT_WAIT_MS) => {
    const end = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`no ${what} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const until = async (events: DaemonEvent[], type: DaemonEvent['type'], ms = EVENT_WAIT_MS) => {
    const end = Date.now() + ms;
    while (!events.some((e) => e.type === type)) {
      if (Date.now() > end) throw new Error(`no ${type} event; got ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return events.find((e) => e.type === type)!;
  };

  it('lets no cycle, not even a poll, commit a save before its burst has settled', async () => {
    const t = await clonedSpace(s, client, work, 'settle');
    const debounceMs = 1_500;
    const events: DaemonEvent[] = [];
    const scheduled: SchedulerEvent[] = [];
    // When each save was begun, each commit made and each poll timer fired, by this process's clock.
    const saves: { at: number; text: string }[] = [];
    const commits: { at: number; commit: string; files: string[] }[] = [];
    const pollsAt: number[] = [];
    let cycles = 0;
    const daemon = await startDaemon({
      client,
      dir: t.dir,
      debounceMs,
      pollMs: 100,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'committed') commits.push({ at: Date.now(), commit: e.commit, files: e.files });
      },
      onSchedule: (event, actions) => {
        scheduled.push(event);
        if (event.type === 'timer-fired' && event.timer === 'poll') pollsAt.push(Date.now());
        cycles += actions.filter((a) => a.type === 'begin-cycle').length;
        if (event.type === 'cycle-ended' || event.type === 'cycle-aborted') cycles -= 1;
      },
    });
    const save = async (text: string) => {
      saves.push({ at: Date.now(), text });
      await writeFile(join(t.dir, 'beta.md'), text);
    };
    const first = '# Beta\n\nfirst half of a save\n';
    const whole = '# Beta\n\nfirst half of a save\nsecond half\n';
    try {
      await until(events, 'started');
      await waitFor('the first cycle (pull and push) to be over', () => scheduled.some((e) => e.type === 'cycle-ended') && cycles === 0);
      await save(first);
      // Another shell sees the save settling (unless this machine took longer than the debounce to
      // look, and the save settled and was committed, which the rule below then checks).
      await eventually(async () => {
        const status = await readDaemonStatus(t.dir);
        if (commits.length === 0) expect(status).toMatchObject({ pendingFiles: 1 });
      });
      // Polls come every 100 ms meanwhile. A loaded machine can take longer than the debounce over
      // them, and then the first half has settled and is rightly committed: what is checked below
      // is the rule, for every commit, not how many polls fit in the debounce.
      const firstPolls = pollsAt.length;
      await waitFor('three polls', () => pollsAt.length >= firstPolls + 3 || commits.length > 0);
      await save(whole);
      await waitFor('the commit of the whole save', () => commits.some((c) => git(t.dir, 'show', `${c.commit}:beta.md`) === whole));
      // The rule, whatever this machine's speed: a commit holds a save made at least debounceMs
      // before it, never one still settling.
      for (const c of commits) {
        expect(c.files).toEqual(['beta.md']);
        const held = git(t.dir, 'show', `${c.commit}:beta.md`);
        const made = saves.findLast((m) => m.text === held);
        expect(made, `a commit of a save never made: ${JSON.stringify(held)}`).toBeDefined();
        expect(c.at - made!.at).toBeGreaterThanOrEqual(debounceMs);
      }
      // Polls fired while the whole save settled and none committed it: a poll's timer is due
      // within 100 ms of the save, the settling's only debounceMs after it, and timers fire in order.
      const committed = commits.find((c) => git(t.dir, 'show', `${c.commit}:beta.md`) === whole)!;
      expect(pollsAt.filter((at) => at >= saves[1]!.at && at < committed.at).length).toBeGreaterThanOrEqual(1);
      expect(git(t.dir, 'show', 'main:beta.md')).toBe(whole);
      await until(events, 'pushed');
    } finally {
      await daemon.stop();
    }
    expect(events.at(-1)).toEqual({ type: 'stopped', reason: 'stopped' });
  });

  it('commits no file a save left empty between truncating and writing it, yet commits a file emptied on purpose', async () => {
    const t = await clonedSpace(s, client, work, 'emptied');
    const debounceMs = 100;
    const wait = emptyFileWaitMs(debounceMs);
    const commits: { at: number; commit: string }[] = [];
    const pollsAt: number[] = [];
    let cyclesEnded = 0;
    const daemon = await startDaemon({
      client,
      dir: t.dir,
      debounceMs,
      pollMs: 100,
      onEvent: (e) => {
        if (e.type === 'committed') commits.push({ at: Date.now(), commit: e.commit });
      },
      onSchedule: (event) => {
        if (event.type === 'timer-fired' && event.timer === 'poll') pollsAt.push(Date.now());
        if (event.type === 'cycle-ended') cyclesEnded += 1;
      },
    });
    const beta = join(t.dir, 'beta.md');
    const whole = '# Beta\n\nwritten after a pause\n';
    const emptyAt: number[] = [];
    try {
      await waitFor('the first cycle', () => cyclesEnded > 0);
      // A save that truncates the file, then writes it five quiet times later, with polls between.
      // Committed at once, the empty file was pushed and its read-back (the server's form: a title)
      // renamed over it while the writer still had it open: the text went to the replaced file, lost.
      // The sync tool does the same, atomically, to every file it writes (writeWorkingFiles); the
      // wait keeps it off a file that a save has only begun.
      emptyAt.push(Date.now());
      const file = await open(beta, 'w');
      const polls = pollsAt.length;
      const cycles = cyclesEnded;
      await new Promise((r) => setTimeout(r, 5 * debounceMs));
      await waitFor('three polls and a cycle', () => pollsAt.length >= polls + 3 && cyclesEnded > cycles);
      await file.writeFile(whole);
      await file.close();
      await waitFor('the commit of the written file', () => commits.some((c) => git(t.dir, 'show', `${c.commit}:beta.md`) === whole));
      // The file emptied on purpose is committed, once it has been empty for the wait.
      emptyAt.push(Date.now());
      await writeFile(beta, '');
      const emptied = () => commits.filter((c) => git(t.dir, 'show', `${c.commit}:beta.md`) === '');
      await waitFor('the commit of the emptied file', () => emptied().length > 0);
      // The rule, whatever this machine's speed: no commit holds the empty file before it was empty for the wait.
      for (const c of emptied()) {
        const since = emptyAt.findLast((at) => at < c.at)!;
        // File times come from the kernel's coarse clock, a tick behind Date.now(): 20 ms of slack.
        expect(c.at - since).toBeGreaterThanOrEqual(wait - 20);
      }
    } finally {
      await daemon.stop();
    }
  });
});
