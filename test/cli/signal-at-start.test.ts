import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';
import { clonedSpace } from '../sync/fixture.js';
import { spawnCli } from './spawn-cli.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * A signal sent the moment the daemon prints `started` stops `docsync watch`, `docsync up` and
 * `docsync mirror --watch` cleanly (exit 0, a `stopped` event). Two windows lost it there (src/cli/commands/watch.ts,
 * handOver): `watch` had no listener between its start and runUntilSignal, so SIGTERM killed it
 * where it stood; `up` released its hold of the signals before runUntilSignal listened, and node
 * dropped a signal caught by the closed watcher, so `up` ran on after Ctrl-C (five minutes, until
 * an unrelated timeout). Each is tried a few times: the window is as wide as the machine is slow.
 */
describe('a signal as soon as the daemon has started', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-signal-at-start-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** Starts `args`, sends `signal` when `started` is printed; the exit code, or 'hung'. */
  async function signalAtStart(args: string[], env: Record<string, string>, signal: NodeJS.Signals) {
    const proc = spawnCli(args, env);
    await new Promise<void>((resolve, reject) => {
      const look = () => {
        if (proc.stdout().includes('"type":"started"')) resolve();
        else if (proc.child.exitCode !== null) reject(new Error(`exited before starting: ${proc.stderr()}`));
        else setImmediate(look);
      };
      look();
    });
    proc.child.kill(signal);
    const end = await Promise.race([proc.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), EVENT_WAIT_MS))]);
    if (end === 'hung') proc.child.kill('SIGKILL');
    return { end, proc };
  }

  it('docsync watch: SIGTERM right after started exits 0', async () => {
    const t = await clonedSpace(s, client, work, 'watch');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { end, proc } = await signalAtStart(
        ['watch', t.dir, '--json', '--debounce', '100', '--poll', '0.5'],
        { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token },
        'SIGTERM',
      );
      expect(end, `attempt ${attempt}: ${proc.stdout()}${proc.stderr()}`).toBe(0);
      expect(proc.stdout()).toContain('"type":"stopped"');
    }
  });

  it('docsync mirror --watch: SIGTERM right after started exits 0', async () => {
    await clonedSpace(s, client, work, 'mirrored');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const { end, proc } = await signalAtStart(
        ['mirror', join(work, `mirror-${attempt}`), '--org', s.orgId, '--watch', '--poll', '0.5', '--json'],
        { DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token },
        'SIGTERM',
      );
      expect(end, `attempt ${attempt}: ${proc.stdout()}${proc.stderr()}`).toBe(0);
      expect(proc.stdout()).toContain('"type":"stopped"');
    }
  });

  it('docsync up: SIGINT right after started exits 0', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const home = join(work, `up-${attempt}`);
      const { end, proc } = await signalAtStart(
        [
          'up',
          '--json',
          '--debounce',
          '100',
          '--poll',
          '0.5',
          '--data',
          join(home, 'data'),
          '--workspace',
          join(home, 'ws'),
          '--port',
          '0',
        ],
        { XDG_CONFIG_HOME: join(home, 'config') },
        'SIGINT',
      );
      expect(end, `attempt ${attempt}: ${proc.stdout()}${proc.stderr()}`).toBe(0);
      expect(proc.stdout()).toContain('"type":"stopped"');
    }
  });
});
