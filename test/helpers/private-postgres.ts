import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A PostgreSQL server of a test's own, on a free port of 127.0.0.1, that the test may stop, kill
 * and start again (the shared server of DOCSYNC_TEST_DATABASE_URL must never be restarted: other
 * test files use it meanwhile). Made with the installed binaries (`DOCSYNC_PG_BINDIR`, else the
 * newest /usr/lib/postgresql/<version>/bin); as root they run as the `postgres` user, as
 * PostgreSQL refuses to run as root.
 */

function binDir(): string {
  const given = process.env.DOCSYNC_PG_BINDIR;
  if (given) {
    if (!existsSync(join(given, 'initdb'))) throw new Error(`DOCSYNC_PG_BINDIR=${given} holds no initdb`);
    return given;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)) : [];
  const found = versions.map((v) => join(root, v, 'bin')).filter((dir) => existsSync(join(dir, 'initdb')));
  if (found.length === 0)
    throw new Error(
      'no PostgreSQL binaries: install the postgresql package (.ci/run does) or set DOCSYNC_PG_BINDIR to the folder holding initdb',
    );
  return found.at(-1)!;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** `command args` as the user PostgreSQL runs as. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** Starts the server (again) and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it: `fast` as an administrator's restart does, `kill` as a crash (SIGKILL). */
  stop(how: 'fast' | 'kill'): Promise<void>;
  /** Stops it and removes its files. */
  destroy(): Promise<void>;
}

export async function privatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), 'docsync-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (id.status !== 0) throw new Error('running as root, and there is no postgres user to run PostgreSQL as');
    chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
  }
  const [initCmd, initArgs] = asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  let child: ChildProcess | undefined;

  const answers = () => {
    const ready = spawnSync(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-d', 'postgres'], {});
    return ready.status === 0;
  };

  const pg: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      const [cmd, args] = asPostgres(join(bin, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        `unix_socket_directories=${dir}`,
        '-c',
        'fsync=on',
      ]);
      // After a crash the old server's backends may still hold its shared memory for a moment,
      // and the new one refuses to start until they are gone: try again for a while.
      let log = '';
      for (const until = Date.now() + 60_000; ;) {
        const started = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
        child = started;
        started.stderr!.on('data', (chunk: Buffer) => (log = (log + chunk.toString('utf8')).slice(-4000)));
        while (!answers() && started.exitCode === null && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
        if (started.exitCode === null && answers()) return;
        if (Date.now() > until) throw new Error(`PostgreSQL did not start: ${log}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    async stop(how) {
      const running = child;
      if (!running || running.exitCode !== null) return;
      // The postmaster itself is signalled (runuser, between it and us, would not pass SIGKILL on):
      // SIGINT is PostgreSQL's fast shutdown, SIGKILL a crash its next start recovers from.
      const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
      process.kill(pid, how === 'fast' ? 'SIGINT' : 'SIGKILL');
      await exited;
      // A killed postmaster's backends end when they notice: wait until none answers on the port.
      for (const until = Date.now() + 30_000; answers() && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
    },
    async destroy() {
      await pg.stop('fast');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return pg;
}
