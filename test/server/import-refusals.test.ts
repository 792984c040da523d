import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { sha256 } from '../../src/server/store/blobs.js';

const ASSET = strToU8('bytes only this test ever stores');
const DEEP = `<html><body>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</body></html>`;

// Issue 25, item 7: a refused import leaves nothing behind and is a clear 4xx.
describe.each(testDialects())('imports refused (%s)', (dialect) => {
  let s: TestServer;
  let src: Server;
  let base: string;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    src = createServer((req, res) => {
      if (req.url === '/deep.html') res.writeHead(200, { 'content-type': 'text/html' }).end(DEEP);
      else
        res
          .writeHead(200, { 'content-type': 'application/zip' })
          .end(zipSync({ 'README.md': strToU8('# Hi\n'), '.gitbook/assets/only.bin': ASSET }));
    });
    await new Promise<void>((resolve) => src.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(src.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s?.close();
    src?.closeAllConnections();
    await new Promise((resolve) => src?.close(resolve));
  });

  it('an import into a locked space answers 409 and stores no blob', async () => {
    const space = await createSpace(s, { title: 'Locked' });
    expect((await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { editMode: 'locked' } })).status).toBe(200);
    expectError(
      await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${base}/site.zip`, source: 'zip' } }),
      409,
    );
    const blob = await s.server.db.kysely.selectFrom('blobs').select('sha256').where('sha256', '=', sha256(ASSET)).executeTakeFirst();
    expect(blob).toBeUndefined();
  });

  it('a deeply nested HTML page answers a clear 400, not a 500', async () => {
    const space = await createSpace(s, { title: 'Deep' });
    const res = await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${base}/deep.html`, source: 'html' } });
    expectError(res, 400, /nested too deeply/);
    expect((await s.request('GET', '/v1/user')).status).toBe(200);
  });
});
