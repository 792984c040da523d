import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type RegisteredRoute, type TestServer } from '../helpers/server.js';
import { buildFixture, type Fixture } from '../helpers/api-fixture.js';
import { dumpStore, storeChanges } from '../helpers/store-dump.js';

/**
 * Issue 24, "Authorization and isolation": no resource of one organization is readable or
 * listable from another. Every GET route the server registers (found at run time) is called with
 * organization A's ids, first by A's admin (a 2xx: the ids are right) and then by the admin of
 * organization B (a 404, as docs/api.md says for what the caller may not see). Then every listing
 * of B, with its search and filter parameters set to words of A's resources, must not name one of
 * A's ids.
 */

/** Reads that answer strangers by design (docs/api.md), with the status they give them. */
const PUBLIC_READS: Record<string, { status: number; why: string }> = {
  'GET /v1/orgs/:organizationId/visitor-claims/jwks.json': { status: 200, why: 'public keys: anyone handed a JWT checks it' },
  'GET /v1/sso/saml/:samlProviderId/metadata': { status: 200, why: 'SAML sign-in: the service provider metadata needs no token' },
  'GET /v1/sso/saml/:samlProviderId/start': { status: 302, why: 'SAML sign-in: starting it needs no token' },
};

/** Reads whose answer does not depend on the caller's organization. */
const NOT_SCOPED = new Set(['GET /v1/user', 'GET /v1/orgs', 'GET /v1/integrations', 'GET /v1/email-domains/:emailDomain/orgs']);

/** Fills a route's path parameters with A's ids; throws for a parameter the fixture has no id for. */
function fill(route: RegisteredRoute, fx: Fixture, ids: Record<string, string>): string {
  const onChangeRequest = route.url.includes('/change-requests/');
  return route.url
    .split('/')
    .map((part) => {
      if (part === '*') return 'fixture-page';
      if (!part.startsWith(':')) return part;
      let name = part.slice(1);
      if (onChangeRequest && name === 'commentId') name = 'crCommentId';
      if (onChangeRequest && name === 'commentReplyId') name = 'crCommentReplyId';
      if (route.url.includes('/sso/saml/') && name === 'samlProviderId') name = 'activeSamlProviderId';
      const id = ids[name];
      if (id === undefined) throw new Error(`${route.method} ${route.url}: the fixture has no id for :${name}`);
      return encodeURIComponent(id);
    })
    .join('/');
}

/** A GET that never waits on an event stream: its status, and its body as text (up to the first chunk for a stream). */
async function get(s: TestServer, path: string, token: string): Promise<{ status: number; text: string }> {
  const controller = new AbortController();
  const res = await fetch(`${s.url}${path}`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: 'manual',
    signal: controller.signal,
  });
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    controller.abort();
    return { status: res.status, text: '' };
  }
  return { status: res.status, text: await res.text() };
}

describe.each(testDialects())('isolation between organizations (%s)', (dialect) => {
  let s: TestServer;
  let fx: Fixture;
  let ids: Record<string, string>;
  beforeAll(async () => {
    s = await startServer(dialect);
    fx = await buildFixture(s);
    ids = {
      ...fx.ids,
      emailDomain: 'org-a.example',
      asset: 'icon',
      blob: 'a'.repeat(64),
    };
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
    await s?.close();
  });

  const reads = () => s.routes.filter((r) => r.method === 'GET' && r.url.startsWith('/v1/'));

  it("every GET route answers organization B's admin 404 for organization A's resources", async () => {
    const wrong: string[] = [];
    let scoped = 0;
    for (const route of reads()) {
      const key = `${route.method} ${route.url}`;
      if (NOT_SCOPED.has(key)) continue;
      const required = ((route.schema?.querystring ?? {}) as { required?: string[] }).required ?? [];
      const path = `${fill(route, fx, ids)}${required.length > 0 ? `?${required.map((q) => `${q}=${encodeURIComponent(q === 'since' ? ids.revisionId! : 'Fixture')}`).join('&')}` : ''}`;
      const owner = await get(s, path, fx.adminToken);
      const stranger = await get(s, path, fx.other.adminToken);
      const known = PUBLIC_READS[key];
      scoped += 1;
      // The fixture's PDF link has no signature: nobody reads it, so only the stranger's answer counts.
      if (route.url !== '/v1/pdf/:blob' && (owner.status < 200 || owner.status > 399))
        wrong.push(`${key} as A's admin: ${owner.status} ${owner.text.slice(0, 200)}`);
      const want = known?.status ?? 404;
      if (route.url === '/v1/pdf/:blob' ? stranger.status < 400 : stranger.status !== want)
        wrong.push(`${key} as B's admin: ${stranger.status} (want ${want}) ${stranger.text.slice(0, 200)}`);
    }
    process.stdout.write(`isolation (${dialect}): ${scoped} GET routes read with A's ids by A's and B's admins\n`);
    expect(wrong).toEqual([]);
  }, 300_000);

  it('no listing, filter or search of organization B names a resource of organization A', async () => {
    const leaks: string[] = [];
    const aIds = fx.allIds();
    let tried = 0;
    // B has content of its own, so its listings are not empty.
    const bSpace = (await fx.call('POST', `/v1/orgs/${fx.other.id}/spaces`, { title: 'Fixture page of B' }, fx.other.adminToken)).id;
    await fx.call('POST', `/v1/spaces/${bSpace}/comments`, { body: { markdown: 'A comment' } }, fx.other.adminToken);
    const words = ['Fixture', 'Space', 'Org A', 'org-a.example', 'fixture-page', 'int-'];
    for (const route of reads()) {
      const key = `${route.method} ${route.url}`;
      const params = route.url.match(/:[A-Za-z]+|\*/g) ?? [];
      if (params.some((p) => p !== ':organizationId' && p !== ':emailDomain')) continue;
      const base = route.url.replace(':organizationId', fx.other.id).replace(':emailDomain', 'org-a.example');
      const query = (route.schema?.querystring ?? {}) as { properties?: Record<string, { type?: string }> };
      const textFields = Object.entries(query.properties ?? {})
        .filter(([name, schema]) => schema.type === 'string' && ['query', 'search', 'title', 'q', 'owner', 'role'].includes(name))
        .map(([name]) => name);
      const required = ((route.schema?.querystring ?? {}) as { required?: string[] }).required ?? [];
      const paths = [
        ...(required.length === 0 ? [base] : []),
        ...textFields.flatMap((field) => words.map((w) => `${base}?${field}=${encodeURIComponent(w)}`)),
      ];
      for (const path of paths) {
        const res = await get(s, path, fx.other.adminToken);
        tried += 1;
        if (res.status >= 500) leaks.push(`${key} ${path}: ${res.status}`);
        const named = aIds.filter((id) => res.text.includes(id));
        if (named.length > 0) leaks.push(`${key} ${path}: names ${named.join(', ')} of organization A`);
      }
    }
    process.stdout.write(`isolation (${dialect}): ${tried} listings and searches of B checked for A's ids\n`);
    expect(tried).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
  }, 300_000);

  it("organization B's admin cannot reach A's resources by naming them in B's own writes", async () => {
    const b = fx.other;
    const as = (method: string, path: string, body: unknown) => s.request(method, path, { token: b.adminToken, body });
    const mine = async (method: string, path: string, body: unknown) => {
      const res = await as(method, path, body);
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body;
    };
    const bSpace = (await mine('POST', `/v1/orgs/${b.id}/spaces`, { title: 'B space' })).id;
    const bCollection = (await mine('POST', `/v1/orgs/${b.id}/collections`, { title: 'B collection' })).id;
    const bSite = (await mine('POST', `/v1/orgs/${b.id}/sites`, { title: 'B site' })).id;
    const bSection = (await mine('POST', `/v1/orgs/${b.id}/sites/${bSite}/sections`, { spaceId: bSpace })).id;
    const bTeam = (await mine('PUT', `/v1/orgs/${b.id}/teams`, { title: 'B team' })).id;
    const a = fx.ids;
    const attempts: [string, string, unknown][] = [
      ['POST', `/v1/orgs/${b.id}/spaces`, { title: 'x', parent: a.collectionId }],
      ['POST', `/v1/orgs/${b.id}/collections`, { title: 'x', parent: a.collectionId }],
      ['POST', `/v1/spaces/${bSpace}/move`, { parent: a.collectionId }],
      ['POST', `/v1/collections/${bCollection}/move`, { parent: a.collectionId }],
      ['POST', `/v1/spaces/${bSpace}/transfer`, { organization: fx.org }],
      ['POST', `/v1/spaces/${bSpace}/permissions`, { role: 'read', users: [fx.callers.read.id] }],
      ['POST', `/v1/spaces/${bSpace}/permissions`, { role: 'read', teams: [fx.team] }],
      ['PATCH', `/v1/spaces/${bSpace}/permissions/users/${fx.callers.read.id}`, { role: 'read' }],
      ['PATCH', `/v1/spaces/${bSpace}/permissions/teams/${fx.team}`, { role: 'read' }],
      ['PUT', `/v1/orgs/${b.id}/teams`, { title: 'x', members: [fx.callers.read.id] }],
      ['PUT', `/v1/orgs/${b.id}/teams/${bTeam}/members`, { add: [fx.callers.read.id] }],
      ['PUT', `/v1/orgs/${b.id}/teams/${bTeam}/members/${fx.callers.read.id}`, { role: 'member' }],
      ['POST', `/v1/orgs/${b.id}/sites`, { title: 'x site', spaces: [a.spaceId] }],
      ['POST', `/v1/orgs/${b.id}/sites/${bSite}/sections`, { spaceId: a.spaceId }],
      ['POST', `/v1/orgs/${b.id}/sites/${bSite}/site-spaces`, { spaceId: a.spaceId, sectionId: bSection }],
      ['POST', `/v1/orgs/${b.id}/sites/${bSite}/site-spaces`, { spaceId: bSpace, sectionId: a.siteSectionId }],
      ['POST', `/v1/orgs/${b.id}/sites/${bSite}/section-groups`, { title: 'G', sections: [a.siteSectionId] }],
      ['PATCH', `/v1/orgs/${b.id}/sites/${bSite}`, { defaultSiteSection: a.siteSectionId }],
      ['PATCH', `/v1/orgs/${b.id}/sites/${bSite}/sections/${bSection}`, { defaultSiteSpace: a.siteSpaceId }],
      ['PATCH', `/v1/orgs/${b.id}`, { defaultContent: { type: 'site', site: a.siteId } }],
      ['POST', `/v1/orgs/${b.id}/saml`, { label: 'x', defaultTeam: fx.team }],
      ['POST', `/v1/spaces/${bSpace}/comments`, { body: { markdown: 'x' }, page: a.pageId }],
      ['POST', `/v1/integrations/${a.integrationName}/installations`, { organization: b.id }],
      ['PATCH', `/v1/orgs/${b.id}/members/${fx.callers.read.id}`, { role: 'admin' }],
    ];
    const wrong: string[] = [];
    for (const [method, path, body] of attempts) {
      const before = await dumpStore(s);
      const res = await as(method, path, body);
      // Transferring to an organization the caller does not administer is a 403 (docs/api.md, error catalogue).
      const allowed = path.endsWith('/transfer') ? [403] : [400, 404];
      if (!allowed.includes(res.status)) wrong.push(`${method} ${path} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
      const changes = storeChanges(before, await dumpStore(s));
      if (Object.keys(changes).length > 0) wrong.push(`${method} ${path} ${JSON.stringify(body)}: changed ${JSON.stringify(changes)}`);
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
