import { createClient, type Client, type ClientOptions } from '../../client/index.js';
import { loadCredentials, readState } from '../../sync/index.js';

/** A client for the stored login (or DOCSYNC_API_URL / DOCSYNC_TOKEN). */
export async function clientFromLogin(): Promise<{ client: Client; apiUrl: string }> {
  const { apiUrl, token } = await loadCredentials();
  return { client: createClient({ baseUrl: apiUrl, token }), apiUrl };
}

/** A client for the workspace in `dir`: its own API URL, the login's token. */
export async function clientForWorkspace(dir: string, options: Omit<ClientOptions, 'baseUrl' | 'token'> = {}): Promise<Client> {
  const state = await readState(dir);
  const { token } = await loadCredentials({ ...process.env, DOCSYNC_API_URL: process.env.DOCSYNC_API_URL || state.binding.apiUrl });
  return createClient({ ...options, baseUrl: state.binding.apiUrl, token });
}
