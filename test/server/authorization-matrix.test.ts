import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { buildFixture, CALLERS, type Fixture } from '../helpers/api-fixture.js';
import { expected, WRITE_ROUTES } from '../helpers/write-routes.js';
import { dumpStore, storeChanges } from '../helpers/store-dump.js';

/**
 * Issue 24, "Authorization and isolation": every write route the server registers (found at run
 * time through fastify's `onRoute`) × every kind of caller. The expected answer comes from
 * docs/api.md's role table (test/helpers/write-routes.ts), not from the server's code; a refused
 * request must leave every table of the store as it was (test/helpers/store-dump.ts).
 */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe.each(testDialects())('authorization matrix over every write route (%s)', (dialect) => {
  let s: TestServer;
  let fx: Fixture;
  beforeAll(async () => {
    // The imports fetch a markdown document the fixture serves on loopback.
    s = await startServer(dialect, { allowPrivateFetch: true });
    fx = await buildFixture(s);
  }, 120_000);
  afterAll(async () => {
    await fx?.close();
    await s?.close();
  });

  const writeRoutes = () => s.routes.filter((r) => r.url.startsWith('/v1/') && WRITES.has(r.method)).map((r) => `${r.method} ${r.url}`);

  it('has a request factory for every write route, and none for a route that is gone', () => {
    const routes = writeRoutes();
    expect(routes.length).toBeGreaterThan(80);
    expect(
      routes.filter((key) => !WRITE_ROUTES[key]),
      'write routes without a factory in test/helpers/write-routes.ts',
    ).toEqual([]);
    expect(
      Object.keys(WRITE_ROUTES).filter((key) => !routes.includes(key)),
      'factories of routes the server does not have',
    ).toEqual([]);
  });

  it('answers every caller as docs/api.md says, and a refused request changes nothing', async () => {
    const mismatches: string[] = [];
    let tried = 0;
    let refused = 0;
    for (const key of writeRoutes()) {
      const route = WRITE_ROUTES[key];
      if (!route) continue;
      const method = key.split(' ')[0]!;
      const refusedCallers = CALLERS.filter((c) => expected(route.need, c) !== 'ok');
      const allowedCallers = CALLERS.filter((c) => expected(route.need, c) === 'ok');
      // Refused callers first, each on a request made for it, the store compared around them all.
      const requests = [];
      for (const name of refusedCallers) requests.push({ name, made: await route.make(fx, fx.callers[name]) });
      const before = await dumpStore(s);
      for (const { name, made } of requests) {
        const res = await s.request(method, made.path, {
          token: fx.callers[name].token,
          ...(made.body !== undefined ? { body: made.body } : {}),
        });
        tried += 1;
        refused += 1;
        const want = expected(route.need, name);
        if (res.status !== want) mismatches.push(`${key} as ${name}: ${res.status} (docs/api.md: ${want}) ${JSON.stringify(res.body)}`);
        else expect(res.body, `${key} as ${name}`).toEqual({ error: { code: want, message: expect.any(String) } });
      }
      const changes = storeChanges(before, await dumpStore(s));
      if (Object.keys(changes).length > 0) mismatches.push(`${key}: refused requests changed the store: ${JSON.stringify(changes)}`);
      // Each allowed caller on a fresh target.
      for (const name of allowedCallers) {
        const made = await route.make(fx, fx.callers[name]);
        const res = await s.request(method, made.path, {
          token: fx.callers[name].token,
          ...(made.body !== undefined ? { body: made.body } : {}),
        });
        tried += 1;
        if (res.status < 200 || res.status > 299)
          mismatches.push(`${key} as ${name}: ${res.status} (docs/api.md: 2xx) ${JSON.stringify(res.body)}`);
      }
      // Joining by an invite link made the outsider a member of A: it is a stranger again for the next routes.
      if (route.need.on === 'token')
        await s.server.db.kysely.deleteFrom('members').where('org_id', '=', fx.org).where('user_id', '=', fx.callers.outsider.id).execute();
    }
    process.stdout.write(
      `authorization matrix (${dialect}): ${writeRoutes().length} write routes × ${CALLERS.length} callers, ${tried} requests, ${refused} refused\n`,
    );
    expect(mismatches).toEqual([]);
  }, 600_000);
});
