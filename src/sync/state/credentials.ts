import { writeJsonFile } from './json-file.js';
import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { SyncError } from '../errors.js';

export interface Credentials {
  apiUrl: string;
  token: string;
}

/** `$XDG_CONFIG_HOME/docsync/credentials.json`, else `~/.config/docsync/credentials.json`. */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : join(homedir(), '.config');
  return join(base, 'docsync', 'credentials.json');
}

/** Stores the login readable by its owner alone (0600, in a 0700 folder). */
export async function saveCredentials(credentials: Credentials, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const path = credentialsPath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeJsonFile(path, credentials, { mode: 0o600 });
  return path;
}

/**
 * The API URL and token to use: `DOCSYNC_API_URL` and `DOCSYNC_TOKEN` override what
 * `docsync login` stored. Errors say what is missing, never the token.
 */
export async function loadCredentials(env: NodeJS.ProcessEnv = process.env): Promise<Credentials> {
  let stored: Partial<Credentials> = {};
  try {
    stored = JSON.parse(await readFile(credentialsPath(env), 'utf8')) as Partial<Credentials>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new SyncError('damaged-state', `${credentialsPath(env)} is not readable JSON; run docsync login again`);
    }
  }
  const apiUrl = env.DOCSYNC_API_URL || stored.apiUrl;
  const token = env.DOCSYNC_TOKEN || stored.token;
  if (!apiUrl) throw new SyncError('not-logged-in', 'no API URL: run docsync login --api URL, or set DOCSYNC_API_URL');
  if (!token) throw new SyncError('not-logged-in', 'no token: run docsync login, or set DOCSYNC_TOKEN');
  return { apiUrl: apiUrl.replace(/\/+$/, ''), token };
}
