import { createClient, type Client, type ClientOptions } from '../../client/index.js';
import { withWorkspaceLock } from '../../daemon/index.js';
import { correctRepoConfig } from '../../git/index.js';
import { loadCredentials, readState } from '../../sync/index.js';

/** A client for the stored login (or DOCSYNC_API_URL / DOCSYNC_TOKEN). */
export async function clientFromLogin(): Promise<{ client: Client; apiUrl: string }> {
  const { apiUrl, token } = await loadCredentials();
  return { client: createClient({ baseUrl: apiUrl, token }), apiUrl };
}

/**
 * A client for the workspace in `dir`: its own API URL unless `DOCSYNC_API_URL` overrides it (a
 * proxy, a moved server: docs/cli.md), and the login's token.
 */
export async function clientForWorkspace(dir: string, options: Omit<ClientOptions, 'baseUrl' | 'token'> = {}): Promise<Client> {
  const state = await readState(dir);
  const apiUrl = process.env.DOCSYNC_API_URL || state.binding.apiUrl;
  const { token } = await loadCredentials({ ...process.env, DOCSYNC_API_URL: apiUrl });
  return createClient({ ...options, baseUrl: apiUrl, token });
}

/**
 * Runs `fn` with a client for the workspace while holding its sync lock: a command that writes
 * the sync state waits for the daemon's cycle in flight (or another command) to end first.
 */
export async function withWorkspace<T>(dir: string, fn: (client: Client) => Promise<T>): Promise<T> {
  return withWorkspaceLock(dir, async () => {
    // Workspaces from before docsync probed the file system hold Windows' core settings.
    if (await correctRepoConfig(dir)) {
      console.error(
        `docsync: set core.filemode, core.symlinks and core.ignorecase in ${dir}/.git/config as git init would on this file system (docsync had written Windows' values)`,
      );
    }
    const client = await clientForWorkspace(dir);
    try {
      return await fn(client);
    } finally {
      await client.close();
    }
  });
}
