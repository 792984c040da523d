import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { expectSchema } from '../helpers/expect-schema.js';
import { FORGER, IDP, authnRequestOf, samlResponse, type ResponseOptions } from '../helpers/saml-idp.js';
import { SAMLProvider } from '../../src/model/index.js';

const PROVIDER = '/orgs/{organizationId}/saml/{samlProviderId}';

describe.each(testDialects())('SAML single sign-on (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function setup(overrides: Record<string, unknown> = {}) {
    const org = await s.organization('SSO org');
    const team = await s.request('PUT', `/v1/orgs/${org.id}/teams`, { token: org.adminToken, body: { title: 'Everyone' } });
    const made = await s.request('POST', `/v1/orgs/${org.id}/saml`, {
      token: org.adminToken,
      body: {
        label: 'Test IdP',
        entityID: IDP.entityID,
        certificate: IDP.cert,
        ssoURL: IDP.ssoURL,
        defaultRole: 'edit',
        defaultTeam: team.body.id,
        ...overrides,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const service = made.body.service as { acsURL: string; startURL: string; entityID: string };
    return { org, team: team.body, provider: made.body, service };
  }

  /** What a browser does with the identity provider's answer: POST the form to the ACS. */
  const postResponse = (acsURL: string, response: string, relayState?: string) =>
    fetch(acsURL, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ SAMLResponse: response, ...(relayState !== undefined ? { RelayState: relayState } : {}) }).toString(),
    });
  const respond = (service: { acsURL: string; entityID: string }, o: Partial<ResponseOptions> & { email: string }) =>
    samlResponse({ audience: service.entityID, acsURL: service.acsURL, ...o });

  it('provider CRUD: create (201), list, get, patch, delete (204), and the sign-in listing', async () => {
    const { org, team, provider, service } = await setup();
    expectSpec({ status: 201, headers: new Headers(), body: provider }, 'POST', '/orgs/{organizationId}/saml', 201);
    expect(provider).toMatchObject({
      object: 'saml-provider',
      label: 'Test IdP',
      entityID: IDP.entityID,
      ssoURL: IDP.ssoURL,
      certificate: IDP.cert.trim(),
      defaultRole: 'edit',
      defaultTeam: { object: 'team', id: team.id },
      status: 'active',
    });
    const root = `${s.url}/v1/sso/saml/${provider.id}`;
    expect(service).toEqual({ acsURL: `${root}/acs`, startURL: `${root}/start`, entityID: `${root}/metadata` });
    expect(provider.urls.location).toBe(`${s.url}/v1/orgs/${org.id}/saml/${provider.id}`);

    const pending = await s.request('POST', `/v1/orgs/${org.id}/saml`, { token: org.adminToken, body: { label: 'Later' } });
    expectSchema(pending, 201, SAMLProvider);
    expect(pending.body).toMatchObject({ status: 'pending', entityID: '', certificate: '', defaultRole: 'read' });
    expect(pending.body.ssoURL).toBeUndefined();

    const list = await s.request('GET', `/v1/orgs/${org.id}/saml?limit=1`, { token: org.adminToken });
    expectSpec(list, 'GET', '/orgs/{organizationId}/saml', 200);
    expect(list.body.items.map((p: { id: string }) => p.id)).toEqual([provider.id]);
    const rest = await s.request('GET', `/v1/orgs/${org.id}/saml?limit=1&page=${list.body.next.page}`, { token: org.adminToken });
    expect(rest.body.items.map((p: { id: string }) => p.id)).toEqual([pending.body.id]);
    expectSpec(await s.request('GET', `/v1/orgs/${org.id}/saml/${provider.id}`, { token: org.adminToken }), 'GET', PROVIDER, 200);

    const member = await s.user({ org: org.id, role: 'read' });
    const logins = await s.request('GET', `/v1/orgs/${org.id}/sso`, { token: member.token });
    expectSpec(logins, 'GET', '/orgs/{organizationId}/sso', 200);
    expect(logins.body).toEqual({ items: [{ id: provider.id, label: 'Test IdP', startURL: service.startURL }] });

    const patched = await s.request('PATCH', `/v1/orgs/${org.id}/saml/${pending.body.id}`, {
      token: org.adminToken,
      body: { label: 'Now', ssoURL: 'https://other.example.test/sso', certificate: IDP.cert, defaultRole: null },
    });
    expectSpec(patched, 'PATCH', PROVIDER, 200);
    expect(patched.body).toMatchObject({ label: 'Now', status: 'active', defaultRole: null });
    expect((await s.request('GET', `/v1/orgs/${org.id}/sso`, { token: member.token })).body.items).toHaveLength(2);
    expect((await s.request('PATCH', `/v1/orgs/${org.id}/saml/${pending.body.id}`, { token: org.adminToken })).status).toBe(200);

    const del = await s.request('DELETE', `/v1/orgs/${org.id}/saml/${pending.body.id}`, { token: org.adminToken });
    expect(del.status).toBe(204);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/saml/${pending.body.id}`, { token: org.adminToken }), 404);
    expectError(await s.request('DELETE', `/v1/orgs/${org.id}/saml/${pending.body.id}`, { token: org.adminToken }), 404);
  });

  it('refuses bad provider input naming the field, and non-admins', async () => {
    const { org, provider } = await setup();
    const post = (body: unknown, token = org.adminToken) => s.request('POST', `/v1/orgs/${org.id}/saml`, { token, body });
    expectError(await post({}), 400, /label/);
    expectError(await post({ label: '' }), 400, /body\.label/);
    expectError(await post({ label: 'x'.repeat(31) }), 400, /body\.label/);
    expect((await post({ label: 'x'.repeat(30) })).status).toBe(201);
    expectError(await post({ label: 'x', certificate: 'not a certificate' }), 400, /body\.certificate must be one X\.509 certificate/);
    expectError(
      await post({
        label: 'x',
        certificate: IDP.cert
          .split('\n')
          .filter((_, i) => i !== 3)
          .join('\n'),
      }),
      400,
      /body\.certificate/,
    );
    expectError(await post({ label: 'x', certificate: 'c'.repeat(10001) }), 400, /body\.certificate/);
    expectError(await post({ label: 'x', ssoURL: 'not a url' }), 400, /body\.ssoURL/);
    expectError(await post({ label: 'x', ssoURL: 'javascript:alert(1)' }), 400, /body\.ssoURL/);
    expectError(await post({ label: 'x', entityID: 'e'.repeat(1025) }), 400, /body\.entityID/);
    expectError(await post({ label: 'x', defaultTeam: 'nope' }), 400, /body\.defaultTeam/);
    expectError(await post({ label: 'x', defaultRole: 'owner' }), 400, /body\.defaultRole/);
    const other = await s.organization();
    const foreignTeam = await s.request('PUT', `/v1/orgs/${other.id}/teams`, { token: other.adminToken, body: { title: 'Theirs' } });
    expectError(await post({ label: 'x', defaultTeam: foreignTeam.body.id }), 400, /body\.defaultTeam/);
    expectError(
      await s.request('PATCH', `/v1/orgs/${org.id}/saml/${provider.id}`, { token: org.adminToken, body: { label: '' } }),
      400,
      /body\.label/,
    );

    const editor = await s.user({ org: org.id, role: 'create' });
    expectError(await post({ label: 'x' }, editor.token), 403);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/saml`, { token: editor.token }), 403);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/saml/${provider.id}`, { token: other.adminToken }), 404);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/sso`, { token: other.adminToken }), 404);
  });

  it('signs a new person in: start redirects with an AuthnRequest, the ACS accepts the signed answer, member with the defaults', async () => {
    const { org, team, service } = await setup();
    const start = await fetch(`${service.startURL}?redirect=/app/home`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const location = start.headers.get('location')!;
    expect(location.startsWith(`${IDP.ssoURL}?`)).toBe(true);
    const request = authnRequestOf(location);
    expect(request.relayState).toBe('/app/home');
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${service.acsURL}"`);
    expect(request.xml).toContain(`>${service.entityID}</saml:Issuer>`);

    const metadata = await fetch(service.entityID);
    expect(metadata.status).toBe(200);
    const xml = await metadata.text();
    expect(xml).toContain(`entityID="${service.entityID}"`);
    expect(xml).toContain(`Location="${service.acsURL}"`);

    const email = `new-${Date.now()}@corp.example.test`;
    const answer = await postResponse(service.acsURL, respond(service, { email, name: 'New Person', inResponseTo: request.id }));
    const body = (await answer.json()) as { user: { id: string; email: string }; token: string; organization: string };
    expect(answer.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ user: { email }, organization: org.id });
    // The browser's session is the web pages' own: a secret of its own in an HttpOnly cookie, not the token.
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^docsync_web=[A-Za-z0-9_-]{20,}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax/);
    expect(cookie).not.toContain(body.token);
    const home = await fetch(`${s.url}/app`, { headers: { cookie: cookie.split(';')[0]! }, redirect: 'manual' });
    expect(home.status).toBe(200);
    const homeHtml = await home.text();
    expect(homeHtml).toContain('New Person');
    expect(homeHtml).toContain('Sign out');

    // The token works on the API: it is the new member's.
    const me = await s.request('GET', '/v1/user', { token: body.token });
    expect(me.body).toMatchObject({ id: body.user.id, email, displayName: 'New Person' });
    const member = await s.request('GET', `/v1/orgs/${org.id}/members/${body.user.id}`, { token: org.adminToken });
    expectSpec(member, 'GET', '/orgs/{organizationId}/members/{userId}', 200);
    expect(member.body).toMatchObject({ role: 'edit', sso: true, teams: 1 });
    const teamMembers = await s.request('GET', `/v1/orgs/${org.id}/teams/${team.id}/members`, { token: org.adminToken });
    expect(teamMembers.body.items.map((m: { organization: { id: string } }) => m.organization.id)).toEqual([body.user.id]);

    // The same InResponseTo cannot be answered twice.
    const again = await postResponse(service.acsURL, respond(service, { email, inResponseTo: request.id }));
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/SAML response refused: .*InResponseTo/);
  });

  it('signs in an existing user and member without changing their role; RelayState redirects to a path of this server', async () => {
    const { org, service } = await setup();
    const known = await s.user({ org: org.id, role: 'review' });
    const answer = await postResponse(service.acsURL, respond(service, { email: known.email.toUpperCase() }), '/app/spaces');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/app/spaces');
    const member = await s.request('GET', `/v1/orgs/${org.id}/members/${known.id}`, { token: org.adminToken });
    expect(member.body).toMatchObject({ role: 'review', sso: true, teams: 0 });
    const page = await fetch(service.acsURL, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ SAMLResponse: respond(service, { email: known.email }), RelayState: 'https://evil.example/' }).toString(),
    });
    // A browser is sent to the app, signed in; no token is shown on a page (an unsafe RelayState is ignored).
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/app');
    expect(page.headers.get('set-cookie')).toMatch(/^docsync_web=/);
    expect(await page.text()).not.toMatch(/sso_/);
  });

  it('refuses forged, tampered, unsigned, expired, not-yet-valid, wrong-audience, wrong-issuer and replayed responses', async () => {
    const { org, service } = await setup();
    const email = `victim-${Date.now()}@corp.example.test`;
    const refused = async (response: string, reason: RegExp) => {
      const res = await postResponse(service.acsURL, response);
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect(res.status, `${String(reason)}: ${JSON.stringify(body)}`).toBe(401);
      expect(body.error.message).toMatch(/^SAML response refused: /);
      expect(body.error.message).toMatch(reason);
      expect(res.headers.get('set-cookie')).toBeNull();
    };
    await refused(respond(service, { email, signer: FORGER }), /signature/i);
    await refused(
      respond(service, { email: 'someone@corp.example.test', tamper: (x) => x.replaceAll('someone@', 'admin@') }),
      /signature/i,
    );
    await refused(respond(service, { email, signer: null }), /signature/i);
    const past = Date.now() - 60 * 60_000;
    await refused(respond(service, { email, notBefore: new Date(past - 60_000), notOnOrAfter: new Date(past) }), /expired/i);
    await refused(
      respond(service, { email, notBefore: new Date(Date.now() + 30 * 60_000), notOnOrAfter: new Date(Date.now() + 60 * 60_000) }),
      /not yet valid/i,
    );
    await refused(respond(service, { email, audience: 'https://another-sp.example.test/metadata' }), /audience/i);
    await refused(respond(service, { email, issuer: 'https://impostor.example.test/metadata' }), /issuer/i);
    await refused(respond(service, { email, inResponseTo: '_never-sent' }), /InResponseTo/);
    expect((await s.request('GET', `/v1/orgs/${org.id}/members?search=victim`, { token: org.adminToken })).body.items).toEqual([]);

    // An identity-provider-initiated answer works once; the same assertion again is a replay.
    const once = respond(service, { email });
    expect((await postResponse(service.acsURL, once)).status).toBe(200);
    await refused(once, /replay/);

    expectError(await s.request('GET', `/v1/sso/saml/unknown/start`, { token: null }), 404);
    const pending = await s.request('POST', `/v1/orgs/${org.id}/saml`, { token: org.adminToken, body: { label: 'Pending' } });
    expectError(await s.request('GET', `/v1/sso/saml/${pending.body.id}/start`, { token: null }), 400, /pending/);
    expectError(await s.request('GET', `/v1/sso/saml/${pending.body.id}/start?redirect=//evil.example`, { token: null }), 400);
    const missing = await fetch(service.acsURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'RelayState=x',
    });
    expect(missing.status).toBe(400);
  });
});
