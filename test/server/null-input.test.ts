import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

const json = { 'content-type': 'application/json' };

// A JSON `null` is a body, not a missing one; a null field is a value, allowed only where the
// published spec declares null (and then it removes).
describe.each(testDialects())('null bodies and null fields (%s)', (dialect) => {
  let s: TestServer;
  let spaceId: string;
  beforeAll(async () => {
    s = await startServer(dialect);
    spaceId = (await createSpace(s, { title: 'Nulls', emoji: '📘' })).id;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('creating a space or a change request with a null body is a 400; no body at all is an empty one', async () => {
    expectError(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { raw: 'null', headers: json }), 400, /^body must be a JSON object/);
    expectError(
      await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { raw: 'null', headers: json }),
      400,
      /^body must be a JSON object/,
    );
    expectSpec(await s.request('POST', `/v1/orgs/${s.orgId}/spaces`), 'POST', '/orgs/{organizationId}/spaces', 201);
    expectSpec(await s.request('POST', `/v1/spaces/${spaceId}/change-requests`), 'POST', '/spaces/{spaceId}/change-requests', 201);
  });

  it('PATCH space: null removes the emoji and sets the default level (the spec declares both); elsewhere it is a 400 naming the field', async () => {
    const removed = await s.request('PATCH', `/v1/spaces/${spaceId}`, { body: { emoji: null } });
    expectSpec(removed, 'PATCH', '/spaces/{spaceId}', 200);
    expect(removed.body.emoji).toBe('');
    expectSpec(await s.request('PATCH', `/v1/spaces/${spaceId}`, { body: { defaultLevel: null } }), 'PATCH', '/spaces/{spaceId}', 200);
    for (const field of ['title', 'editMode', 'visibility']) {
      expectError(await s.request('PATCH', `/v1/spaces/${spaceId}`, { body: { [field]: null } }), 400, new RegExp(`^body\\.${field} `));
    }
    expectError(await s.request('PATCH', `/v1/spaces/${spaceId}`, { raw: 'null', headers: json }), 400, /^body must be a JSON object/);
    expectError(await s.request('PATCH', `/v1/spaces/${spaceId}/change-requests/1`, { body: { subject: null } }), 400, /^body\.subject /);
  });
});
