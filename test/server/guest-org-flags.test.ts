import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';

// Issue 25, item 7: the flags of the listing say what the organization's own routes answer.
describe.each(testDialects())('an organization as a guest sees it (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('GET /v1/orgs lists it with view and access false, as GET /v1/orgs/{id} answers 403; a reader gets true and 200', async () => {
    const guest = await s.user({ org: s.orgId, role: null });
    const reader = await s.user({ org: s.orgId, role: 'read' });
    const listed = await s.request('GET', '/v1/orgs', { token: guest.token });
    const org = listed.body.items.find((o: { id: string }) => o.id === s.orgId);
    expect(org.permissions).toMatchObject({ view: false, access: false, admin: false });
    expectError(await s.request('GET', `/v1/orgs/${s.orgId}`, { token: guest.token }), 403);
    const asReader = (await s.request('GET', '/v1/orgs', { token: reader.token })).body.items.find((o: { id: string }) => o.id === s.orgId);
    expect(asReader.permissions).toMatchObject({ view: true, access: true });
    expect((await s.request('GET', `/v1/orgs/${s.orgId}`, { token: reader.token })).status).toBe(200);
  });
});
