import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createCollection, createSpace } from '../helpers/spaces.js';

/**
 * The generated role test of issue 18: organization role (guests included) × a role given
 * through a team or to the member directly, on the space or on its collection × the space's
 * `defaultLevel` × its collection's. Each caller's effective role is worked out here from
 * docs/api.md's table ("Effective role on content"), independently of the server's code, then
 * checked through the API by a read (visibility and the `permissions` object) and by writes that
 * need `comment`, `edit` and `admin`.
 */
const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
type Role = (typeof ROLES)[number];
const ORG_ROLES: (Role | null)[] = [...ROLES, null];
const SPACE_LEVELS = ['inherit', null, 'comment', 'review'] as const;
const COLLECTION_LEVELS = [null, 'read', 'edit'] as const;
type SpaceLevel = (typeof SPACE_LEVELS)[number];
type CollectionLevel = (typeof COLLECTION_LEVELS)[number];
interface Grant {
  name: string;
  role?: Role;
  via?: 'team' | 'user';
  on?: 'space' | 'collection';
}
const GRANTS: Grant[] = [
  { name: 'nothing given' },
  { name: 'team comment on the space', role: 'comment', via: 'team', on: 'space' },
  { name: 'team edit on the collection', role: 'edit', via: 'team', on: 'collection' },
  { name: 'user review on the space', role: 'review', via: 'user', on: 'space' },
];

const rank = (role: Role) => ROLES.length - ROLES.indexOf(role);
const atLeast = (role: Role | null, needed: Role) => role !== null && rank(role) >= rank(needed);

/** docs/api.md: the highest of the organization role, the nearest level that is not `inherit` (members only), and the roles given along the chain. */
function expectedRole(orgRole: Role | null, spaceLevel: SpaceLevel, collectionLevel: CollectionLevel, grant: Grant): Role | null {
  const roles: Role[] = [];
  const inherits = spaceLevel === 'inherit';
  if (orgRole !== null) {
    roles.push(orgRole);
    const level = inherits ? collectionLevel : spaceLevel;
    if (level !== null) roles.push(level);
  }
  // A role given on the collection reaches the space only while the space inherits.
  if (grant.role && (grant.on === 'space' || inherits)) roles.push(grant.role);
  return roles.sort((a, b) => rank(b) - rank(a))[0] ?? null;
}

describe.each(testDialects())('effective roles, generated (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it(`${ORG_ROLES.length} organization roles × ${GRANTS.length} grants × ${SPACE_LEVELS.length} space levels × ${COLLECTION_LEVELS.length} collection levels`, async () => {
    const org = await s.organization();
    const admin = { token: org.adminToken };
    const ok = (res: { status: number; body: unknown }, status: number, what: string) =>
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);

    // One collection and one space in it per pair of levels.
    const places: { spaceLevel: SpaceLevel; collectionLevel: CollectionLevel; space: string; collection: string; title: string }[] = [];
    for (const collectionLevel of COLLECTION_LEVELS) {
      for (const spaceLevel of SPACE_LEVELS) {
        const title = `S ${String(spaceLevel)} in ${String(collectionLevel)}`;
        const collection = await createCollection(s, { title: `C ${String(collectionLevel)}` }, { org: org.id, token: org.adminToken });
        ok(
          await s.request('PATCH', `/v1/collections/${collection.id}`, { ...admin, body: { defaultLevel: collectionLevel } }),
          200,
          'collection level',
        );
        const space = await createSpace(s, { title }, { org: org.id, token: org.adminToken });
        ok(await s.request('POST', `/v1/spaces/${space.id}/move`, { ...admin, body: { parent: collection.id } }), 200, 'move');
        ok(await s.request('PATCH', `/v1/spaces/${space.id}`, { ...admin, body: { defaultLevel: spaceLevel } }), 200, 'space level');
        places.push({ spaceLevel, collectionLevel, space: space.id, collection: collection.id, title });
      }
    }

    let checked = 0;
    for (const orgRole of ORG_ROLES) {
      for (const grant of GRANTS) {
        const user = await s.user({ org: org.id, role: orgRole });
        const as = { token: user.token };
        if (grant.role) {
          const principal =
            grant.via === 'team'
              ? {
                  teams: [
                    (await s.request('PUT', `/v1/orgs/${org.id}/teams`, { ...admin, body: { title: `T ${user.id}`, members: [user.id] } }))
                      .body.id,
                  ],
                }
              : { users: [user.id] };
          for (const place of places) {
            const target = grant.on === 'space' ? `spaces/${place.space}` : `collections/${place.collection}`;
            ok(await s.request('POST', `/v1/${target}/permissions`, { ...admin, body: { role: grant.role, ...principal } }), 204, 'grant');
          }
        }
        for (const place of places) {
          const role = expectedRole(orgRole, place.spaceLevel, place.collectionLevel, grant);
          const what = `org role ${String(orgRole)}, ${grant.name}, space ${String(place.spaceLevel)}, collection ${String(place.collectionLevel)} → ${String(role)}`;
          const refused = role === null ? 404 : 403;
          const read = await s.request('GET', `/v1/spaces/${place.space}`, as);
          if (role === null) {
            ok(read, 404, what);
          } else {
            ok(read, 200, what);
            expect(read.body.permissions, what).toMatchObject({
              view: true,
              comment: atLeast(role, 'comment'),
              edit: atLeast(role, 'edit'),
              review: atLeast(role, 'review'),
              merge: atLeast(role, 'review'),
              admin: role === 'admin',
            });
          }
          ok(
            await s.request('POST', `/v1/spaces/${place.space}/comments`, { ...as, body: { body: { markdown: 'hello' } } }),
            atLeast(role, 'comment') ? 200 : refused,
            `${what}: comment`,
          );
          ok(
            await s.request('PATCH', `/v1/spaces/${place.space}`, { ...as, body: { title: place.title } }),
            atLeast(role, 'edit') ? 200 : refused,
            `${what}: edit`,
          );
          ok(
            await s.request('PATCH', `/v1/spaces/${place.space}`, { ...as, body: { defaultLevel: place.spaceLevel } }),
            role === 'admin' ? 200 : refused,
            `${what}: admin`,
          );
          checked += 1;
        }
      }
    }
    expect(checked).toBe(ORG_ROLES.length * GRANTS.length * SPACE_LEVELS.length * COLLECTION_LEVELS.length);
  }, 300_000);
});
