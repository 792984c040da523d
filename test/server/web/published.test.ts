import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { WebClient } from '../../helpers/web.js';
import { spaceWithPages } from '../../helpers/web-content.js';
import { makeSection, makeSite, sitesPath } from '../../helpers/sites.js';

const path = (url: string) => new URL(url).pathname;
/** The sidebar link to the page titled `title`. */
const href = (html: string, title: string) => new RegExp(`href="([^"]+)"[^>]*>${title}<`).exec(html)![1]!;

describe.each(testDialects())('published sites (%s)', (dialect) => {
  let server: TestServer;
  let docs: string;
  let beta: string;
  beforeAll(async () => {
    server = await startServer(dialect);
    docs = (
      await spaceWithPages(
        server,
        [
          {
            title: 'Welcome',
            markdown: '# Welcome\n\nPublic docs.\n\n{% if visitor.claims.unsigned.plan == "pro" %}\nPro only text.\n{% endif %}\n',
          },
          { title: 'Guide', markdown: '# Guide\n\nThe guide.\n' },
        ],
        { title: 'Docs' },
      )
    ).space.id;
    beta = (await spaceWithPages(server, [{ title: 'Beta', markdown: '# Beta\n\nSecret beta feature.\n' }], { title: 'Beta' })).space.id;
  });
  afterAll(async () => server?.close());

  const publish = async (site: { id: string }) => {
    const res = await server.request('POST', `${sitesPath(server)}/${site.id}/publish`);
    expect(res.status).toBe(200);
    return res.body;
  };

  it('serves a public site at urls.published, its pages and sections, without app chrome; unpublished is 404', async () => {
    const site = await makeSite(server, { title: 'Public docs', spaces: [docs] });
    const visitor = new WebClient(server.url);
    expect((await visitor.get(path(site.urls.published))).status).toBe(404);
    await publish(site);
    const home = await visitor.get(path(site.urls.published));
    expect(home.status).toBe(200);
    expect(home.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(home.headers.get('etag')).toBeTruthy();
    expect(home.text).not.toContain('class="app-bar"');
    expect(home.text).not.toContain('Sign out');
    const welcome = await visitor.get(href(home.text, 'Welcome'));
    expect(welcome.text).toContain('Public docs.');
    expect(welcome.text).not.toContain('Pro only text');
    const page = await visitor.get(href(home.text, 'Guide'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('The guide.');
    expect((await visitor.get(path(site.urls.published), { 'if-none-match': home.headers.get('etag')! })).status).toBe(304);
    const pro = await visitor.get(`${href(home.text, 'Welcome')}?visitor.plan=pro`);
    expect(pro.text).not.toContain('Pro only text');
    await server.request('PATCH', `${sitesPath(server)}/${site.id}`, { body: { adaptiveContent: { enabled: true } } });
    expect((await visitor.get(`${href(home.text, 'Welcome')}?visitor.plan=pro`)).text).toContain('Pro only text');

    const structure = await server.request('GET', `${sitesPath(server)}/${site.id}/structure`);
    for (const siteSpace of structure.body.structure) expect((await visitor.get(path(siteSpace.urls.published))).status).toBe(200);
    expect((await visitor.get(`${path(site.urls.published)}/no-such-page`)).status).toBe(404);

    // The site's app URLs, for members only.
    const member = new WebClient(server.url);
    await member.signIn(server.token);
    const stranger = await server.organization();
    const outsider = new WebClient(server.url);
    await outsider.signIn(stranger.adminToken);
    for (const url of [site.urls.app, site.urls.preview, ...structure.body.structure.map((s: { urls: { app: string } }) => s.urls.app)]) {
      expect((await member.get(path(url))).status, url).toBe(200);
      expect((await outsider.get(path(url))).status, url).toBe(404);
    }
  });

  it('shows a section whose condition the visitor meets, and not otherwise', async () => {
    const site = await makeSite(server, { title: 'Sectioned', spaces: [docs] });
    await makeSection(server, site.id, { spaceId: docs, title: 'Main' });
    const section = await makeSection(server, site.id, { spaceId: beta, title: 'Beta program' });
    const patched = await server.request('PATCH', `${sitesPath(server)}/${site.id}/sections/${section.id}`, {
      body: { condition: 'visitor.claims.unsigned.beta == true' },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    await server.request('PATCH', `${sitesPath(server)}/${site.id}`, { body: { adaptiveContent: { enabled: true } } });
    await publish(site);
    const visitor = new WebClient(server.url);
    expect((await visitor.get(path(site.urls.published))).text).not.toContain('Beta program');
    expect((await visitor.get(path(patched.body.urls.published))).status).toBe(404);
    const withClaim = await visitor.get(`${path(site.urls.published)}?visitor.beta=true`);
    expect(withClaim.text).toContain('Beta program');
    const betaHome = await visitor.get(`${path(patched.body.urls.published)}?visitor.beta=true`);
    expect(betaHome.status).toBe(200);
    expect((await visitor.get(`${href(betaHome.text, 'Beta')}?visitor.beta=true`)).text).toContain('Secret beta feature.');
  });

  it('serves a share-link site only with an active key', async () => {
    const site = await makeSite(server, { title: 'Shared', spaces: [docs], visibility: 'share-link' });
    await publish(site);
    const link = await server.request('POST', `${sitesPath(server)}/${site.id}/share-links`, { body: { name: 'partners' } });
    expect(link.status).toBe(201);
    const visitor = new WebClient(server.url);
    expect((await visitor.get(path(site.urls.published))).status).toBe(404);
    expect((await visitor.get(path(link.body.urls.published))).status).toBe(200);
    expect((await visitor.get(`${path(site.urls.published)}/~share/wrongkey`)).status).toBe(404);
    await server.request('PATCH', `${sitesPath(server)}/${site.id}/share-links/${link.body.id}`, { body: { active: false } });
    expect((await visitor.get(path(link.body.urls.published))).status).toBe(404);
  });

  it('serves a visitor-auth site to a visitor with a signed token, kept in a cookie, and 404 otherwise', async () => {
    const site = await makeSite(server, { title: 'Members only', spaces: [docs], visibility: 'visitor-auth' });
    await publish(site);
    const visitor = new WebClient(server.url);
    expect((await visitor.get(path(site.urls.published))).status).toBe(404);
    expect((await visitor.get(`${path(site.urls.published)}?jwt_token=not.a.jwt`)).status).toBe(404);
    const ping = await server.request('POST', `/v1/orgs/${server.orgId}/ping`);
    const token = ping.body.serviceVisitorClaims as string;
    const entered = await visitor.get(`${path(site.urls.published)}?jwt_token=${encodeURIComponent(token)}`);
    expect(entered.status).toBe(303);
    expect(entered.location).not.toContain('jwt_token');
    const page = await visitor.get(entered.location!);
    expect(page.status).toBe(200);
    expect((await visitor.get(href(page.text, 'Welcome'))).text).toContain('Public docs.');
  });
});
