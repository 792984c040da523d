import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/**
 * What `npm ci && npm start` runs, built the way `npm ci` builds it (tsc, tsconfig.build.json)
 * and started with plain node, not tsx: a build that cannot find its templates, or an import
 * that only tsx resolves, fails here. Built into a folder of its own beside `dist/`, so the
 * package's paths (../../../templates) hold as they do in `dist/`.
 */
describe('npm start (docsync up from the built package)', () => {
  let out: string;
  let home: string;
  beforeAll(async () => {
    out = await mkdtemp(join(ROOT, '.test-dist-'));
    home = await mkdtemp(join(tmpdir(), 'docsync-npm-start-'));
    await run(process.execPath, [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      out,
    ]);
  });
  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('starts, makes the sample workspace, pushes a save, and stops on Ctrl-C with exit 0', async () => {
    const base = { ...process.env };
    for (const key of Object.keys(base)) if (key.startsWith('DOCSYNC_')) delete base[key];
    const child = spawn(process.execPath, [join(out, 'cli', 'bin.js'), 'up', '--port', '0', '--debounce', '100'], {
      cwd: home,
      env: { ...base, XDG_CONFIG_HOME: join(home, 'config') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? -1)));
    const waitFor = async (pattern: RegExp) => {
      const until = Date.now() + EVENT_WAIT_MS;
      while (!pattern.test(stdout)) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`no ${pattern} in: ${stdout}\nstderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await waitFor(/ watching \S+docs-workspace on main/);
      expect(stdout).toMatch(
        /^docsync is up\.\n {2}API {8}http:\/\/127\.0\.0\.1:\d+ \(embedded, data in \.\/\.docsync-data\)\n {2}token {6}\.\/\.docsync-data\/token/,
      );
      expect(stdout).toContain('Edit ./docs-workspace/README.md');
      const readme = join(home, 'docs-workspace', 'README.md');
      await writeFile(readme, `${await readFile(readme, 'utf8')}\nSaved once.\n`);
      await waitFor(/main: pushed to change request #\d+ \(opened\)/);
    } finally {
      child.kill('SIGINT');
      expect(await exited, stderr).toBe(0);
    }
    expect(stdout).toMatch(/stopped \(SIGINT\)\n$/);
  });
});
