import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startServer, type TestDialect, type TestServer } from '../helpers/server.js';

/** What an end-to-end sync test works with: the server, a scratch folder, a client, the CLI's environment. */
export interface SyncServer {
  s: TestServer;
  work: string;
  client: Client;
  /** For runCli: its own config folder, this server and its token. */
  env: Record<string, string>;
}

/**
 * Starts a real server (and a client, a scratch folder, a CLI environment) before the file's
 * tests and stops it after them; `use` receives it once it is up.
 */
export function withSyncServer(dialect: TestDialect, prefix: string, use: (h: SyncServer) => void): void {
  let h: SyncServer | undefined;
  beforeAll(async () => {
    const s = await startServer(dialect);
    const work = await mkdtemp(join(tmpdir(), prefix));
    h = {
      s,
      work,
      client: createClient({ baseUrl: s.url, token: s.token }),
      env: { XDG_CONFIG_HOME: join(work, 'config'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token },
    };
    use(h);
  });
  afterAll(async () => {
    await h?.client.close();
    await h?.s.close();
    if (h) await rm(h.work, { recursive: true, force: true });
  });
}
