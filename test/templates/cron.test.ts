import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';
import { createClient, type Client } from '../../src/client/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { clonedSpace, editMain } from '../sync/fixture.js';
import { spawnCli } from '../cli/run-cli.js';
import { cronEntries, cronShellCommand, scheduleProblems } from './cron-line.js';
import { run, writeDocsyncBin } from './docsync-bin.js';
import { readTemplate } from './templates.js';

describe('templates/cron/docsync-sync.cron: the schedule', () => {
  it('has one line whose five schedule fields cron accepts', async () => {
    const [entry, ...more] = cronEntries(await readTemplate('cron'));
    expect(more).toEqual([]);
    expect(scheduleProblems(entry!.fields)).toEqual([]);
  });

  it('the field check catches what cron would refuse', () => {
    expect(scheduleProblems(['*/15', '*', '*', '*', '*'])).toEqual([]);
    expect(scheduleProblems(['0', '9-17', '1,15', 'jan-jun', 'mon-fri'])).toEqual([]);
    expect(scheduleProblems(['60', '*', '*', '*', '*'])).toEqual(['minute: "60" outside 0-59']);
    expect(scheduleProblems(['*', '24', '0', '13', '8'])).toHaveLength(4);
    expect(scheduleProblems(['*/0', '5-1', '*', '*', 'funday'])).toHaveLength(3);
    expect(scheduleProblems(['*', '*', '*', '*'])).toEqual(['4 fields, not 5']);
    expect(() => cronShellCommand('date +%F')).toThrow(/bare %/);
  });
});

/**
 * The template's command line as cron runs it (`/bin/sh -c`, cron's small environment, the
 * home folder as working folder), verbatim: `$HOME/docs` is a real workspace cloned from a
 * real server, `$HOME/.local/bin/docsync` runs this checkout's CLI, and the credentials are
 * those `docsync login` stored.
 */
describe('templates/cron/docsync-sync.cron: the command, run as cron runs it', { timeout: PROCESS_TEST_MS }, () => {
  let s: TestServer;
  let client: Client;
  let home: string;
  let command: string;
  let space: Awaited<ReturnType<typeof clonedSpace>>;
  const cronEnv = () => ({ HOME: home, LOGNAME: 'writer', SHELL: '/bin/sh', PATH: '/usr/bin:/bin' });
  const runLine = () => run('/bin/sh', ['-c', command], { cwd: home, env: cronEnv(), timeoutMs: EVENT_WAIT_MS });
  const log = () => readFile(join(home, '.local/state/docsync/sync.log'), 'utf8');

  beforeAll(async () => {
    s = await startServer('sqlite');
    client = createClient({ baseUrl: s.url, token: s.token });
    home = await mkdtemp(join(tmpdir(), 'docsync-cron-'));
    command = cronShellCommand(cronEntries(await readTemplate('cron'))[0]!.command);
    space = await clonedSpace(s, client, home, 'docs');
    await writeDocsyncBin(join(home, '.local/bin'));
    const login = spawnCli(['login', '--api', s.url], { DOCSYNC_TOKEN: s.token, HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
    expect(await login.exited, login.stderr()).toBe(0);
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('pulls an edit made on the platform into the workspace and logs the pass with its exit code', async () => {
    await editMain(s, space.spaceId, [{ operation: 'update_page', page: space.alpha, document: { markdown: '# Alpha\n\none\ntwo, edited on the platform\nthree\n' } }]);
    const ran = await runLine();
    expect(ran, `${ran.stdout}${ran.stderr}`).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await readFile(join(space.dir, 'README.md'), 'utf8')).toBe('# Alpha\n\none\ntwo, edited on the platform\nthree\n');
    const lines = (await log()).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(lines.at(-1)).toBe('exit 0');
    expect(lines.slice(1, -1).join('\n')).toMatch(/main/);
  });

  it('skips the pass while another run holds the lock, and says so in the log', async () => {
    await editMain(s, space.spaceId, [{ operation: 'update_page', page: space.beta, document: { markdown: '# Beta\n\nbeta text, edited while locked\n' } }]);
    const lock = join(home, '.local/state/docsync/sync.lock');
    // A process group of its own: `sleep` holds the lock too, and both must end to free it. It holds
    // until the test ends it, however long the run beside it takes on a loaded machine.
    const holder = spawn('flock', [lock, 'sleep', '3600'], { stdio: 'ignore', detached: true });
    const closed = new Promise((done) => holder.once('close', done));
    try {
      // flock has the lock once a non-blocking attempt of ours fails.
      for (const until = Date.now() + EVENT_WAIT_MS; (await run('flock', ['-n', lock, 'true'], { cwd: home, env: cronEnv() })).code === 0;) {
        if (Date.now() > until) throw new Error(`the lock holder never took the lock within ${EVENT_WAIT_MS / 1000} s`);
        await new Promise((done) => setTimeout(done, 50));
      }
      const before = await log();
      const ran = await runLine();
      expect(ran.code).toBe(0);
      expect((await log()).slice(before.length)).toMatch(/^\S+Z\nexit 75\n$/);
      expect(await readFile(join(space.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nbeta text\n');
    } finally {
      process.kill(-holder.pid!, 'SIGTERM');
    }
    await closed;
    const ran = await runLine();
    expect(ran.code).toBe(0);
    expect((await log()).trimEnd().split('\n').at(-1)).toBe('exit 0');
    expect(await readFile(join(space.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nbeta text, edited while locked\n');
  });
});
