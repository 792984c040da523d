import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { readDaemonStatus, startDaemon, type DaemonEvent } from '../../src/daemon/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, git } from '../sync/fixture.js';

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

  const until = async (events: DaemonEvent[], type: DaemonEvent['type'], ms = 20_000) => {
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
    const daemon = await startDaemon({ client, dir: t.dir, debounceMs: 1_500, pollMs: 100, onEvent: (e) => events.push(e) });
    try {
      await until(events, 'started');
      await new Promise((r) => setTimeout(r, 300)); // the first cycle (pull and push) is over
      const saved = Date.now();
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nfirst half of a save\n');
      await new Promise((r) => setTimeout(r, 700));
      // Another shell sees the save settling.
      expect(await readDaemonStatus(t.dir)).toMatchObject({ pendingFiles: 1 });
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nfirst half of a save\nsecond half\n');
      // Polls came every 100 ms meanwhile; none of them committed the half-written file.
      await new Promise((r) => setTimeout(r, 700));
      expect(events.filter((e) => e.type === 'committed')).toEqual([]);
      const committed = await until(events, 'committed');
      expect(Date.now() - saved).toBeGreaterThanOrEqual(700 + 1_500);
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
