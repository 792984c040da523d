import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError, expectSpec } from '../helpers/expect-spec.js';
import { makeSite, makeSpaceId } from '../helpers/sites.js';

const INSTALLATION = '/integrations/{integrationName}/installations/{installationId}';

describe.each(testDialects())('integration installations on spaces and sites (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });
  const publish = async (name: string, body: Record<string, unknown> = {}) => {
    const res = await s.request('POST', `/v1/integrations/${name}`, {
      body: {
        title: 'An app',
        description: 'Does things',
        script: 'export default {}',
        organization: s.orgId,
        visibility: 'public',
        ...body,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** Publishes `name` from the bootstrap organization and installs it in a new one. */
  const installed = async (name: string, body: Record<string, unknown> = {}) => {
    await publish(name, body);
    const org = await s.organization();
    const made = await s.request('POST', `/v1/integrations/${name}/installations`, {
      token: org.adminToken,
      body: { organization: org.id },
    });
    expect(made.status).toBe(201);
    return { org, id: made.body.id as string, path: `/v1/integrations/${name}/installations/${made.body.id}` };
  };

  it('installs on spaces (201), lists, reads extended, updates, uninstalls (205), with the organization admin only', async () => {
    const { org, id, path } = await installed('space-app');
    const spaceA = await makeSpaceId(s, 'Alpha', { org: org.id, token: org.adminToken });
    const spaceB = await makeSpaceId(s, 'Beta', { org: org.id, token: org.adminToken });
    const elsewhere = await makeSpaceId(s, 'Elsewhere');

    const made = await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: { space: spaceA } });
    expectSpec(made, 'POST', `${INSTALLATION}/spaces`, 201);
    expect(made.body).toMatchObject({ integration: 'space-app', installation: id, status: 'active', space: spaceA, externalIds: [] });
    expect(made.headers.get('location')).toBe(made.body.urls.location);
    expectError(await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: { space: spaceA } }), 409);
    expectError(await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: { space: elsewhere } }), 400, /body\.space/);
    expectError(await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: {} }), 400, /space/);
    // The publisher's admin reads the installation but does not choose its spaces; strangers see nothing.
    expectError(await s.request('POST', `${path}/spaces`, { body: { space: spaceB } }), 403);
    const stranger = await s.user();
    expectError(await s.request('GET', `${path}/spaces`, { token: stranger.token }), 404);
    const member = await s.user({ org: org.id, role: 'create' });
    expectError(await s.request('GET', `${path}/spaces`, { token: member.token }), 404);

    expect((await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: { space: spaceB } })).status).toBe(201);
    const list = await s.request('GET', `${path}/spaces?limit=1`);
    expectSpec(list, 'GET', `${INSTALLATION}/spaces`, 200);
    expect(list.body.items.map((i: { space: string }) => i.space)).toEqual([spaceA]);
    const rest = await s.request('GET', `${path}/spaces?page=${list.body.next.page}`);
    expect(rest.body.items.map((i: { space: string }) => i.space)).toEqual([spaceB]);

    const one = await s.request('GET', `${path}/spaces/${spaceA}?extended=true`, { token: org.adminToken });
    expectSpec(one, 'GET', `${INSTALLATION}/spaces/{spaceId}`, 200);
    expect(one.body.space).toMatchObject({ object: 'space', id: spaceA, title: 'Alpha' });

    const patched = await s.request('PATCH', `${path}/spaces/${spaceA}`, {
      token: org.adminToken,
      body: { externalIds: ['repo-1'], configuration: { branch: 'main' } },
    });
    expectSpec(patched, 'PATCH', `${INSTALLATION}/spaces/{spaceId}`, 200);
    expect(patched.body).toMatchObject({ externalIds: ['repo-1'], configuration: { branch: 'main' } });
    expectError(
      await s.request('PATCH', `${path}/spaces/${spaceA}`, {
        token: org.adminToken,
        body: { externalIds: ['1', '2', '3', '4', '5', '6'] },
      }),
      400,
      /body\.externalIds/,
    );
    expectError(await s.request('PATCH', `${path}/spaces/${spaceA}`, { token: org.adminToken, body: { other: 1 } }), 400);

    // The publisher's view across installations, by external id.
    const all = await s.request('GET', '/v1/integrations/space-app/spaces?externalId=repo-1');
    expectSpec(all, 'GET', '/integrations/{integrationName}/spaces', 200);
    expect(all.body.items.map((i: { space: string }) => i.space)).toEqual([spaceA]);
    expectError(await s.request('GET', '/v1/integrations/space-app/spaces', { token: org.adminToken }), 404);

    const installation = await s.request('GET', path, { token: org.adminToken });
    expectSpec(installation, 'GET', INSTALLATION, 200);
    expect(installation.body).toMatchObject({ spaces: 2, sites: 0, space_selection: 'selected' });

    expect((await s.request('DELETE', `${path}/spaces/${spaceB}`, { token: org.adminToken })).status).toBe(205);
    expectError(await s.request('GET', `${path}/spaces/${spaceB}`, { token: org.adminToken }), 404);
    expectError(await s.request('DELETE', `${path}/spaces/${spaceA}`), 403);
  });

  it('installs on sites (201), lists, updates and uninstalls (205); integrations for spaces only refuse sites', async () => {
    const { org, path } = await installed('site-app', { target: 'site' });
    const site = await makeSite(s, { title: 'Docs' }, { org: org.id, token: org.adminToken });
    const other = await makeSite(s, { title: 'Not theirs' });
    const made = await s.request('POST', `${path}/sites`, { token: org.adminToken, body: { siteId: site.id } });
    expectSpec(made, 'POST', `${INSTALLATION}/sites`, 201);
    expect(made.body.site).toBe(site.id);
    expectError(await s.request('POST', `${path}/sites`, { token: org.adminToken, body: { siteId: other.id } }), 400, /body\.siteId/);
    const spaceId = await makeSpaceId(s, 'Space', { org: org.id, token: org.adminToken });
    expectError(await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: { space: spaceId } }), 400, /targets site/);

    const list = await s.request('GET', `${path}/sites?extended=true`, { token: org.adminToken });
    expectSpec(list, 'GET', `${INSTALLATION}/sites`, 200);
    expect(list.body.items[0].site).toMatchObject({ object: 'site', id: site.id });
    const patched = await s.request('PATCH', `${path}/sites/${site.id}`, { token: org.adminToken, body: { configuration: { id: 'G-1' } } });
    expectSpec(patched, 'PATCH', `${INSTALLATION}/sites/{siteId}`, 200);
    expectSpec(await s.request('GET', `${path}/sites/${site.id}`), 'GET', `${INSTALLATION}/sites/{siteId}`, 200);
    const across = await s.request('GET', '/v1/integrations/site-app/sites');
    expectSpec(across, 'GET', '/integrations/{integrationName}/sites', 200);
    expect(across.body.items).toHaveLength(1);

    // The site's and the organization's side.
    const onSite = await s.request('GET', `/v1/orgs/${org.id}/sites/${site.id}/integrations`, { token: org.adminToken });
    expectSpec(onSite, 'GET', '/orgs/{organizationId}/sites/{siteId}/integrations', 200);
    expect(onSite.body.items.map((i: { name: string }) => i.name)).toEqual(['site-app']);
    const statuses = await s.request('GET', `/v1/orgs/${org.id}/integrations/installations-status?target=site&site=${site.id}`, {
      token: org.adminToken,
    });
    expectSpec(statuses, 'GET', '/orgs/{organizationId}/integrations/installations-status', 200);
    expect(statuses.body.items.map((i: { target: unknown }) => i.target)).toEqual([{ type: 'site', siteId: site.id }]);

    expect((await s.request('DELETE', `${path}/sites/${site.id}`, { token: org.adminToken })).status).toBe(205);
    const after = await s.request('GET', `/v1/orgs/${org.id}/sites/${site.id}/integrations`, { token: org.adminToken });
    expect(after.body.items).toEqual([]);
  });

  it("lists what is installed on a space and in an organization, and an installation's status", async () => {
    const { org, id, path } = await installed('listed-app', { title: 'Listed' });
    const spaceA = await makeSpaceId(s, 'Alpha', { org: org.id, token: org.adminToken });
    const spaceB = await makeSpaceId(s, 'Beta', { org: org.id, token: org.adminToken });
    await s.request('POST', `${path}/spaces`, { token: org.adminToken, body: { space: spaceA } });
    const reader = await s.user({ org: org.id, role: 'read' });

    const onSpace = await s.request('GET', `/v1/spaces/${spaceA}/integrations`, { token: reader.token });
    expectSpec(onSpace, 'GET', '/spaces/{spaceId}/integrations', 200);
    expect(onSpace.body.items.map((i: { name: string }) => i.name)).toEqual(['listed-app']);
    expect((await s.request('GET', `/v1/spaces/${spaceA}/integrations?search=nothing`, { token: reader.token })).body.items).toEqual([]);
    expect((await s.request('GET', `/v1/spaces/${spaceB}/integrations`, { token: reader.token })).body.items).toEqual([]);
    expectError(await s.request('GET', `/v1/spaces/${spaceA}/integrations`), 404);

    // space_selection `all` reaches every space of the organization.
    const patched = await s.request('PATCH', path, { token: org.adminToken, body: { space_selection: 'all', externalIds: ['acct'] } });
    expectSpec(patched, 'PATCH', INSTALLATION, 200);
    expect(patched.body).toMatchObject({ space_selection: 'all', spaces: 2, externalIds: ['acct'] });
    expect((await s.request('GET', `/v1/spaces/${spaceB}/integrations`, { token: reader.token })).body.items).toHaveLength(1);
    expectError(await s.request('PATCH', path, { body: { space_selection: 'all' } }), 403);
    expectError(await s.request('PATCH', path, { token: org.adminToken, body: { space_selection: 'some' } }), 400, /space_selection/);

    const installations = await s.request('GET', `/v1/orgs/${org.id}/installations?search=LISTED`, { token: org.adminToken });
    expectSpec(installations, 'GET', '/orgs/{organizationId}/installations', 200);
    expect(installations.body.items.map((i: { installation: { id: string } }) => i.installation.id)).toEqual([id]);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/installations`, { token: reader.token }), 403);

    const status = await s.request('GET', `/v1/orgs/${org.id}/integrations/listed-app/installation_status`, { token: reader.token });
    expectSpec(status, 'GET', '/orgs/{organizationId}/integrations/{integrationName}/installation_status', 200);
    expect(status.body).toEqual({ status: 'active' });
    expectError(await s.request('GET', `/v1/orgs/${org.id}/integrations/space-app/installation_status`, { token: reader.token }), 404);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/integrations/listed-app/installation_status`), 404);

    const statuses = await s.request('GET', `/v1/orgs/${org.id}/integrations/installations-status`, { token: reader.token });
    expectSpec(statuses, 'GET', '/orgs/{organizationId}/integrations/installations-status', 200);
    expect(statuses.body.items.map((i: { target: unknown }) => i.target)).toEqual([{ type: 'organization', organizationId: org.id }]);
    const onSpaces = await s.request('GET', `/v1/orgs/${org.id}/integrations/installations-status?target=space`, { token: reader.token });
    expect(onSpaces.body.items.map((i: { target: unknown }) => i.target)).toEqual([{ type: 'space', spaceId: spaceA }]);
    expectError(await s.request('GET', `/v1/orgs/${org.id}/integrations/installations-status?target=page`, { token: reader.token }), 400);
  });
});
