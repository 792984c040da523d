import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { WebClient } from '../../helpers/web.js';
import { createSpace } from '../../helpers/spaces.js';
import { expectSpec } from '../../helpers/expect-spec.js';
import { makeSite, sitesPath } from '../../helpers/sites.js';

const path = (url: string) => new URL(url).pathname;

/** A GET with its own `Host` header (fetch does not let one set it). */
function getWithHost(url: string, host: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = httpRequest(url, { headers: { host, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A space written through the API with pages carrying metadata (noIndex, hidden, conditions). */
async function spaceOf(server: TestServer, title: string, pages: Record<string, unknown>[]) {
  const space = await createSpace(server, { title });
  const cr = await server.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'pages' } });
  const changes = pages.map(({ markdown, ...rest }) => ({ operation: 'insert_page', ...rest, document: { markdown } }));
  const write = await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, { body: { changes } });
  expect(write.status, JSON.stringify(write.body)).toBe(200);
  expect((await server.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
  return space.id as string;
}

describe.each(testDialects())('published sites for agents and robots (%s)', (dialect) => {
  let server: TestServer;
  let docs: string;
  beforeAll(async () => {
    server = await startServer(dialect);
    docs = await spaceOf(server, 'Docs', [
      {
        title: 'Welcome',
        description: 'Start here',
        markdown:
          '# Welcome\n\nPublic docs about zebras.\n\n{% if visitor.claims.unsigned.plan == "pro" %}\nPro only walrus text.\n{% endif %}\n',
      },
      { title: 'Guide', markdown: '# Guide\n\nThe guide about zebras, see [Welcome](welcome.md).\n\n## Setup\n\nRun it.\n' },
      { title: 'Internal', noIndex: true, markdown: '# Internal\n\nInternal zebras notes.\n' },
      { title: 'Robots', noRobotsIndex: true, markdown: '# Robots\n\nNot for robots.\n' },
      { title: 'Secret', hidden: true, markdown: '# Secret\n\nHidden zebras page.\n' },
    ]);
  });
  afterAll(async () => server?.close());

  const publish = async (site: { id: string }) => {
    const res = await server.request('POST', `${sitesPath(server)}/${site.id}/publish`);
    expectSpec(res, 'POST', '/orgs/{organizationId}/sites/{siteId}/publish', 200);
  };
  const patchSite = async (site: { id: string }, body: Record<string, unknown>) => {
    const res = await server.request('PATCH', `${sitesPath(server)}/${site.id}`, { body });
    expectSpec(res, 'PATCH', '/orgs/{organizationId}/sites/{siteId}', 200);
    return res.body;
  };

  it('serves each page as markdown, llms.txt, sitemap.xml and robots.txt for a public site; nothing while unpublished', async () => {
    const site = await makeSite(server, { title: 'Zoo docs', spaces: [docs] });
    const root = path(site.urls.published);
    const visitor = new WebClient(server.url);
    for (const extra of ['llms.txt', 'sitemap.xml', 'robots.txt', 'guide.md', 'guide', '~search?q=zebras'])
      expect((await visitor.get(`${root}/${extra}`)).status, extra).toBe(404);
    await publish(site);

    const md = await visitor.get(`${root}/guide.md`);
    expect(md.status).toBe(200);
    expect(md.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(md.headers.get('x-robots-tag')).toBeNull();
    expect(md.text).toMatch(/^# Guide\n/);
    expect(md.text).toContain('The guide about zebras');
    expect(md.text).toContain('## Setup');
    // Links are the site's URLs, as on the HTML page.
    expect(md.text).toContain(`(${root}/welcome)`);
    const welcome = await visitor.get(`${root}/welcome.md`);
    expect(welcome.text).toMatch(/^# Welcome\n\n> Start here\n/);
    expect(welcome.text).toContain('Public docs about zebras.');
    expect(welcome.text).not.toContain('walrus');
    expect((await visitor.get(`${root}/no-such-page.md`)).status).toBe(404);
    expect((await visitor.get(`${root}/internal.md`)).headers.get('x-robots-tag')).toBe('noindex');

    const llms = await visitor.get(`${root}/llms.txt`);
    expect(llms.status).toBe(200);
    expect(llms.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(llms.text).toMatch(/^# Zoo docs\n/);
    expect(llms.text).toContain(`- [Welcome](${server.url}${root}/welcome.md): Start here`);
    expect(llms.text).toContain(`- [Guide](${server.url}${root}/guide.md)`);
    expect(llms.text).not.toContain('Internal');
    expect(llms.text).not.toContain('Secret');
    for (const [, url] of llms.text.matchAll(/\]\(([^)]+)\)/g)) expect((await visitor.get(url!)).status, url).toBe(200);

    const sitemap = await visitor.get(`${root}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`${server.url}${root}/introduction`, `${server.url}${root}/welcome`, `${server.url}${root}/guide`]);
    for (const loc of locs) expect((await visitor.get(loc!)).status).toBe(200);

    const robots = await visitor.get(`${root}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.text).toContain(`Allow: ${root}/\n`);
    expect(robots.text).toContain(`Disallow: ${root}/internal$\n`);
    expect(robots.text).toContain(`Disallow: ${root}/robots$\n`);
    expect(robots.text).toContain(`Sitemap: ${server.url}${root}/sitemap.xml\n`);
    expect(robots.text).not.toContain(`Disallow: ${root}/\n`);
  });

  it('keeps an unlisted site out of indexes: robots.txt disallows it, the sitemap is empty, every answer says noindex', async () => {
    const site = await makeSite(server, { title: 'Unlisted docs', spaces: [docs], visibility: 'unlisted' });
    await publish(site);
    const root = path(site.urls.published);
    const visitor = new WebClient(server.url);
    const robots = await visitor.get(`${root}/robots.txt`);
    expect(robots.text).toBe(`User-agent: *\nDisallow: ${root}/\n`);
    const sitemap = await visitor.get(`${root}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.text).not.toContain('<url>');
    for (const extra of ['llms.txt', 'guide.md', 'guide', 'robots.txt', 'sitemap.xml'])
      expect((await visitor.get(`${root}/${extra}`)).headers.get('x-robots-tag'), extra).toBe('noindex');
    expect((await visitor.get(`${root}/llms.txt`)).text).toContain('/guide.md');
  });

  it('answers the extras of a share-link site only under an active key, and of a visitor-auth site only with a visitor token', async () => {
    const shared = await makeSite(server, { title: 'Shared docs', spaces: [docs], visibility: 'share-link' });
    await publish(shared);
    const link = await server.request('POST', `${sitesPath(server)}/${shared.id}/share-links`, { body: { name: 'partners' } });
    expectSpec(link, 'POST', '/orgs/{organizationId}/sites/{siteId}/share-links', 201);
    const visitor = new WebClient(server.url);
    const extras = ['llms.txt', 'sitemap.xml', 'robots.txt', 'guide.md', '~search?q=zebras'];
    const keyed = path(link.body.urls.published);
    for (const extra of extras) {
      expect((await visitor.get(`${path(shared.urls.published)}/${extra}`)).status, extra).toBe(404);
      expect((await visitor.get(`${path(shared.urls.published)}/~share/wrongkey/${extra}`)).status, extra).toBe(404);
      expect((await visitor.get(`${keyed}/${extra}`)).status, extra).toBe(200);
    }
    const llms = await visitor.get(`${keyed}/llms.txt`);
    expect(llms.text).toContain(`${keyed}/guide.md`);
    expect((await visitor.get(`${keyed}/robots.txt`)).text).toBe(`User-agent: *\nDisallow: ${keyed}/\n`);
    await server.request('PATCH', `${sitesPath(server)}/${shared.id}/share-links/${link.body.id}`, { body: { active: false } });
    for (const extra of extras) expect((await visitor.get(`${keyed}/${extra}`)).status, extra).toBe(404);

    const members = await makeSite(server, { title: 'Members docs', spaces: [docs], visibility: 'visitor-auth' });
    await publish(members);
    const root = path(members.urls.published);
    for (const extra of extras) expect((await visitor.get(`${root}/${extra}`)).status, extra).toBe(404);
    const ping = await server.request('POST', `/v1/orgs/${server.orgId}/ping`);
    const entered = await visitor.get(`${root}/llms.txt?jwt_token=${encodeURIComponent(ping.body.serviceVisitorClaims as string)}`);
    expect(entered.status).toBe(303);
    expect(entered.location).toBe(`${root}/llms.txt`);
    for (const extra of extras) {
      const res = await visitor.get(`${root}/${extra}`);
      expect(res.status, extra).toBe(200);
      expect(res.headers.get('cache-control'), extra).toBe('private, no-cache');
    }
  });

  it('shows a branch the visitor meets in the markdown and the search, and only then', async () => {
    const site = await makeSite(server, { title: 'Adaptive docs', spaces: [docs] });
    await patchSite(site, { adaptiveContent: { enabled: true } });
    await publish(site);
    const root = path(site.urls.published);
    const visitor = new WebClient(server.url);
    expect((await visitor.get(`${root}/welcome.md`)).text).not.toContain('walrus');
    expect((await visitor.get(`${root}/welcome.md?visitor.plan=pro`)).text).toContain('Pro only walrus text.');

    // The results list of a search page (the sidebar lists every page).
    const search = async (q: string, claims = '') => {
      const page = (await visitor.get(`${root}/~search?q=${encodeURIComponent(q)}${claims}`)).text;
      return /<ul class="app-list pub-results">.*?<\/ul>/s.exec(page)?.[0] ?? (page.includes('No page matches.') ? 'No page matches.' : '');
    };
    const zebras = await search('zebras');
    expect(zebras).toContain(`href="${root}/welcome"`);
    expect(zebras).toContain(`href="${root}/guide"`);
    expect(zebras).not.toContain('/internal'); // noIndex
    expect(zebras).not.toContain('/secret'); // hidden
    expect(await search('walrus')).toContain('No page matches.');
    const pro = await search('walrus', '&visitor.plan=pro');
    expect(pro).toContain(`href="${root}/welcome"`);
    expect(pro).toContain('Pro only walrus text.');
    // Every page carries the search form.
    expect((await visitor.get(`${root}/guide`)).text).toContain(`action="${root}/~search"`);
  });

  it('serves a site with a hostname on that host at /, leaving the API and other hosts as they were', async () => {
    const site = await makeSite(server, { title: 'Hosted docs', spaces: [docs] });
    const host = `docs-${dialect}.example.test`;
    expect((await patchSite(site, { hostname: host })).hostname).toBe(host);
    const port = new URL(server.url).port;
    // Not published yet: an unknown path is what it was (the API asks for a token).
    expect((await getWithHost(`${server.url}/guide`, host)).status).toBe(401);
    await publish(site);

    const home = await getWithHost(`${server.url}/`, `${host}:${port}`);
    expect(home.status).toBe(200);
    expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(home.text).toContain('href="/guide"');
    expect((await getWithHost(`${server.url}/welcome`, host)).text).toContain('Public docs about zebras.');
    const guide = await getWithHost(`${server.url}/guide`, host);
    expect(guide.status).toBe(200);
    expect(guide.text).toContain('The guide about zebras');
    expect((await getWithHost(`${server.url}/guide.md`, host)).text).toMatch(/^# Guide\n/);
    expect((await getWithHost(`${server.url}/llms.txt`, `${host}:${port}`)).text).toContain(`(http://${host}:${port}/guide.md)`);
    const robots = await getWithHost(`${server.url}/robots.txt`, `${host}:${port}`);
    expect(robots.text).toContain('Allow: /\n');
    expect(robots.text).toContain('Disallow: /internal$\n');
    expect(robots.text).toContain(`Sitemap: http://${host}:${port}/sitemap.xml\n`);
    expect((await getWithHost(`${server.url}/sitemap.xml`, host)).text).toContain(`<loc>http://${host}/welcome</loc>`);
    expect((await getWithHost(`${server.url}/~search?q=guide`, host)).text).toMatch(/pub-results"><li><a href="\/guide"/);
    const missing = await getWithHost(`${server.url}/no-such-page`, host);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');

    // The API and the site's /sites URL keep answering on that host; other hosts do not get the site.
    const user = await getWithHost(`${server.url}/v1/user`, host, { authorization: `Bearer ${server.token}` });
    expect(user.status).toBe(200);
    expect((await getWithHost(`${server.url}${path(site.urls.published)}/guide`, host)).status).toBe(200);
    expect((await getWithHost(`${server.url}/guide`, 'other.example.test')).status).toBe(401);
    expect((await getWithHost(`${server.url}/guide`, 'other.example.test', { authorization: `Bearer ${server.token}` })).status).toBe(404);

    // A share-link site on its host: only under its key.
    await patchSite(site, { visibility: 'share-link' });
    expect((await getWithHost(`${server.url}/guide`, host)).status).toBe(404);
    const link = await server.request('POST', `${sitesPath(server)}/${site.id}/share-links`, { body: { name: 'host' } });
    const key = link.body.key ?? path(link.body.urls.published).split('/').pop();
    expect((await getWithHost(`${server.url}/~share/${key}/guide`, host)).status).toBe(200);
    await server.request('POST', `${sitesPath(server)}/${site.id}/unpublish`);
    expect((await getWithHost(`${server.url}/~share/${key}/guide`, host)).status).toBe(401);
  });
});
