import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** tsx's ESM loader by absolute URL: `--import tsx` would be resolved from the caller's folder. */
async function tsxLoader(): Promise<string> {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(await readFile(manifest, 'utf8')) as { exports: Record<string, unknown> };
  const entry = exports['.'];
  if (typeof entry !== 'string') throw new Error('tsx/package.json: unexpected "exports" layout');
  return pathToFileURL(join(dirname(manifest), entry)).href;
}

/**
 * Writes `<dir>/docsync`: an executable that runs this checkout's CLI from source, standing in
 * for the installed `docsync` of a template (cron's PATH, a runner's npm prefix).
 */
export async function writeDocsyncBin(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, 'docsync');
  const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
  await writeFile(path, `#!/bin/sh\nexec ${quote(process.execPath)} --import ${quote(await tsxLoader())} ${quote(join(REPO, 'src/cli/bin.ts'))} "$@"\n`);
  await chmod(path, 0o755);
  return path;
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program without blocking the event loop (the test's server answers in this process),
 * with exactly `env`: nothing of the test's own environment leaks in.
 */
export function run(file: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: options.timeoutMs ?? 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => void (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : -1), stdout, stderr }));
  });
}

/** git as the tests run it: an identity of its own, never guessed from the machine. */
export const gitEnv = (home: string): Record<string, string> => ({
  HOME: home,
  PATH: '/usr/local/bin:/usr/bin:/bin',
  GIT_CONFIG_NOSYSTEM: '1',
  // A command that commits without naming an author fails instead of guessing one, as on CI.
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'user.useConfigOnly',
  GIT_CONFIG_VALUE_0: 'true',
});

export async function gitIn(dir: string, home: string, ...args: string[]): Promise<string> {
  const result = await run('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test', ...args], { cwd: dir, env: gitEnv(home) });
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
}
