import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startServer, type TestServer } from '../helpers/server.js';

export interface ServerForTests {
  s: TestServer;
  client: Client;
  work: string;
}

/**
 * A SQLite server, a client of it and a temporary folder (named after `prefix`) for the tests of
 * the calling describe block: started before them, handed to `use`, closed and removed after.
 */
export function serverForTests(prefix: string, use: (started: ServerForTests) => void): void {
  let started: Partial<ServerForTests> = {};
  beforeAll(async () => {
    const s = await startServer('sqlite');
    started = { s, client: createClient({ baseUrl: s.url, token: s.token }), work: await mkdtemp(join(tmpdir(), prefix)) };
    use(started as ServerForTests);
  });
  afterAll(async () => {
    await started.client?.close();
    await started.s?.close();
    if (started.work !== undefined) await rm(started.work, { recursive: true, force: true });
  });
}
