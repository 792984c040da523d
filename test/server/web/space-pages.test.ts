import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { WebClient } from '../../helpers/web.js';
import { spaceWithPages } from '../../helpers/web-content.js';

describe.each(testDialects())('app pages of a space (%s)', (dialect) => {
  let server: TestServer;
  let spaceId: string;
  let ids: Map<string, string>;
  let web: WebClient;
  beforeAll(async () => {
    server = await startServer(dialect);
    ({
      space: { id: spaceId },
      ids,
    } = await spaceWithPages(server, [
      {
        title: 'Welcome',
        markdown: '# Welcome\n\nStart with [the install guide](install.md).\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n',
      },
      {
        title: 'Install',
        markdown: '# Install\n\nRun the zebracorn installer.\n\n<script>window.pwned = 1</script><img src=x onerror="window.pwned=2">\n',
      },
    ]));
    web = new WebClient(server.url);
    await web.signIn(server.token);
  });
  afterAll(async () => server?.close());

  it('opens the space at the urls.app the API answers, rendered with its navigation', async () => {
    const api = await server.request('GET', `/v1/spaces/${spaceId}`);
    const res = await web.get(new URL(api.body.urls.app).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.text).toContain('class="ds-nav"');
    expect(res.text).toContain('gb-hint');
    expect(res.text).toContain(`href="/app/spaces/${spaceId}/pages/${ids.get('Install')}"`);
  });

  it('opens every page at its urls.app; a page with <script> keeps no script', async () => {
    const pages = await server.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    for (const page of pages.body.pages as { urls: { app: string }; title: string }[]) {
      const res = await web.get(new URL(page.urls.app).pathname);
      expect(res.status, page.title).toBe(200);
      expect(res.text).toContain(`<h1 class="ds-title">${page.title}</h1>`);
    }
    const install = await web.get(`/app/spaces/${spaceId}/pages/${ids.get('Install')}`);
    expect(install.text).toContain('zebracorn');
    expect(install.text).not.toContain('window.pwned');
    expect(install.text).not.toMatch(/onerror/i);
  });

  it('searches the space', async () => {
    const res = await web.get(`/app/spaces/${spaceId}/search?q=zebracorn`);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`/app/spaces/${spaceId}/pages/${ids.get('Install')}`);
  });

  it('is a 404 page for a member who cannot read the space, and for an unknown page', async () => {
    const other = await server.user({ org: server.orgId, role: null });
    const guest = new WebClient(server.url);
    await guest.signIn(other.token);
    const api = await server.request('GET', `/v1/spaces/${spaceId}`, { token: other.token });
    expect(api.status).toBe(404);
    const res = await guest.get(`/app/spaces/${spaceId}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect((await web.get(`/app/spaces/${spaceId}/pages/nope`)).status).toBe(404);
  });

  it('lists the organization with its spaces', async () => {
    const home = await web.get('/app');
    expect(home.text).toContain(`/app/orgs/${server.orgId}`);
    const org = await web.get(`/app/orgs/${server.orgId}`);
    expect(org.status).toBe(200);
    expect(org.text).toContain(`/app/spaces/${spaceId}`);
    const api = await server.request('GET', `/v1/orgs/${server.orgId}`);
    expect((await web.get(new URL(api.body.urls.app).pathname)).status).toBe(200);
  });
});
