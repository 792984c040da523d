import type { Role } from '../../src/model/index.js';
import { ORG_ROLES, TEAM_ROLE, type Caller, type CallerName, type Fixture } from './api-fixture.js';

/**
 * A request factory for every write route of the API (POST, PUT, PATCH, DELETE under /v1), keyed
 * by `METHOD url` exactly as fastify registered the route, and the role docs/api.md ("Role each
 * operation needs") says it needs. test/server/authorization-matrix.test.ts fails for a write
 * route missing here, so a new route comes with its line.
 *
 * `make` fills the path with ids of the fixture's organization (A) and gives a valid body; it makes
 * fresh resources where the write uses its target up (a delete, a merge, a move), so that every
 * caller the table allows can succeed.
 */
export type Need =
  /** The effective role on a space of organization A (the team caller's team has TEAM_ROLE on it). */
  | { on: 'space'; role: Role; authorOrAdmin?: true }
  /** The effective role on a collection of A (no role given to the team there). */
  | { on: 'collection'; role: Role }
  /** The member role in A: guests are members (403), strangers are not (404). */
  | { on: 'org'; role: Role }
  /** A site of A: the member role, and guests see no site at all (404; docs/api.md, "Sites"). */
  | { on: 'site'; role: Role }
  /** An integration installation of A: its organization's admins; anyone else, members included, 404 (docs/api.md, "Integrations"). */
  | { on: 'installation' }
  /** Any member of A, guests included. */
  | { on: 'member' }
  /** Anyone with a live token (joining by an invite link). */
  | { on: 'token' }
  /** SAML sign-in: no bearer token; the identity provider's message decides. */
  | { on: 'sign-in'; status: number };

export interface Made {
  path: string;
  body?: unknown;
}

export interface WriteCase {
  need: Need;
  make(fx: Fixture, caller: Caller): Promise<Made>;
}

const rank = (role: Role) => ORG_ROLES.length - ORG_ROLES.indexOf(role as (typeof ORG_ROLES)[number]);
const atLeast = (role: Role | null, needed: Role) => role !== null && rank(role) >= rank(needed);
const highest = (a: Role | null, b: Role | null): Role | null => (a === null ? b : b === null ? a : rank(a) >= rank(b) ? a : b);

/** The caller's organization role in A (undefined: not a member; null: guest). */
function orgRole(caller: CallerName): Role | null | undefined {
  if ((ORG_ROLES as readonly string[]).includes(caller)) return caller as Role;
  if (caller === 'guest') return null;
  if (caller === 'team') return 'read';
  return undefined;
}

/**
 * What docs/api.md says a caller gets: 'ok' (a 2xx), 401, 403 or 404. Worked out from the table,
 * not from the server's code. The callers are never the authors of the fixture's comments.
 */
export function expected(need: Need, caller: CallerName): 'ok' | 401 | 403 | 404 {
  if (need.on === 'sign-in') return need.status as 401;
  if (caller === 'anonymous' || caller === 'revoked') return 401;
  if (need.on === 'token') return 'ok';
  const member = orgRole(caller);
  if (member === undefined) return 404;
  if (need.on === 'member') return 'ok';
  if (need.on === 'installation') return member === 'admin' ? 'ok' : 404;
  if (need.on === 'org') return atLeast(member, need.role) ? 'ok' : 403;
  if (need.on === 'site') return member === null ? 404 : atLeast(member, need.role) ? 'ok' : 403;
  // Content: fixture spaces and collections sit at the organization's root with no level of
  // their own, so a member's role there is the organization role; a guest has none (404).
  const role = need.on === 'space' && caller === 'team' ? highest(member, TEAM_ROLE) : member;
  if (role === null) return 404;
  if (need.on === 'space' && need.authorOrAdmin) return role === 'admin' ? 'ok' : 403;
  return atLeast(role, need.role) ? 'ok' : 403;
}

const orgPath = (fx: Fixture) => `/v1/orgs/${fx.org}`;
const sitePath = async (fx: Fixture) => `${orgPath(fx)}/sites/${await fx.site()}`;
const spacePath = async (fx: Fixture) => `/v1/spaces/${await fx.space()}`;
const crPath = async (fx: Fixture, withChange = false) => {
  const space = await fx.space();
  return `/v1/spaces/${space}/change-requests/${await fx.changeRequest(space, withChange)}`;
};
/** A comment (and its path) on a fresh space, or on a change request of one. */
const commentPath = async (fx: Fixture, onChangeRequest: boolean) => {
  const base = onChangeRequest ? await crPath(fx) : await spacePath(fx);
  return `${base}/comments/${await fx.comment(base)}`;
};
const replyPath = async (fx: Fixture, onChangeRequest: boolean) => {
  const base = onChangeRequest ? await crPath(fx) : await spacePath(fx);
  const comment = await fx.comment(base);
  return `${base}/comments/${comment}/replies/${await fx.reply(base, comment)}`;
};
const page = () => ({ changes: [{ operation: 'insert_page', title: 'Written', document: {} }] });

function commentCases(prefix: string, onChangeRequest: boolean): Record<string, WriteCase> {
  return {
    [`POST ${prefix}/comments`]: {
      need: { on: 'space', role: 'comment' },
      make: async (fx) => ({
        path: `${onChangeRequest ? await crPath(fx) : await spacePath(fx)}/comments`,
        body: { body: { markdown: 'Hi' } },
      }),
    },
    [`PUT ${prefix}/comments/:commentId`]: {
      need: { on: 'space', role: 'comment' },
      make: async (fx) => ({ path: await commentPath(fx, onChangeRequest), body: { resolved: true } }),
    },
    [`DELETE ${prefix}/comments/:commentId`]: {
      need: { on: 'space', role: 'comment', authorOrAdmin: true },
      make: async (fx) => ({ path: await commentPath(fx, onChangeRequest) }),
    },
    [`POST ${prefix}/comments/:commentId/replies`]: {
      need: { on: 'space', role: 'comment' },
      make: async (fx) => ({ path: `${await commentPath(fx, onChangeRequest)}/replies`, body: { body: { markdown: 'Reply' } } }),
    },
    [`PUT ${prefix}/comments/:commentId/replies/:commentReplyId`]: {
      need: { on: 'space', role: 'comment' },
      make: async (fx) => ({ path: await replyPath(fx, onChangeRequest), body: { addedReactions: ['👍'] } }),
    },
    [`DELETE ${prefix}/comments/:commentId/replies/:commentReplyId`]: {
      need: { on: 'space', role: 'comment', authorOrAdmin: true },
      make: async (fx) => ({ path: await replyPath(fx, onChangeRequest) }),
    },
  };
}

function permissionCases(kind: 'spaces' | 'collections', param: string): Record<string, WriteCase> {
  const need: Need = kind === 'spaces' ? { on: 'space', role: 'admin' } : { on: 'collection', role: 'admin' };
  const target = (fx: Fixture) => (kind === 'spaces' ? fx.space() : fx.collection());
  /** A target where the user (a fresh member) or a fresh team already has a role. */
  const granted = async (fx: Fixture, principal: 'users' | 'teams') => {
    const id = await target(fx);
    const who = principal === 'users' ? await fx.member('read') : await fx.newTeam();
    await fx.call('POST', `/v1/${kind}/${id}/permissions`, { role: 'edit', [principal]: [who] });
    return `/v1/${kind}/${id}/permissions/${principal}/${who}`;
  };
  return {
    [`POST /v1/${kind}/:${param}/permissions`]: {
      need,
      make: async (fx) => ({
        path: `/v1/${kind}/${await target(fx)}/permissions`,
        body: { role: 'comment', users: [await fx.member('read')] },
      }),
    },
    [`PATCH /v1/${kind}/:${param}/permissions/users/:userId`]: {
      need,
      make: async (fx) => ({ path: await granted(fx, 'users'), body: { role: 'review' } }),
    },
    [`DELETE /v1/${kind}/:${param}/permissions/users/:userId`]: { need, make: async (fx) => ({ path: await granted(fx, 'users') }) },
    [`PATCH /v1/${kind}/:${param}/permissions/teams/:teamId`]: {
      need,
      make: async (fx) => ({ path: await granted(fx, 'teams'), body: { role: 'review' } }),
    },
    [`DELETE /v1/${kind}/:${param}/permissions/teams/:teamId`]: { need, make: async (fx) => ({ path: await granted(fx, 'teams') }) },
  };
}

/** A fresh private integration of A, installed in A: its installation's path. */
async function installationPath(fx: Fixture): Promise<string> {
  const name = `int-${Math.random().toString(36).slice(2, 10)}`;
  await fx.call('POST', `/v1/integrations/${name}`, {
    organization: fx.org,
    title: 'Installed',
    description: 'Installed in A',
    script: 'export default {}',
  });
  const installation = (await fx.call('POST', `/v1/integrations/${name}/installations`, { organization: fx.org })).id;
  return `/v1/integrations/${name}/installations/${installation}`;
}

export const WRITE_ROUTES: Record<string, WriteCase> = {
  // Organizations, members, invites, teams.
  'PATCH /v1/orgs/:organizationId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: orgPath(fx), body: { title: 'Org A' } }),
  },
  'POST /v1/orgs/:organizationId/ping': { need: { on: 'member' }, make: async (fx) => ({ path: `${orgPath(fx)}/ping` }) },
  'PATCH /v1/orgs/:organizationId/members/:userId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/members/${await fx.member('read')}`, body: { role: 'edit' } }),
  },
  'DELETE /v1/orgs/:organizationId/members/:userId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/members/${await fx.member('read')}` }),
  },
  'POST /v1/orgs/:organizationId/members/:userId/sso': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/members/${await fx.member('read')}/sso` }),
  },
  'POST /v1/orgs/:organizationId/link-invites': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/link-invites`, body: { role: 'comment' } }),
  },
  'DELETE /v1/orgs/:organizationId/link-invites/:inviteId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({
      path: `${orgPath(fx)}/link-invites/${(await fx.call('POST', `${orgPath(fx)}/link-invites`, { role: 'read' })).id}`,
    }),
  },
  'POST /v1/orgs/:organizationId/invites/:inviteId': {
    need: { on: 'token' },
    make: async (fx) => ({ path: `${orgPath(fx)}/invites/${(await fx.call('POST', `${orgPath(fx)}/link-invites`, { role: 'read' })).id}` }),
  },
  'PUT /v1/orgs/:organizationId/teams': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/teams`, body: { title: 'New team' } }),
  },
  'PATCH /v1/orgs/:organizationId/teams/:teamId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/teams/${await fx.newTeam()}`, body: { title: 'Renamed team' } }),
  },
  'DELETE /v1/orgs/:organizationId/teams/:teamId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/teams/${await fx.newTeam()}` }),
  },
  'PUT /v1/orgs/:organizationId/teams/:teamId/members': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/teams/${await fx.newTeam()}/members`, body: { add: [await fx.member('read')] } }),
  },
  'PUT /v1/orgs/:organizationId/teams/:teamId/members/:userId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({
      path: `${orgPath(fx)}/teams/${await fx.newTeam()}/members/${await fx.member('read')}`,
      body: { role: 'member' },
    }),
  },
  'DELETE /v1/orgs/:organizationId/teams/:teamId/members/:userId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => {
      const user = await fx.member('read');
      return { path: `${orgPath(fx)}/teams/${await fx.newTeam([user])}/members/${user}` };
    },
  },

  // Spaces and collections.
  'POST /v1/orgs/:organizationId/spaces': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => ({ path: `${orgPath(fx)}/spaces`, body: { title: 'New space' } }),
  },
  'POST /v1/orgs/:organizationId/collections': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => ({ path: `${orgPath(fx)}/collections`, body: { title: 'New collection' } }),
  },
  'PATCH /v1/spaces/:spaceId': {
    need: { on: 'space', role: 'edit' },
    make: async (fx) => ({ path: await spacePath(fx), body: { title: 'Retitled' } }),
  },
  'DELETE /v1/spaces/:spaceId': { need: { on: 'space', role: 'admin' }, make: async (fx) => ({ path: await spacePath(fx) }) },
  'POST /v1/spaces/:spaceId/restore': {
    need: { on: 'space', role: 'admin' },
    make: async (fx) => {
      const path = await spacePath(fx);
      await fx.call('DELETE', path);
      return { path: `${path}/restore` };
    },
  },
  'POST /v1/spaces/:spaceId/duplicate': {
    need: { on: 'space', role: 'create' },
    make: async (fx) => ({ path: `${await spacePath(fx)}/duplicate` }),
  },
  'POST /v1/spaces/:spaceId/move': {
    need: { on: 'space', role: 'admin' },
    make: async (fx) => ({ path: `${await spacePath(fx)}/move`, body: { parent: await fx.collection() } }),
  },
  'POST /v1/spaces/:spaceId/transfer': {
    need: { on: 'space', role: 'admin' },
    make: async (fx, caller) => ({
      path: `${await spacePath(fx)}/transfer`,
      body: { organization: await fx.organizationAdministeredBy(caller) },
    }),
  },
  'PATCH /v1/collections/:collectionId': {
    need: { on: 'collection', role: 'admin' },
    make: async (fx) => ({ path: `/v1/collections/${await fx.collection()}`, body: { title: 'Retitled' } }),
  },
  'DELETE /v1/collections/:collectionId': {
    need: { on: 'collection', role: 'admin' },
    make: async (fx) => ({ path: `/v1/collections/${await fx.collection()}` }),
  },
  'POST /v1/collections/:collectionId/move': {
    need: { on: 'collection', role: 'admin' },
    make: async (fx) => ({ path: `/v1/collections/${await fx.collection()}/move`, body: { parent: await fx.collection() } }),
  },
  'POST /v1/collections/:collectionId/transfer': {
    need: { on: 'collection', role: 'admin' },
    make: async (fx, caller) => ({
      path: `/v1/collections/${await fx.collection()}/transfer`,
      body: { organization: await fx.organizationAdministeredBy(caller) },
    }),
  },
  ...permissionCases('spaces', 'spaceId'),
  ...permissionCases('collections', 'collectionId'),

  // Content, change requests, imports.
  'POST /v1/spaces/:spaceId/change-requests': {
    need: { on: 'space', role: 'edit' },
    make: async (fx) => ({ path: `${await spacePath(fx)}/change-requests`, body: { subject: 'New CR' } }),
  },
  'PATCH /v1/spaces/:spaceId/change-requests/:changeRequestId': {
    need: { on: 'space', role: 'edit' },
    make: async (fx) => ({ path: await crPath(fx), body: { subject: 'Renamed CR' } }),
  },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content': {
    need: { on: 'space', role: 'edit' },
    make: async (fx) => ({ path: `${await crPath(fx)}/content`, body: page() }),
  },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/merge': {
    need: { on: 'space', role: 'review' },
    make: async (fx) => ({ path: `${await crPath(fx, true)}/merge` }),
  },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/update': {
    need: { on: 'space', role: 'edit' },
    make: async (fx) => ({ path: `${await crPath(fx)}/update` }),
  },
  'POST /v1/spaces/:spaceId/content/import': {
    need: { on: 'space', role: 'review' },
    make: async (fx) => ({ path: `${await spacePath(fx)}/content/import`, body: { source: 'markdown', url: fx.markdownUrl } }),
  },
  'POST /v1/spaces/:spaceId/change-requests/:changeRequestId/content/import': {
    need: { on: 'space', role: 'edit' },
    make: async (fx) => ({ path: `${await crPath(fx)}/content/import`, body: { source: 'markdown', url: fx.markdownUrl } }),
  },
  ...commentCases('/v1/spaces/:spaceId', false),
  ...commentCases('/v1/spaces/:spaceId/change-requests/:changeRequestId', true),

  // Sites.
  'POST /v1/orgs/:organizationId/sites': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/sites`, body: { title: 'New site' } }),
  },
  'PATCH /v1/orgs/:organizationId/sites/:siteId': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => ({ path: await sitePath(fx), body: { title: 'Retitled site' } }),
  },
  'DELETE /v1/orgs/:organizationId/sites/:siteId': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => ({ path: await sitePath(fx) }),
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/publish': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => ({ path: `${await sitePath(fx)}/publish` }),
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/unpublish': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => {
      const path = await sitePath(fx);
      await fx.call('POST', `${path}/publish`);
      return { path: `${path}/unpublish` };
    },
  },
  'PUT /v1/orgs/:organizationId/sites/:siteId/adaptive-schema': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => ({
      path: `${await sitePath(fx)}/adaptive-schema`,
      body: {
        jsonSchema: {
          type: 'object',
          properties: { plan: { type: 'string', enum: ['free', 'pro'], description: 'Plan' } },
          additionalProperties: false,
        },
      },
    }),
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/share-links': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => ({ path: `${await sitePath(fx)}/share-links`, body: { name: 'Link' } }),
  },
  'PATCH /v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => {
      const path = await sitePath(fx);
      return { path: `${path}/share-links/${(await fx.call('POST', `${path}/share-links`, { name: 'L' })).id}`, body: { active: false } };
    },
  },
  'DELETE /v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId': {
    need: { on: 'site', role: 'admin' },
    make: async (fx) => {
      const path = await sitePath(fx);
      return { path: `${path}/share-links/${(await fx.call('POST', `${path}/share-links`, { name: 'L' })).id}` };
    },
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/sections': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => ({ path: `${await sitePath(fx)}/sections`, body: { spaceId: await fx.space() } }),
  },
  'PATCH /v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      return { path: `${path}/sections/${await fx.section(path.split('/').pop()!)}`, body: { title: 'Renamed section' } };
    },
  },
  'DELETE /v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      return { path: `${path}/sections/${await fx.section(path.split('/').pop()!)}` };
    },
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/sections/:siteSectionId/move': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      const site = path.split('/').pop()!;
      const first = await fx.section(site);
      return {
        path: `${path}/sections/${await fx.section(site)}/move`,
        body: { position: { before: { type: 'site-section', siteSection: first } } },
      };
    },
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/section-groups': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      await fx.section(path.split('/').pop()!);
      return { path: `${path}/section-groups`, body: { title: 'Group' } };
    },
  },
  'PATCH /v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      await fx.section(path.split('/').pop()!);
      return {
        path: `${path}/section-groups/${(await fx.call('POST', `${path}/section-groups`, { title: 'G' })).id}`,
        body: { title: 'G2' },
      };
    },
  },
  'DELETE /v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      await fx.section(path.split('/').pop()!);
      return { path: `${path}/section-groups/${(await fx.call('POST', `${path}/section-groups`, { title: 'G' })).id}` };
    },
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/move': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      const section = await fx.section(path.split('/').pop()!);
      const group = (await fx.call('POST', `${path}/section-groups`, { title: 'G' })).id;
      return { path: `${path}/section-groups/${group}/move`, body: { position: { before: { type: 'site-section', id: section } } } };
    },
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      const section = await fx.section(path.split('/').pop()!);
      const group = (await fx.call('POST', `${path}/section-groups`, { title: 'G' })).id;
      return { path: `${path}/section-groups/${group}/sections`, body: { sectionId: section } };
    },
  },
  'DELETE /v1/orgs/:organizationId/sites/:siteId/section-groups/:siteSectionGroupId/sections/:siteSectionId': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      const section = await fx.section(path.split('/').pop()!);
      const group = (await fx.call('POST', `${path}/section-groups`, { title: 'G', sections: [section] })).id;
      return { path: `${path}/section-groups/${group}/sections/${section}` };
    },
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/site-spaces': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => ({ path: `${await sitePath(fx)}/site-spaces`, body: { spaceId: await fx.space() } }),
  },
  'PATCH /v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      const siteSpace = (await fx.call('POST', `${path}/site-spaces`, { spaceId: await fx.space() })).id;
      return { path: `${path}/site-spaces/${siteSpace}`, body: { path: 'renamed' } };
    },
  },
  'DELETE /v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      return { path: `${path}/site-spaces/${(await fx.call('POST', `${path}/site-spaces`, { spaceId: await fx.space() })).id}` };
    },
  },
  'POST /v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/move': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      const first = (await fx.call('POST', `${path}/site-spaces`, { spaceId: await fx.space() })).id;
      const second = (await fx.call('POST', `${path}/site-spaces`, { spaceId: await fx.space() })).id;
      return { path: `${path}/site-spaces/${second}/move`, body: { position: { before: { type: 'site-space', siteSpace: first } } } };
    },
  },
  'PATCH /v1/orgs/:organizationId/sites/:siteId/structure/sort': {
    need: { on: 'site', role: 'create' },
    make: async (fx) => {
      const path = await sitePath(fx);
      const site = path.split('/').pop()!;
      const first = await fx.section(site);
      const second = await fx.section(site);
      return {
        path: `${path}/structure/sort`,
        body: { item: { type: 'site-section', id: second }, position: { before: { type: 'site-section', id: first } } },
      };
    },
  },

  // OpenAPI specs, translations, SAML.
  'POST /v1/orgs/:organizationId/openapi': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => ({
      path: `${orgPath(fx)}/openapi`,
      body: { slug: `spec-${Math.random().toString(36).slice(2, 10)}`, source: { text: PETS } },
    }),
  },
  'PUT /v1/orgs/:organizationId/openapi/:specSlug': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => ({ path: `${orgPath(fx)}/openapi/${fx.ids.specSlug}`, body: { source: { text: PETS } } }),
  },
  'DELETE /v1/orgs/:organizationId/openapi/:specSlug': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => {
      const slug = `spec-${Math.random().toString(36).slice(2, 10)}`;
      await fx.call('POST', `${orgPath(fx)}/openapi`, { slug, source: { text: PETS } });
      return { path: `${orgPath(fx)}/openapi/${slug}` };
    },
  },
  'POST /v1/orgs/:organizationId/translations': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => ({ path: `${orgPath(fx)}/translations`, body: { title: 'T', languages: ['de'] } }),
  },
  'PUT /v1/orgs/:organizationId/translations/:translationSettingsId': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => ({ path: `${orgPath(fx)}/translations/${fx.ids.translationSettingsId}`, body: { title: 'Translations' } }),
  },
  'DELETE /v1/orgs/:organizationId/translations/:translationSettingsId': {
    need: { on: 'org', role: 'create' },
    make: async (fx) => ({
      path: `${orgPath(fx)}/translations/${(await fx.call('POST', `${orgPath(fx)}/translations`, { title: 'T' })).id}`,
    }),
  },
  'POST /v1/orgs/:organizationId/saml': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/saml`, body: { label: 'New IdP' } }),
  },
  'PATCH /v1/orgs/:organizationId/saml/:samlProviderId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/saml/${fx.ids.samlProviderId}`, body: { label: 'IdP' } }),
  },
  'DELETE /v1/orgs/:organizationId/saml/:samlProviderId': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({ path: `${orgPath(fx)}/saml/${(await fx.call('POST', `${orgPath(fx)}/saml`, { label: 'Gone' })).id}` }),
  },
  'POST /v1/sso/saml/:samlProviderId/acs': {
    // Not a bearer-token route: a response that is not a signed SAML message is refused (401) for everyone.
    need: { on: 'sign-in', status: 401 },
    make: async (fx) => ({
      path: `/v1/sso/saml/${fx.ids.activeSamlProviderId}/acs`,
      body: { SAMLResponse: Buffer.from('<Response/>').toString('base64') },
    }),
  },

  // Integrations (published by A, private).
  'POST /v1/integrations/:integrationName': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => ({
      path: `/v1/integrations/${fx.ids.integrationName}`,
      body: { organization: fx.org, title: 'Private integration', description: 'Of organization A', script: 'export default {}' },
    }),
  },
  'DELETE /v1/integrations/:integrationName': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => {
      const name = `int-${Math.random().toString(36).slice(2, 10)}`;
      await fx.call('POST', `/v1/integrations/${name}`, {
        organization: fx.org,
        title: 'Gone',
        description: 'To unpublish',
        script: 'export default {}',
      });
      return { path: `/v1/integrations/${name}` };
    },
  },
  'POST /v1/integrations/:integrationName/installations': {
    need: { on: 'org', role: 'admin' },
    make: async (fx) => {
      const name = `int-${Math.random().toString(36).slice(2, 10)}`;
      await fx.call('POST', `/v1/integrations/${name}`, {
        organization: fx.org,
        title: 'To install',
        description: 'Installable',
        script: 'export default {}',
      });
      return { path: `/v1/integrations/${name}/installations`, body: { organization: fx.org } };
    },
  },
  'PATCH /v1/integrations/:integrationName/installations/:installationId': {
    need: { on: 'installation' },
    make: async (fx) => ({ path: await installationPath(fx), body: { externalIds: ['ext-1'] } }),
  },
  'POST /v1/integrations/:integrationName/installations/:installationId/tokens': {
    need: { on: 'installation' },
    make: async (fx) => ({ path: `${await installationPath(fx)}/tokens` }),
  },
  'POST /v1/integrations/:integrationName/installations/:installationId/spaces': {
    need: { on: 'installation' },
    make: async (fx) => ({ path: `${await installationPath(fx)}/spaces`, body: { space: await fx.space() } }),
  },
  'PATCH /v1/integrations/:integrationName/installations/:installationId/spaces/:spaceId': {
    need: { on: 'installation' },
    make: async (fx) => {
      const path = await installationPath(fx);
      const space = await fx.space();
      await fx.call('POST', `${path}/spaces`, { space });
      return { path: `${path}/spaces/${space}`, body: { externalIds: ['ext-1'] } };
    },
  },
  'DELETE /v1/integrations/:integrationName/installations/:installationId/spaces/:spaceId': {
    need: { on: 'installation' },
    make: async (fx) => {
      const path = await installationPath(fx);
      const space = await fx.space();
      await fx.call('POST', `${path}/spaces`, { space });
      return { path: `${path}/spaces/${space}` };
    },
  },
  'POST /v1/integrations/:integrationName/installations/:installationId/sites': {
    need: { on: 'installation' },
    make: async (fx) => ({ path: `${await installationPath(fx)}/sites`, body: { siteId: await fx.site() } }),
  },
  'PATCH /v1/integrations/:integrationName/installations/:installationId/sites/:siteId': {
    need: { on: 'installation' },
    make: async (fx) => {
      const path = await installationPath(fx);
      const site = await fx.site();
      await fx.call('POST', `${path}/sites`, { siteId: site });
      return { path: `${path}/sites/${site}`, body: { externalIds: ['ext-1'] } };
    },
  },
  'DELETE /v1/integrations/:integrationName/installations/:installationId/sites/:siteId': {
    need: { on: 'installation' },
    make: async (fx) => {
      const path = await installationPath(fx);
      const site = await fx.site();
      await fx.call('POST', `${path}/sites`, { siteId: site });
      return { path: `${path}/sites/${site}` };
    },
  },
  'DELETE /v1/integrations/:integrationName/installations/:installationId': {
    need: { on: 'installation' },
    make: async (fx) => {
      const name = `int-${Math.random().toString(36).slice(2, 10)}`;
      await fx.call('POST', `/v1/integrations/${name}`, {
        organization: fx.org,
        title: 'Installed',
        description: 'To uninstall',
        script: 'export default {}',
      });
      const installation = (await fx.call('POST', `/v1/integrations/${name}/installations`, { organization: fx.org })).id;
      return { path: `/v1/integrations/${name}/installations/${installation}` };
    },
  },
};

export const PETS = `openapi: 3.0.3
info:
  title: Pets
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
`;
