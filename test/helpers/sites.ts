import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { expectSpec } from './expect-spec.js';

export const sitesPath = (s: TestServer, org?: string) => `/v1/orgs/${org ?? s.orgId}/sites`;

/** Creates a site through the API (as the bootstrap admin unless `token`) and returns its body. */
export async function makeSite(s: TestServer, body: Record<string, unknown> = {}, options: { org?: string; token?: string } = {}): Promise<any> {
  const res = await s.request('POST', sitesPath(s, options.org), { body, ...(options.token ? { token: options.token } : {}) });
  expectSpec(res, 'POST', '/orgs/{organizationId}/sites', 201);
  return res.body;
}

/** Creates a space titled `title` and returns its id. */
export async function makeSpaceId(s: TestServer, title: string, options: { org?: string; token?: string } = {}): Promise<string> {
  const res = await s.request('POST', `/v1/orgs/${options.org ?? s.orgId}/spaces`, { body: { title }, ...(options.token ? { token: options.token } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}
