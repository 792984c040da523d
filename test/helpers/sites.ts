import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { expectSpec } from './expect-spec.js';

export const sitesPath = (s: TestServer, org?: string) => `/v1/orgs/${org ?? s.orgId}/sites`;

/** Creates a site through the API (as the bootstrap admin unless `token`) and returns its body. */
export async function makeSite(
  s: TestServer,
  body: Record<string, unknown> = {},
  options: { org?: string; token?: string } = {},
): Promise<any> {
  const res = await s.request('POST', sitesPath(s, options.org), { body, ...(options.token ? { token: options.token } : {}) });
  expectSpec(res, 'POST', '/orgs/{organizationId}/sites', 201);
  return res.body;
}

/** Creates a space titled `title` and returns its id. */
export async function makeSpaceId(s: TestServer, title: string, options: { org?: string; token?: string } = {}): Promise<string> {
  const res = await s.request('POST', `/v1/orgs/${options.org ?? s.orgId}/spaces`, {
    body: { title },
    ...(options.token ? { token: options.token } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

/** Creates a section from a space and returns its body. */
export async function makeSection(s: TestServer, siteId: string, body: Record<string, unknown>): Promise<any> {
  const res = await s.request('POST', `${sitesPath(s)}/${siteId}/sections`, { body });
  expectSpec(res, 'POST', '/orgs/{organizationId}/sites/{siteId}/sections', 201);
  return res.body;
}

/** Adds a space to a site (to `sectionId`, or the default place) and returns the site space. */
export async function addSiteSpace(s: TestServer, siteId: string, body: Record<string, unknown>): Promise<any> {
  const res = await s.request('POST', `${sitesPath(s)}/${siteId}/site-spaces`, { body });
  expectSpec(res, 'POST', '/orgs/{organizationId}/sites/{siteId}/site-spaces', 201);
  return res.body;
}

/** The site's structure as `[kind, id, children]` triples, for comparing orders. */
export async function structureIds(s: TestServer, siteId: string): Promise<unknown> {
  const res = await s.request('GET', `${sitesPath(s)}/${siteId}/structure`);
  expectSpec(res, 'GET', '/orgs/{organizationId}/sites/{siteId}/structure', 200);
  const { type, structure } = res.body;
  if (type === 'siteSpaces') return structure.map((ss: any) => ss.id);
  return structure.map((item: any) =>
    item.object === 'site-section-group'
      ? { group: item.id, sections: item.sections.map((x: any) => x.id) }
      : { section: item.id, siteSpaces: item.siteSpaces.map((x: any) => x.id) },
  );
}
