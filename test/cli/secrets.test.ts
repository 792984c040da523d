import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawnCli, type CliProcess } from './spawn-cli.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/*
 * Issue 24, "Secrets": a whole end-to-end run as users run it (docsync serve at its most verbose
 * log level, then login, clone, an edit pushed, status, cr list, merge, pull, sync, doctor and a
 * watch cycle, each its own process) never writes the token, nor its sha256 or base64, into any
 * log, any output, any file of the workspace (git's own files included) or the server's data
 * folder, where only the sha256 is (the stored form of every token). The one file that holds the
 * token is the credentials file `login` stores (0600: test/cli/sync-commands.test.ts).
 */
const TOKEN = `ds_secret_${'7f3a9c'.repeat(6)}`;
const FORMS = [TOKEN, createHash('sha256').update(TOKEN).digest('hex'), Buffer.from(TOKEN).toString('base64')];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('no secret in any log, output or file of an end-to-end run', () => {
  let home: string;
  let server: CliProcess;
  let api: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'docsync-secrets-'));
    server = spawnCli(['serve', '--port', '0', '--data', join(home, 'data'), '--log-level', 'trace'], { DOCSYNC_BOOTSTRAP_TOKEN: TOKEN });
    api = /listening on (\S+)/.exec(await server.firstLine)![1]!;
  });
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await rm(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 25 });
  });

  it('finds the token only in the credentials file', async () => {
    const env = { XDG_CONFIG_HOME: join(home, 'config'), DOCSYNC_TOKEN: TOKEN };
    const outputs: { what: string; text: string }[] = [];
    const run = async (args: string[], extraEnv: Record<string, string> = {}) => {
      const proc = spawnCli(args, { ...env, ...extraEnv });
      const code = await proc.exited;
      outputs.push({ what: `docsync ${args.join(' ')}`, text: proc.stdout() + proc.stderr() });
      expect(code, `docsync ${args.join(' ')}: ${proc.stderr()}`).toBe(0);
      return proc.stdout();
    };
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const org = ((await (await fetch(`${api}/v1/orgs`, { headers })).json()) as { items: { id: string }[] }).items[0]!.id;
    const space = (await (
      await fetch(`${api}/v1/orgs/${org}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Secrets' }) })
    ).json()) as { id: string };

    const ws = join(home, 'ws');
    await run(['login', '--api', api]);
    await run(['clone', space.id, ws]);
    const readme = join(ws, 'README.md');
    await writeFile(readme, `${await readFile(readme, 'utf8')}\nAn edit.\n`);
    await run(['push', '--dir', ws, '--subject', 'an edit']);
    await run(['status', '--dir', ws]);
    await run(['cr', 'list', '--dir', ws]);
    await run(['merge', '--dir', ws]);
    await run(['pull', '--dir', ws]);
    await run(['sync', '--dir', ws]);
    await run(['doctor', '--dir', ws]);
    // A watch cycle: a save pushed, then Ctrl-C.
    const watch = spawnCli(['watch', ws, '--json', '--debounce', '100', '--poll', '0.5'], env);
    for (const until = Date.now() + EVENT_WAIT_MS; !watch.stdout().includes('"started"');) {
      if (Date.now() > until || watch.child.exitCode !== null) throw new Error(`watch did not start: ${watch.stderr()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    await writeFile(readme, `${await readFile(readme, 'utf8')}\nA watched edit.\n`);
    for (const until = Date.now() + EVENT_WAIT_MS; !watch.stdout().includes('"pushed"');) {
      if (Date.now() > until || watch.child.exitCode !== null) throw new Error(`watch did not push: ${watch.stdout()} ${watch.stderr()}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    outputs.push({ what: 'docsync watch', text: watch.stdout() + watch.stderr() });

    // The server log at trace level, every command's output, every file.
    outputs.push({ what: 'docsync serve (log at trace)', text: server.stdout() + server.stderr() });
    expect(server.stdout()).toContain('"request"'); // the log was written: a request line per answer
    const files = [...(await filesUnder(ws)), ...(await filesUnder(join(home, 'data'))), ...(await filesUnder(join(home, 'config')))];
    expect(files.some((f) => f.includes(join('.git', 'docsync')))).toBe(true);
    const credentials = join(home, 'config', 'docsync', 'credentials.json');
    const data = join(home, 'data');
    for (const file of files) {
      const bytes = await readFile(file);
      const text = bytes.toString('latin1');
      for (const form of FORMS) {
        if (file === credentials && form === TOKEN) continue;
        if (file.startsWith(data) && form === FORMS[1]) continue;
        expect(text.includes(form), `${file} holds a form of the token`).toBe(false);
      }
    }
    for (const { what, text } of outputs)
      for (const form of FORMS) expect(text.includes(form), `${what} printed a form of the token`).toBe(false);
    expect(await readFile(credentials, 'utf8')).toContain(TOKEN);
    expect(outputs.length).toBe(11);
  }, 300_000);
});
