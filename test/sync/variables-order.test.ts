import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { loadFolder } from '../../src/workspace/index.js';
import { clonedSpace, git } from './fixture.js';

// Issue 14: `.gitbook/vars.yaml` comes back in the order written, and a reorder is pushed.
describe.each(testDialects())('.gitbook/vars.yaml keeps its order (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-vars-order-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const varsOf = async (dir: string) => String((await loadFolder(dir)).get('.gitbook/vars.yaml'));

  it('pushed, merged and cloned back as written; reordered later, pushed and pulled', async () => {
    const t = await clonedSpace(s, client, work, 'vars');
    await mkdir(join(t.dir, '.gitbook'), { recursive: true });
    const vars = 'PW_IMAGE_ROUTE: mcr.microsoft.com/playwright\nLATEST_NODE_VERSION: 24.x\nBETA: true\n';
    await writeFile(join(t.dir, '.gitbook', 'vars.yaml'), vars);
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Variables');
    const pushed = await push(client, t.dir);
    expect(pushed.normalised).toEqual([]);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${pushed.changeRequest!.id}/merge`)).status).toBe(200);
    await pull(client, t.dir);
    const back = join(work, 'vars-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    expect(await varsOf(back)).toBe(vars);

    const reordered = 'BETA: true\nPW_IMAGE_ROUTE: mcr.microsoft.com/playwright\nLATEST_NODE_VERSION: 24.x\n';
    await writeFile(join(back, '.gitbook', 'vars.yaml'), reordered);
    git(back, 'add', '-A');
    git(back, 'commit', '-qm', 'Reordered');
    const again = await push(client, back);
    expect(again.changes).toMatchObject([{ operation: 'set_variables' }]);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${again.changeRequest!.id}/merge`)).status).toBe(200);
    await pull(client, t.dir);
    expect(await varsOf(t.dir)).toBe(reordered);
  });
});
