import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../../helpers/server.js';
import { WebClient } from '../../helpers/web.js';

describe.each(testDialects())('web sessions (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(async () => server?.close());

  it('sends a signed-out visit of an app page to sign in, with the page to come back to', async () => {
    const web = new WebClient(server.url);
    const res = await web.get('/app/spaces/nope');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/app/sign-in?next=%2Fapp%2Fspaces%2Fnope');
  });

  it('signs in with a token (posted, HttpOnly SameSite=Lax cookie, not the token), and out', async () => {
    const web = new WebClient(server.url);
    const page = await web.get('/app/sign-in');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'sha256-");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const res = await web.post('/app/sign-in', { token: server.token, csrf: WebClient.csrf(page.text), next: '/app' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/app');
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('docsync_web='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(cookie).not.toContain(server.token);
    const rows = await server.server.db.kysely.selectFrom('web_sessions').selectAll().execute();
    expect(rows.some((r) => cookie.includes(r.id))).toBe(false);

    const home = await web.get('/app');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Sign out');
    const out = await web.post('/app/sign-out', { csrf: WebClient.csrf(home.text) });
    expect(out.status).toBe(303);
    expect((await web.get('/app')).status).toBe(303);
  });

  it('refuses a sign-in form without its CSRF token, a wrong token, and a sign-out from another site', async () => {
    const web = new WebClient(server.url);
    await web.get('/app/sign-in');
    expect((await web.post('/app/sign-in', { token: server.token, csrf: 'x'.repeat(32) })).status).toBe(403);
    const page = await web.get('/app/sign-in');
    const wrong = await web.post('/app/sign-in', { token: 'nope', csrf: WebClient.csrf(page.text) });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('unknown or revoked');
    expect(web.cookies.has('docsync_web')).toBe(false);

    await web.signIn(server.token);
    const home = await web.get('/app');
    expect((await web.post('/app/sign-out', { csrf: 'forged' })).status).toBe(403);
    expect((await web.post('/app/sign-out', { csrf: WebClient.csrf(home.text) }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await web.get('/app')).status).toBe(200);
  });

  it('never redirects off the server after sign-in', async () => {
    const web = new WebClient(server.url);
    const res = await web.signIn(server.token, '//evil.example/x');
    expect(res.location).toBe('/app');
  });

  it('ends the session when its token is revoked, and when it expires', async () => {
    const user = await server.user({ org: server.orgId, role: 'read' });
    const web = new WebClient(server.url);
    await web.signIn(user.token);
    expect((await web.get('/app')).status).toBe(200);
    await server.server.db.kysely
      .updateTable('tokens')
      .set({ revoked_at: new Date().toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    expect((await web.get('/app')).status).toBe(303);

    const other = await server.user({ org: server.orgId, role: 'read' });
    const later = new WebClient(server.url);
    await later.signIn(other.token);
    expect((await later.get('/app')).status).toBe(200);
    server.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    expect((await later.get('/app')).status).toBe(303);
  });

  it('answers an unknown app path with an HTML 404 page', async () => {
    const res = await new WebClient(server.url).get('/app/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toBeTruthy();
  });
});
