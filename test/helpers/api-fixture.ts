import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { revokeToken } from '../../src/server/store/users.js';
import { upsertMember } from '../../src/server/store/organizations.js';
import type { Role } from '../../src/model/index.js';
import type { TestServer } from './server.js';
import { docPage, storeMarkdown, writeTree } from './content.js';
import { IDP } from './saml-idp.js';
import { putBlob } from '../../src/server/store/blobs.js';

/**
 * One organization ("A") holding one of every resource the API has, the callers of the
 * authorization tests (test/server/authorization-matrix.test.ts, test/server/isolation.test.ts,
 * test/server/route-fuzz.test.ts), and makers of fresh resources for writes that use them up.
 */

export const ORG_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type CallerName = (typeof ORG_ROLES)[number] | 'guest' | 'team' | 'outsider' | 'anonymous' | 'revoked';
export const CALLERS: CallerName[] = [...ORG_ROLES, 'guest', 'team', 'outsider', 'anonymous', 'revoked'];

/** The role the team caller's team is given on every space the fixture makes (its organization role is `read`). */
export const TEAM_ROLE: Role = 'review';

export interface Caller {
  name: CallerName;
  /** null: no Authorization header. */
  token: string | null;
  /** The user's id (anonymous: none). */
  id: string;
}

export interface Fixture {
  s: TestServer;
  org: string;
  /** The organization's owner (admin): makes every fixture resource. */
  adminToken: string;
  adminId: string;
  callers: Record<CallerName, Caller>;
  /** The team of the `team` caller, given TEAM_ROLE on the fixture's spaces. */
  team: string;
  other: { id: string; adminToken: string; adminId: string };
  /** A markdown document served on loopback, for imports (the server must allow private fetches). */
  markdownUrl: string;
  /** One of every resource of the organization, by the path parameter that names it. */
  ids: Record<string, string>;
  /** Every id of the organization's resources, for looking for leaks in other answers. */
  allIds(): string[];
  /** As the owner; throws on anything but a 2xx, returns the body. */
  call(method: string, path: string, body?: unknown, token?: string): Promise<any>;
  space(options?: { team?: boolean }): Promise<string>;
  collection(): Promise<string>;
  changeRequest(space: string, withChange?: boolean): Promise<string>;
  comment(base: string): Promise<string>;
  reply(base: string, comment: string): Promise<string>;
  member(role?: Role | null): Promise<string>;
  newTeam(members?: string[]): Promise<string>;
  site(): Promise<string>;
  section(site: string, space?: string): Promise<string>;
  organizationAdministeredBy(caller: Caller): Promise<string>;
  close(): Promise<void>;
}

let made = 0;
const unique = () => `${(made += 1)}${randomBytes(3).toString('hex')}`;

export async function buildFixture(s: TestServer): Promise<Fixture> {
  const owner = await s.organization('Org A');
  const org = owner.id;
  const adminToken = owner.adminToken;
  const created: string[] = [org, owner.adminId];
  const call: Fixture['call'] = async (method, path, body, token = adminToken) => {
    const res = await s.request(method, path, { token, ...(body !== undefined ? { body } : {}) });
    if (res.status < 200 || res.status > 299)
      throw new Error(`fixture: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
    const id = (res.body as { id?: unknown } | undefined)?.id;
    if (typeof id === 'string') created.push(id);
    return res.body;
  };
  await call('PATCH', `/v1/orgs/${org}`, { inviteLinks: true, emailDomains: ['org-a.example'] });

  const markdown = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/markdown' });
    res.end('# Imported\n\nSome text.\n');
  });
  await new Promise<void>((resolve) => markdown.listen(0, '127.0.0.1', resolve));
  const markdownUrl = `http://127.0.0.1:${(markdown.address() as AddressInfo).port}/imported.md`;

  const callers = {} as Record<CallerName, Caller>;
  callers.admin = { name: 'admin', token: adminToken, id: owner.adminId };
  for (const role of ORG_ROLES.slice(1)) {
    const u = await s.user({ org, role });
    callers[role] = { name: role, token: u.token, id: u.id };
    created.push(u.id);
  }
  const guest = await s.user({ org, role: null });
  callers.guest = { name: 'guest', token: guest.token, id: guest.id };
  const teamUser = await s.user({ org, role: 'read' });
  callers.team = { name: 'team', token: teamUser.token, id: teamUser.id };
  created.push(guest.id, teamUser.id);
  const team = (await call('PUT', `/v1/orgs/${org}/teams`, { title: 'Team of the team caller', members: [teamUser.id] })).id as string;
  const other = await s.organization('Org B');
  callers.outsider = { name: 'outsider', token: other.adminToken, id: other.adminId };
  callers.anonymous = { name: 'anonymous', token: null, id: '' };
  const revoked = await s.user({ org, role: 'admin' });
  await revokeToken(s.server.db.kysely, revoked.token, s.clock.now().toISOString());
  callers.revoked = { name: 'revoked', token: revoked.token, id: revoked.id };

  const space: Fixture['space'] = async ({ team: grant = true } = {}) => {
    const id = (await call('POST', `/v1/orgs/${org}/spaces`, { title: `Space ${unique()}` })).id as string;
    if (grant) await call('POST', `/v1/spaces/${id}/permissions`, { role: TEAM_ROLE, teams: [team] });
    return id;
  };
  const collection: Fixture['collection'] = async () =>
    (await call('POST', `/v1/orgs/${org}/collections`, { title: `Collection ${unique()}` })).id as string;
  const changeRequest: Fixture['changeRequest'] = async (spaceId, withChange = false) => {
    const id = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: `CR ${unique()}` })).id as string;
    if (withChange)
      await call('POST', `/v1/spaces/${spaceId}/change-requests/${id}/content`, {
        changes: [{ operation: 'insert_page', title: `Page ${unique()}`, document: {} }],
      });
    return id;
  };
  const comment: Fixture['comment'] = async (base) => (await call('POST', `${base}/comments`, { body: { markdown: 'A comment' } })).id;
  const reply: Fixture['reply'] = async (base, commentId) =>
    (await call('POST', `${base}/comments/${commentId}/replies`, { body: { markdown: 'A reply' } })).id;
  const member: Fixture['member'] = async (role = 'read') => {
    const u = await s.user({ org, role });
    created.push(u.id);
    return u.id;
  };
  const newTeam: Fixture['newTeam'] = async (members = []) =>
    (await call('PUT', `/v1/orgs/${org}/teams`, { title: `Team ${unique()}`, members })).id as string;
  const site: Fixture['site'] = async () => (await call('POST', `/v1/orgs/${org}/sites`, { title: `Site ${unique()}` })).id as string;
  const section: Fixture['section'] = async (siteId, spaceId) =>
    (await call('POST', `/v1/orgs/${org}/sites/${siteId}/sections`, { spaceId: spaceId ?? (await space()), title: `Section ${unique()}` }))
      .id as string;
  const organizationAdministeredBy: Fixture['organizationAdministeredBy'] = async (caller) => {
    const target = await s.organization('Transfer target');
    if (caller.id)
      await upsertMember(s.server.db.kysely, { orgId: target.id, userId: caller.id, role: 'admin' }, s.clock.now().toISOString());
    return target.id;
  };

  // One of everything, for the reads.
  const ids: Record<string, string> = { organizationId: org, teamId: team, userId: callers.read.id };
  ids.spaceId = await space();
  const pageDoc = await storeMarkdown(s, '# Fixture page\n\nText.\n');
  const fileBlob = await putBlob(s.server.db.kysely, 'file bytes');
  ids.pageId = `pg${unique()}`;
  ids.fileId = `fl${unique()}`;
  ids.reusableContentId = `rc${unique()}`;
  ids.revisionId = await writeTree(
    s,
    { spaceId: ids.spaceId },
    {
      pages: [docPage(ids.pageId, 'Fixture page', { document: pageDoc })],
      files: [{ id: ids.fileId, name: 'fixture.txt', contentType: 'text/plain', size: 10, blob: fileBlob }],
      variables: {},
      reusableContents: [{ id: ids.reusableContentId, title: 'Fixture reusable', document: pageDoc }],
    },
  );
  ids.changeRequestId = await changeRequest(ids.spaceId, true);
  ids.commentId = await comment(`/v1/spaces/${ids.spaceId}`);
  ids.commentReplyId = await reply(`/v1/spaces/${ids.spaceId}`, ids.commentId);
  ids.crCommentId = await comment(`/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}`);
  ids.crCommentReplyId = await reply(`/v1/spaces/${ids.spaceId}/change-requests/${ids.changeRequestId}`, ids.crCommentId);
  ids.collectionId = await collection();
  ids.siteId = await site();
  ids.siteSectionId = await section(ids.siteId, ids.spaceId);
  const sites = `/v1/orgs/${org}/sites/${ids.siteId}`;
  ids.siteSectionGroupId = (await call('POST', `${sites}/section-groups`, { title: 'Group', sections: [ids.siteSectionId] })).id;
  ids.siteSpaceId = (await call('POST', `${sites}/site-spaces`, { spaceId: await space(), sectionId: ids.siteSectionId })).id;
  ids.shareLinkId = (await call('POST', `${sites}/share-links`, { name: 'Link' })).id;
  ids.inviteId = (await call('POST', `/v1/orgs/${org}/link-invites`, { role: 'read' })).id;
  ids.specSlug = `spec-${unique()}`;
  await call('POST', `/v1/orgs/${org}/openapi`, { slug: ids.specSlug, source: { text: MINIMAL_SPEC } });
  ids.versionId = (await call('GET', `/v1/orgs/${org}/openapi/${ids.specSlug}/versions`)).items[0].id;
  ids.translationSettingsId = (await call('POST', `/v1/orgs/${org}/translations`, { title: 'Translations', languages: ['fr'] })).id;
  ids.samlProviderId = (await call('POST', `/v1/orgs/${org}/saml`, { label: 'IdP' })).id;
  ids.activeSamlProviderId = (
    await call('POST', `/v1/orgs/${org}/saml`, { label: 'Active IdP', certificate: IDP.cert, ssoURL: IDP.ssoURL })
  ).id;
  ids.integrationName = `int-${unique()}`;
  await call('POST', `/v1/integrations/${ids.integrationName}`, {
    organization: org,
    title: 'Private integration',
    description: 'Of organization A',
    script: 'export default {}',
    icon: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]).toString('base64'),
  });
  ids.installationId = (await call('POST', `/v1/integrations/${ids.integrationName}/installations`, { organization: org })).id;
  const installation = `/v1/integrations/${ids.integrationName}/installations/${ids.installationId}`;
  await call('POST', `${installation}/spaces`, { space: ids.spaceId });
  await call('POST', `${installation}/sites`, { siteId: ids.siteId });
  created.push(...Object.values(ids), ids.integrationName);

  return {
    s,
    org,
    adminToken,
    adminId: owner.adminId,
    callers,
    team,
    other,
    markdownUrl,
    ids,
    allIds: () => [...new Set(created.filter((id) => typeof id === 'string' && id.length >= 8))],
    call,
    space,
    collection,
    changeRequest,
    comment,
    reply,
    member,
    newTeam,
    site,
    section,
    organizationAdministeredBy,
    close: () => new Promise<void>((resolve) => (markdown as Server).close(() => resolve())),
  };
}

const MINIMAL_SPEC = `openapi: 3.0.3
info:
  title: Fixture
  version: 1.0.0
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
`;
