import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `docsync ...args` in this process with `env` set for the duration of the call, and
 * captures what it prints: console for our own output, the streams for commander's.
 */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  const spies = [
    vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void out.push(`${parts.join(' ')}\n`)),
    vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void err.push(`${parts.join(' ')}\n`)),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => out.push(String(chunk)) > 0),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => err.push(String(chunk)) > 0),
  ];
  setEnv(env);
  try {
    const code = await main(['node', 'docsync', ...args]);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    setEnv(saved);
    for (const spy of spies) spy.mockRestore();
  }
}

function setEnv(env: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
}

/** Parses the one JSON line a `--json` command printed. */
export function jsonOf(result: CliResult): any {
  const lines = result.stdout.trimEnd().split('\n');
  if (result.code !== 0 || lines.length !== 1) throw new Error(`expected one JSON line, got code ${result.code}: ${result.stdout}${result.stderr}`);
  return JSON.parse(lines[0]!);
}

const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));

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
export function spawnCli(args: string[], env: Record<string, string> = {}): CliProcess {
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (key.startsWith('DOCSYNC_')) delete base[key];
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
