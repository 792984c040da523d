import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { makeSpaceId } from '../helpers/sites.js';
import { WebClient } from '../helpers/web.js';
import { hashToken } from '../../src/server/auth/tokens.js';
import { INSTALLATION_TOKEN_TTL_MS } from '../../src/server/auth/installation-scope.js';

const TOKENS = '/integrations/{integrationName}/installations/{installationId}/tokens';

describe.each(testDialects())('integration installation tokens (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });
  const publish = async (name: string, scopes: string[]) => {
    const res = await s.request('POST', `/v1/integrations/${name}`, {
      body: { title: 'Token app', description: 'd', script: 'x', organization: s.orgId, visibility: 'public', scopes },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** `name` published with `scopes`, installed in a new organization with two spaces, on the first. */
  const setup = async (name: string, scopes: string[]) => {
    await publish(name, scopes);
    const org = await s.organization();
    const installation = await s.request('POST', `/v1/integrations/${name}/installations`, {
      token: org.adminToken,
      body: { organization: org.id },
    });
    const path = `/v1/integrations/${name}/installations/${installation.body.id}`;
    const installedOn = await makeSpaceId(s, 'Installed', { org: org.id, token: org.adminToken });
    const notOn = await makeSpaceId(s, 'Not installed', { org: org.id, token: org.adminToken });
    expect((await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: { space: installedOn } })).status).toBe(201);
    const minted = await s.request('POST', `${path}/tokens`, { token: org.adminToken });
    expectSpec(minted, 'POST', TOKENS, 200);
    return { org, path, id: installation.body.id as string, installedOn, notOn, token: minted.body.token as string };
  };

  it('acts on the spaces the installation is on with the role its scopes give, nowhere else', async () => {
    const t = await setup('writer-app', ['space:content:write']);
    // Stored hashed, like API tokens.
    const stored = await s.server.db.kysely.selectFrom('tokens').select('hash').where('user_id', '=', t.id).execute();
    expect(stored.map((r) => r.hash)).toEqual([hashToken(t.token)]);

    expectSpec(await s.request('GET', `/v1/spaces/${t.installedOn}`, { token: t.token }), 'GET', '/spaces/{spaceId}', 200);
    expectError(await s.request('GET', `/v1/spaces/${t.notOn}`, { token: t.token }), 404);
    const listed = await s.request('GET', `/v1/orgs/${t.org.id}/spaces`, { token: t.token });
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([t.installedOn]);
    // space:content:write opens and merges change requests; organization-wide actions stay refused.
    const cr = await s.request('POST', `/v1/spaces/${t.installedOn}/change-requests`, {
      token: t.token,
      body: { subject: 'From the app' },
    });
    expectSpec(cr, 'POST', '/spaces/{spaceId}/change-requests', 201);
    expectError(await s.request('POST', `/v1/orgs/${t.org.id}/spaces`, { token: t.token, body: { title: 'New' } }), 403);
    expectError(await s.request('DELETE', `/v1/spaces/${t.installedOn}`, { token: t.token }), 403);
    // Another organization's content stays invisible.
    const foreign = await makeSpaceId(s, 'Foreign');
    expectError(await s.request('GET', `/v1/spaces/${foreign}`, { token: t.token }), 404);

    // The installation's own token reads its installation, but mints no tokens and changes nothing.
    expectSpec(
      await s.request('GET', t.path, { token: t.token }),
      'GET',
      '/integrations/{integrationName}/installations/{installationId}',
      200,
    );
    expectError(await s.request('POST', `${t.path}/tokens`, { token: t.token }), 403);
    expectError(await s.request('POST', `${t.path}/spaces`, { token: t.token, body: { space: t.notOn } }), 403);

    // space_selection `all` reaches the other space too.
    await s.request('PATCH', t.path, { token: t.org.adminToken, body: { space_selection: 'all' } });
    expect((await s.request('GET', `/v1/spaces/${t.notOn}`, { token: t.token })).status).toBe(200);
  });

  it('gives read-only scopes the read role, and none without a space scope', async () => {
    const reader = await setup('reader-app', ['space:content:read']);
    expect((await s.request('GET', `/v1/spaces/${reader.installedOn}`, { token: reader.token })).status).toBe(200);
    expectError(
      await s.request('POST', `/v1/spaces/${reader.installedOn}/change-requests`, { token: reader.token, body: { subject: 'x' } }),
      403,
    );
    const none = await setup('site-only-app', ['site:views:read']);
    expectError(await s.request('GET', `/v1/spaces/${none.installedOn}`, { token: none.token }), 404);
    // The scopes are read when the token is used: a republish that adds one gives it.
    await publish('site-only-app', ['site:views:read', 'space:metadata:read']);
    expect((await s.request('GET', `/v1/spaces/${none.installedOn}`, { token: none.token })).status).toBe(200);
  });

  it('expires after an hour, dies with the installation, is minted by admins only, and opens no web session', async () => {
    const t = await setup('expiring-app', ['space:content:read']);
    // The publisher's admin (the integration's backend) may mint one too; a member may not.
    expectSpec(await s.request('POST', `${t.path}/tokens`), 'POST', TOKENS, 200);
    const member = await s.user({ org: t.org.id, role: 'edit' });
    expectError(await s.request('POST', `${t.path}/tokens`, { token: member.token }), 404);

    s.clock.advance(INSTALLATION_TOKEN_TTL_MS + 1000);
    expectError(await s.request('GET', `/v1/spaces/${t.installedOn}`, { token: t.token }), 401);
    const fresh = (await s.request('POST', `${t.path}/tokens`, { token: t.org.adminToken })).body.token as string;
    expect(fresh).not.toBe(t.token);
    expect((await s.request('GET', `/v1/spaces/${t.installedOn}`, { token: fresh })).status).toBe(200);

    // API only: the sign-in form refuses it as it refuses an unknown token.
    const web = new WebClient(s.url);
    const form = await web.get('/app/sign-in');
    const signIn = await web.post('/app/sign-in', { token: fresh, csrf: WebClient.csrf(form.text), next: '/app' });
    expect(signIn.status).toBe(401);

    expect((await s.request('DELETE', t.path, { token: t.org.adminToken })).status).toBe(205);
    expectError(await s.request('GET', `/v1/spaces/${t.installedOn}`, { token: fresh }), 401);
  });
});
