import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { hashToken } from '../../src/server/auth/tokens.js';

const WINDOW_MS = 60_000;
const MAX = 5;

/**
 * The API's rate limit (issue 24; docs/api.md "Rate limits"): per token, counted in the database,
 * with GitBook's headers on every answer and a 429 with `Retry-After` past the limit.
 */
describe.each(testDialects())('the API rate limit (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect, { rateLimit: { max: MAX, windowMs: WINDOW_MS } });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Moves the server's clock to the start of the next window, so a test has a whole window. */
  const nextWindow = () => {
    const now = s.clock.now().getTime();
    s.clock.advance(WINDOW_MS - (now % WINDOW_MS) + 1);
    return now - (now % WINDOW_MS) + WINDOW_MS;
  };
  const windowCount = async () =>
    Number(
      (
        await s.server.db.kysely
          .selectFrom('rate_limit_windows')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('sends the limit, what is left and the window end (epoch seconds) on every answer, and refuses past the limit with 429 and Retry-After', async () => {
    const user = await s.user({ org: s.orgId, role: 'admin' });
    const start = nextWindow();
    const remaining: string[] = [];
    for (let i = 0; i < MAX; i += 1) {
      const answer = await s.request('GET', '/v1/user', { token: user.token });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe(String(MAX));
      const reset = Number(answer.headers.get('x-ratelimit-reset'));
      // The window's end, in whole seconds (rounded up at most one second).
      expect(reset * 1000).toBeGreaterThanOrEqual(start + WINDOW_MS);
      expect(reset * 1000).toBeLessThanOrEqual(start + WINDOW_MS + 1000);
      remaining.push(answer.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);

    const refused = await s.request('GET', '/v1/user', { token: user.token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: { code: 429, message: expect.stringMatching(/rate limit exceeded; try again in \d+ seconds/) } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');

    // Another token has its own count.
    const other = await s.user({ org: s.orgId, role: 'read' });
    const theirs = await s.request('GET', '/v1/user', { token: other.token });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('x-ratelimit-remaining')).toBe(String(MAX - 1));

    // The next window lets the first token in again, and its ended window is deleted.
    nextWindow();
    const again = await s.request('GET', '/v1/user', { token: user.token });
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe(String(MAX - 1));
    const rows = await s.server.db.kysely.selectFrom('rate_limit_windows').selectAll().execute();
    const mine = rows.filter((row) => row.key === `token:${hashToken(user.token)}`);
    expect(mine.map((row) => Number(row.window_start))).toEqual([start + WINDOW_MS]);
    expect(rows.some((row) => row.key.includes(user.token))).toBe(false);
  });

  it('changes nothing for a refused write', async () => {
    const user = await s.user({ org: s.orgId, role: 'admin' });
    nextWindow();
    for (let i = 0; i < MAX; i += 1) expect((await s.request('GET', '/v1/user', { token: user.token })).status).toBe(200);
    const before = await s.server.db.kysely.selectFrom('spaces').select('id').execute();
    const refused = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Refused' }, token: user.token });
    expect(refused.status).toBe(429);
    expect(await s.server.db.kysely.selectFrom('spaces').select('id').execute()).toEqual(before);
  });

  it('counts requests without a token, or with an unknown one, against their address or that token', async () => {
    nextWindow();
    for (let i = 0; i < MAX; i += 1) expect((await s.request('GET', '/v1/user', { token: null })).status).toBe(401);
    expect((await s.request('GET', '/v1/user', { token: null })).status).toBe(429);
    for (let i = 0; i < MAX; i += 1) expect((await s.request('GET', '/v1/user', { token: 'guessed' })).status).toBe(401);
    expect((await s.request('GET', '/v1/user', { token: 'guessed' })).status).toBe(429);
    // The table names callers by hash, never by their token.
    const keys = (await s.server.db.kysely.selectFrom('rate_limit_windows').select('key').execute()).map((row) => row.key);
    expect(keys.some((key) => key.startsWith('address:'))).toBe(true);
    expect(keys.join(' ')).not.toContain('guessed');
  });

  it('leaves the server pages for people (/app, /sites) unlimited and without the headers', async () => {
    nextWindow();
    for (let i = 0; i < MAX + 2; i += 1) {
      const page = await fetch(`${s.url}/app/sign-in`);
      expect(page.status).toBe(200);
      expect(page.headers.get('x-ratelimit-limit')).toBeNull();
    }
  });

  it('shares one count between two server processes on the same database', async () => {
    const user = await s.user({ org: s.orgId, role: 'read' });
    const peer = await s.peer();
    nextWindow();
    const via = (url: string) => fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${user.token}` } });
    const statuses: number[] = [];
    for (let i = 0; i < MAX + 1; i += 1) statuses.push((await via(i % 2 === 0 ? s.url : peer.url)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await windowCount()).toBeGreaterThan(0);
  });
});
