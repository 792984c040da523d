import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { readDaemonStatus, startDaemon, type DaemonEvent } from '../../src/daemon/index.js';
import type { SchedulerEvent } from '../../src/daemon/scheduler/scheduler.js';
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
    const events: DaemonEvent[] = [];
    const scheduled: SchedulerEvent[] = [];
    let cycles = 0;
    const daemon = await startDaemon({
      client,
      dir: t.dir,
      debounceMs: 1_500,
      pollMs: 100,
      onEvent: (e) => events.push(e),
      onSchedule: (event, actions) => {
        scheduled.push(event);
        cycles += actions.filter((a) => a.type === 'begin-cycle').length;
        if (event.type === 'cycle-ended' || event.type === 'cycle-aborted') cycles -= 1;
      },
    });
    const polls = () => scheduled.filter((e) => e.type === 'timer-fired' && e.timer === 'poll').length;
    try {
      await until(events, 'started');
      await waitFor('the first cycle (pull and push) to be over', () => scheduled.some((e) => e.type === 'cycle-ended') && cycles === 0);
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nfirst half of a save\n');
      // Another shell sees the save settling.
      await eventually(async () => expect(await readDaemonStatus(t.dir)).toMatchObject({ pendingFiles: 1 }));
      const firstPolls = polls();
      await waitFor('three polls', () => polls() >= firstPolls + 3);
      const saved = Date.now();
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nfirst half of a save\nsecond half\n');
      // Polls come every 100 ms meanwhile; none of them commits the half-written file.
      const secondPolls = polls();
      await waitFor('three more polls', () => polls() >= secondPolls + 3);
      expect(events.filter((e) => e.type === 'committed')).toEqual([]);
      const committed = await until(events, 'committed');
      expect(Date.now() - saved).toBeGreaterThanOrEqual(1_500);
      expect(committed).toMatchObject({ files: ['beta.md'] });
      expect(git(t.dir, 'show', 'main:beta.md')).toBe('# Beta\n\nfirst half of a save\nsecond half\n');
      await until(events, 'pushed');
    } finally {
      await daemon.stop();
    }
    expect(events.filter((e) => e.type === 'committed')).toHaveLength(1);
    expect(events.at(-1)).toEqual({ type: 'stopped', reason: 'stopped' });
  });
});
