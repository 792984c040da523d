import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { WebClient } from '../../helpers/web.js';
import { spaceWithPages } from '../../helpers/web-content.js';

describe.each(testDialects())('app pages of change requests (%s)', (dialect) => {
  let server: TestServer;
  let spaceId: string;
  let install: string;
  let admin: WebClient;
  let cr: { id: string; number: number; urls: { app: string } };
  beforeAll(async () => {
    server = await startServer(dialect);
    const made = await spaceWithPages(server, [{ title: 'Install', markdown: '# Install\n\nRun the old installer.\n\nThen rest.\n' }]);
    spaceId = made.space.id;
    install = made.ids.get('Install')!;
    const created = await server.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'New installer' } });
    cr = created.body;
    const write = await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
      body: {
        changes: [
          { operation: 'update_page', page: install, document: { markdown: '# Install\n\nRun the shiny installer.\n\nThen rest.\n' } },
          { operation: 'insert_page', title: 'Upgrade', document: { markdown: 'Upgrading.' } },
        ],
      },
    });
    expect(write.status, JSON.stringify(write.body)).toBe(200);
    await server.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/comments`, {
      body: { body: { markdown: 'Looks good to me' } },
    });
    admin = new WebClient(server.url);
    await admin.signIn(server.token);
  });
  afterAll(async () => server?.close());

  it('lists the open change requests, and opens one at its urls.app with its pages and a diff', async () => {
    const list = await admin.get(`/app/spaces/${spaceId}/change-requests`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('New installer');
    const res = await admin.get(new URL(cr.urls.app).pathname);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<span class="app-status" data-status="open">open</span>');
    expect(res.text).toMatch(/added<\/span> <a href="#diff-[^"]+">Upgrade/);
    expect(res.text).toMatch(/changed<\/span> <a href="#diff-[^"]+">Install/);
    expect(res.text).toContain('<div class="diff-del">- Run the old installer.</div>');
    expect(res.text).toContain('<div class="diff-add">+ Run the shiny installer.</div>');
    expect(res.text).toContain('Looks good to me');
    const preview = await admin.get(`/app/spaces/${spaceId}/change-requests/${cr.number}/pages/${install}`);
    expect(preview.text).toContain('shiny installer');
  });

  it("shows a reader no merge button, and refuses the reader's posted form with 403", async () => {
    const reader = await server.user({ org: server.orgId, role: 'read' });
    const web = new WebClient(server.url);
    await web.signIn(reader.token);
    const page = await web.get(`/app/spaces/${spaceId}/change-requests/${cr.number}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('>Merge</button>');
    const res = await web.post(`/app/spaces/${spaceId}/change-requests/${cr.number}/merge`, { csrf: WebClient.csrf(page.text) });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('text/html');
  });

  it("refuses a merge form without the session's CSRF token", async () => {
    const res = await admin.post(`/app/spaces/${spaceId}/change-requests/${cr.number}/merge`, { csrf: 'forged' });
    expect(res.status).toBe(403);
    expect((await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.status).toBe('open');
  });

  it('merges from the page, and the space shows the change', async () => {
    const page = await admin.get(`/app/spaces/${spaceId}/change-requests/${cr.number}`);
    expect(page.text).toContain('>Merge</button>');
    const res = await admin.post(`/app/spaces/${spaceId}/change-requests/${cr.number}/merge`, { csrf: WebClient.csrf(page.text) });
    expect(res.status).toBe(303);
    expect((await server.request('GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}`)).body.status).toBe('merged');
    const after = await admin.get(`/app/spaces/${spaceId}/pages/${install}`);
    expect(after.text).toContain('shiny installer');
    const merged = await admin.get(`/app/spaces/${spaceId}/change-requests?status=merged`);
    expect(merged.text).toContain('New installer');
  });
});
