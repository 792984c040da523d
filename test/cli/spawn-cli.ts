import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// No vitest here: `npm run bench` starts the CLI with this too.

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
/** The test budgets of a server a CLI process runs (test/helpers/child-limits.ts). */
const CHILD_LIMITS = fileURLToPath(new URL('../helpers/child-limits.ts', import.meta.url));

export interface CliProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first line printed on stdout. */
  firstLine: Promise<string>;
  /** Resolves with the exit code (or the signal's name when killed by one). */
  exited: Promise<number | string>;
}

/**
 * Starts the CLI from its source in a child process, the way `bin` runs it, with a clean
 * environment as far as docsync's own variables go.
 */
export function spawnCli(args: string[], env: Record<string, string> = {}, options: { built?: string } = {}): CliProcess {
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (key.startsWith('DOCSYNC_')) delete base[key];
  // `built`: the compiled bin (dist/cli/bin.js), run with plain node as users run it.
  const child = spawn(
    process.execPath,
    options.built !== undefined ? [options.built, ...args] : ['--import', 'tsx', '--import', CHILD_LIMITS, BIN, ...args],
    {
      env: { ...base, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const end = out.indexOf('\n');
      if (end >= 0) resolve(out.slice(0, end));
    });
    child.once('exit', () => reject(new Error(`docsync exited before printing a line; stderr: ${err}`)));
  });
  firstLine.catch(() => undefined);
  child.stderr!.on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('close', (code, signal) => resolve(code ?? signal ?? -1));
  });
  return { child, stdout: () => out, stderr: () => err, firstLine, exited };
}
