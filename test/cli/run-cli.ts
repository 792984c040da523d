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
  if (result.code !== 0 || lines.length !== 1)
    throw new Error(`expected one JSON line, got code ${result.code}: ${result.stdout}${result.stderr}`);
  return JSON.parse(lines[0]!);
}

export { spawnCli, type CliProcess } from './spawn-cli.js';
