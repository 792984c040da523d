// What the benches that run `docsync serve` from the built dist/ share: a child process started
// and waited on until it prints its URL, stopped with SIGTERM, and JSON calls to its API.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Spawned {
  child: ChildProcess;
  url: string;
}

/** Spawns `node args` in the package's root and resolves once its output matches `pattern` (group 1: the URL). */
export function spawnUntilUrl(args: string[], env: Record<string, string>, pattern: RegExp): Promise<Spawned> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const found = pattern.exec(out);
      if (found) {
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve({ child, url: found[1]! });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

/** SIGTERM, resolved once the process has exited (at once when it already has). */
export const stopSpawned = (spawned: Spawned) =>
  new Promise<void>((resolve) => {
    spawned.child.removeAllListeners('exit');
    if (spawned.child.exitCode !== null) return resolve();
    spawned.child.on('exit', () => resolve());
    spawned.child.kill('SIGTERM');
  });

/** An API answer outside 2xx; `status` lets a caller retry a 409. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON caller of the API with the given token. */
export function apiCaller(token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  return async function api<T = any>(url: string, method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    if (!res.ok) throw new HttpError(res.status, `${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

/** The value at percentile `p` (0-100) of `values`, nearest rank; 0 when there are none. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
