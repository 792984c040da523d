import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';

// Issue 25, item 8: the server keeps a log operators can use, and nothing secret is in it.
describe.each(testDialects())('the server log (%s)', (dialect) => {
  let s: TestServer;
  const lines: string[] = [];
  const entries = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
  beforeAll(async () => {
    s = await startServer(dialect, { log: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('writes one JSON line per request: method, route, status, response time and caller; never the token or the body', async () => {
    lines.length = 0;
    const me = await s.request('GET', '/v1/user');
    const secret = 'body-marker-that-must-not-be-logged';
    const space = await createSpace(s, { title: secret });
    await s.request('GET', '/v1/nope?token=query-secret');
    await s.request('GET', '/v1/user', { token: 'wrong-token-that-must-not-be-logged' });
    const requests = entries().filter((e) => e.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ method: 'GET', route: '/v1/user', status: 200, caller: me.body.id, responseTime: expect.any(Number) }),
      expect.objectContaining({ method: 'POST', route: '/v1/orgs/:organizationId/spaces', status: 201, caller: me.body.id }),
      expect.objectContaining({ method: 'GET', path: '/v1/nope', status: 404 }),
      expect.objectContaining({ method: 'GET', route: '/v1/user', status: 401, caller: null }),
    ]);
    expect(space.title).toBe(secret);
    const all = lines.join('');
    for (const leak of [s.token, secret, 'query-secret', 'wrong-token-that-must-not-be-logged', 'authorization'])
      expect(all).not.toContain(leak);
  });

  it('logs a 500 with its stack on the server side; the answer carries neither', async () => {
    const space = await createSpace(s, { title: 'Broken' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' } });
    const put = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content?compat=false`, {
      body: {
        changes: [
          {
            operation: 'insert_files',
            files: [{ name: 'gone.png', contentType: 'image/png', base64: Buffer.from('lost bytes').toString('base64') }],
          },
        ],
      },
    });
    const file = put.body.insertedFiles[0];
    // A store missing a blob its tree names is a bug, not bad input: the one way to a 500 from outside.
    await s.server.db.kysely.deleteFrom('blobs').where('size', '=', 'lost bytes'.length).execute();
    lines.length = 0;
    const res = await fetch(file.downloadURL, { headers: { authorization: `Bearer ${s.token}` } });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ error: { code: 500, message: 'internal error; the server log has the details' } });
    expect(body).not.toMatch(/at .*\.ts:\d+/);
    const error = entries().find((e) => e.msg === 'unhandled error');
    expect(error).toMatchObject({ level: 50, route: '/v1/spaces/:spaceId/revisions/:revisionId/files/:fileId/download' });
    expect(error!.err.message).toMatch(/blob [0-9a-f]{64} of file .* is missing/);
    expect(error!.err.stack).toMatch(/files\.ts/);
    expect(entries().find((e) => e.msg === 'request')).toMatchObject({ status: 500 });
  });
});
