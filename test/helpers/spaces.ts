import { expect } from 'vitest';
import { upsertMember } from '../../src/server/store/organizations.js';
import type { Role } from '../../src/model/index.js';
import type { TestServer } from './server.js';

/** Creates a space through the API and returns its body; fails the test on any other answer. */
export async function createSpace(s: TestServer, body: Record<string, unknown> = {}, options: { org?: string; token?: string } = {}) {
  const res = await s.request('POST', `/v1/orgs/${options.org ?? s.orgId}/spaces`, {
    body,
    ...(options.token ? { token: options.token } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function createCollection(s: TestServer, body: Record<string, unknown> = {}, options: { org?: string; token?: string } = {}) {
  const res = await s.request('POST', `/v1/orgs/${options.org ?? s.orgId}/collections`, {
    body,
    ...(options.token ? { token: options.token } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** The id of the bootstrap admin (the user behind `s.token`). */
export async function bootstrapUserId(s: TestServer): Promise<string> {
  const res = await s.request('GET', '/v1/user');
  expect(res.status).toBe(200);
  return res.body.id as string;
}

/** Makes the bootstrap admin a member of `orgId` with `role`. */
export async function joinAs(s: TestServer, orgId: string, role: Role | null): Promise<void> {
  await upsertMember(s.server.db.kysely, { orgId, userId: await bootstrapUserId(s), role }, s.clock.now().toISOString());
}

/** The space ids of a collection, in the order the API lists them. */
export async function spacesOfCollection(s: TestServer, collectionId: string): Promise<string[]> {
  const res = await s.request('GET', `/v1/collections/${collectionId}/spaces`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.items as { id: string }[]).map((i) => i.id);
}
