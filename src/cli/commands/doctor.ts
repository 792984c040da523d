import { resolve } from 'node:path';
import { createClient } from '../../client/index.js';
import { isSyncError, loadCredentials, readState, serverLimits } from '../../sync/index.js';
import type { OutputOptions } from '../output.js';

/** Where the API URL came from: the environment wins over the workspace, the workspace over the login. */
type Source = 'DOCSYNC_API_URL' | 'workspace' | 'login';

/** The workspace's binding, or undefined outside a workspace (doctor then checks the login alone). */
async function binding(dir: string): Promise<{ apiUrl: string; spaceId: string } | undefined> {
  try {
    return (await readState(dir)).binding;
  } catch (error) {
    if (isSyncError(error) && (error.code === 'not-a-workspace' || error.code === 'not-published')) return undefined;
    throw error;
  }
}

/**
 * `docsync doctor`: which server the workspace talks to (the API URL and where it came from),
 * whether it answers and whom the token belongs to, which of docsync's extensions it offers
 * (`x-docsync-extensions`), and what the sync tool cannot round-trip there for want of the
 * others. The server line is printed before the first request, so an unreachable server or a
 * refused token still shows which server it was; those fail as every command does (exit 1).
 */
export async function doctorCommand(options: OutputOptions & { dir?: string }): Promise<void> {
  const dir = resolve(options.dir ?? '.');
  const bound = await binding(dir);
  const fromEnv = process.env.DOCSYNC_API_URL;
  const source: Source = fromEnv ? 'DOCSYNC_API_URL' : bound ? 'workspace' : 'login';
  const credentials = await loadCredentials(bound && !fromEnv ? { ...process.env, DOCSYNC_API_URL: bound.apiUrl } : process.env);
  const apiUrl = credentials.apiUrl;
  if (!options.json)
    console.log(
      `server: ${apiUrl} (from ${source === 'workspace' ? `the workspace ${dir}` : source === 'login' ? 'docsync login' : 'DOCSYNC_API_URL'})`,
    );
  // A check answers soon: a server that is away is said after two retries, not five.
  const client = createClient({ baseUrl: apiUrl, token: credentials.token, retries: 2 });
  try {
    const user = await client.user.get();
    const space = bound ? await client.spaces.get(bound.spaceId) : undefined;
    const extensions = [...client.capabilities.extensions].sort();
    const limits = serverLimits(client.capabilities.extensions);
    if (options.json) {
      console.log(
        JSON.stringify({
          apiUrl,
          source,
          reachable: true,
          user: { id: user.id, displayName: user.displayName, email: user.email },
          space: space ? { id: space.id, title: space.title } : null,
          extensions,
          limits,
        }),
      );
      return;
    }
    const lines = [`reachable: yes, signed in as ${user.displayName} <${user.email}>`];
    if (space) lines.push(`space: ${space.title} (${space.id})`);
    lines.push(
      extensions.length > 0
        ? `extensions: ${extensions.join(', ')}`
        : 'extensions: none (the published API only, as the hosted GitBook API)',
    );
    if (limits.length === 0) lines.push('round-trips everything docsync writes');
    else lines.push('cannot round-trip here:', ...limits.map((l) => `  - ${l.without} (needs ${l.extension})`));
    console.log(lines.join('\n'));
  } finally {
    await client.close();
  }
}
