import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generateToken, serve, type RunningServer } from '../../server/index.js';
import { ExitError } from '../exit.js';
import { storeOptionsFromEnv } from './store-options.js';

/** What `docsync up` remembers between runs, in its data folder. */
export interface UpMemory {
  /** The port of the last run: the workspace is bound to its URL, so the next run asks for it first. */
  port?: number;
  /** The sample space made on the first run, cloned again when the workspace folder is gone. */
  spaceId?: string;
}

export const tokenPath = (dataDir: string) => join(resolve(dataDir), 'token');
const memoryPath = (dataDir: string) => join(resolve(dataDir), 'up.json');

export async function readUpMemory(dataDir: string): Promise<UpMemory> {
  try {
    return JSON.parse(await readFile(memoryPath(dataDir), 'utf8')) as UpMemory;
  } catch {
    return {};
  }
}

export async function writeUpMemory(dataDir: string, memory: UpMemory): Promise<void> {
  await writeFile(memoryPath(dataDir), `${JSON.stringify(memory, null, 2)}\n`, 'utf8');
}

/**
 * The embedded server's admin token: made on the first run and kept in `<data>/token`, readable by
 * its owner alone. The server creates its admin user with it on an empty store (bootstrap).
 */
async function adminToken(dataDir: string): Promise<string> {
  const path = tokenPath(dataDir);
  try {
    const token = (await readFile(path, 'utf8')).trim();
    if (token !== '') return token;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(resolve(dataDir), { recursive: true });
  const token = generateToken();
  await writeFile(path, `${token}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return token;
}

/**
 * Starts the embedded server on `<data>`: on `port` when it is free, else on any free port (a
 * fresh machine may have something on 8080 already). The admin token must work on the store: a
 * store made without this data folder's token file cannot be used by it, and that is said.
 */
export async function startEmbeddedServer(
  dataDir: string,
  host: string,
  port: number,
): Promise<{ server: RunningServer; token: string; movedFrom?: number }> {
  const token = await adminToken(dataDir);
  const options = { host, ...storeOptionsFromEnv(dataDir), bootstrapToken: token };
  let server: RunningServer;
  let movedFrom: number | undefined;
  try {
    server = await serve({ ...options, port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
    server = await serve({ ...options, port: 0 });
    movedFrom = port;
  }
  const answer = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
  if (answer.status === 401) {
    await server.close();
    throw new ExitError(
      `the token in ${tokenPath(dataDir)} is not one of this store's tokens; make one with docsync admin token create --email admin@localhost --data ${dataDir} and write it there, or delete ${dataDir} to start afresh`,
    );
  }
  return { server, token, ...(movedFrom !== undefined ? { movedFrom } : {}) };
}
