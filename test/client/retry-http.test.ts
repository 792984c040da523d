import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, createClient, type Client } from '../../src/client/index.js';
import { httpFixture, json, recordingTiming, type Fixture } from './http-fixture.js';

const TOKEN = 'tok_secret_4b1d9e2f';

describe('client retries against a real HTTP server', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  async function setup(handler: Parameters<typeof httpFixture>[0], options: { retries?: number } = {}) {
    const server = await httpFixture(handler);
    const { delays, timing } = recordingTiming();
    const client = createClient({ baseUrl: server.url, token: TOKEN, timing, ...options });
    open.push(server, client);
    return { server, client, delays };
  }

  const get = (client: Client, path = '/v1/thing') => client.request<{ ok: boolean }>({ method: 'GET', path });

  it('retries a 503 with Retry-After in seconds twice, waiting what the server asked, then succeeds', async () => {
    const { server, client, delays } = await setup((_req, res, _seen, i) =>
      i < 2 ? json(res, 503, { error: { code: 503, message: 'busy' } }, { 'retry-after': '2' }) : json(res, 200, { ok: true }),
    );
    expect(await get(client)).toEqual({ ok: true });
    expect(server.seen).toHaveLength(3);
    expect(delays).toEqual([2000, 2000]);
    expect(client.stats).toEqual({ requests: 3, retries: 2 });
  });

  it('reads Retry-After as an HTTP date', async () => {
    const { client, delays } = await setup((_req, res, _seen, i) =>
      i < 1 ? json(res, 503, {}, { 'retry-after': 'Sat, 01 Mar 2025 12:00:07 GMT' }) : json(res, 200, { ok: true }),
    );
    expect(await get(client)).toEqual({ ok: true });
    expect(delays).toEqual([7000]);
  });

  it('waits for X-RateLimit-Reset (epoch seconds) on a 429 without Retry-After', async () => {
    const reset = Date.parse('2025-03-01T12:00:00.000Z') / 1000 + 12;
    const { client, delays } = await setup((_req, res, _seen, i) =>
      i < 1
        ? json(res, 429, { error: { code: 429, message: 'API rate limit exceeded' } }, { 'x-ratelimit-reset': String(reset) })
        : json(res, 200, { ok: true }),
    );
    expect(await get(client)).toEqual({ ok: true });
    expect(delays).toEqual([12_000]);
  });

  it('does not retry at once when X-RateLimit-Reset is at or before the local clock (clock skew)', async () => {
    const past = Date.parse('2025-03-01T12:00:00.000Z') / 1000 - 2;
    const { client, delays } = await setup((_req, res, _seen, i) =>
      i < 2
        ? json(res, 429, { error: { code: 429, message: 'API rate limit exceeded' } }, { 'x-ratelimit-reset': String(past) })
        : json(res, 200, { ok: true }),
    );
    expect(await get(client)).toEqual({ ok: true });
    // At least a second, doubling, plus the jitter (random() is 0.5: half of 500, then of 1000).
    expect(delays).toEqual([1250, 2500]);
  });

  it('backs off exponentially with jitter when the server names no delay, and gives up after the retries', async () => {
    const { server, client, delays } = await setup((_req, res) => json(res, 502, { error: { code: 502, message: 'bad gateway' } }), {
      retries: 3,
    });
    const error = await get(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).message).toBe('bad gateway');
    expect(server.seen).toHaveLength(4);
    // random() is 0.5: half of 500, 1000, 2000.
    expect(delays).toEqual([250, 500, 1000]);
  });

  it.each([400, 401, 403, 404, 409])('never retries a %i and surfaces the server message', async (status) => {
    const { server, client, delays } = await setup((_req, res) =>
      json(res, status, { error: { code: status, message: `field body.title is wrong (${status})` } }),
    );
    const error = (await get(client).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('api-error');
    expect(error.status).toBe(status);
    expect(error.message).toBe(`field body.title is wrong (${status})`);
    expect(error.request).toBe('GET /v1/thing');
    expect(server.seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('falls back to the status text when the failure body is not JSON', async () => {
    const { client } = await setup((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>nope</html>');
    });
    const error = (await get(client).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(404);
    expect(error.message).toBe('Not Found');
  });

  it('retries a GET whose connection was reset', async () => {
    const { server, client, delays } = await setup((req, res, _seen, i) => {
      if (i === 0) req.socket.destroy();
      else json(res, 200, { ok: true });
    });
    expect(await get(client)).toEqual({ ok: true });
    expect(server.seen).toHaveLength(2);
    expect(delays).toHaveLength(1);
  });

  it('does not retry a POST whose connection was reset (it may have landed), unless it is marked idempotent', async () => {
    const { server, client } = await setup((req, res, seen) => {
      if (seen.url.includes('reset') && server.seen.filter((s) => s.url === seen.url).length === 1) req.socket.destroy();
      else json(res, 200, { ok: true });
    });
    const error = await client.request({ method: 'POST', path: '/v1/reset-a', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).code).toBe('connection-failed');
    expect(server.seen.filter((s) => s.url === '/v1/reset-a')).toHaveLength(1);
    expect(await client.request({ method: 'POST', path: '/v1/reset-b', body: {}, idempotent: true })).toEqual({ ok: true });
    expect(server.seen.filter((s) => s.url === '/v1/reset-b')).toHaveLength(2);
  });

  it('retries a POST on 429 and on a 503 with Retry-After, not on a 503 without it or a 502', async () => {
    const answers: Record<string, [number, Record<string, string>][]> = {
      '/v1/a': [[429, { 'retry-after': '1' }]],
      '/v1/b': [[503, { 'retry-after': '1' }]],
      '/v1/c': [[503, {}]],
      '/v1/d': [[502, {}]],
    };
    const { server, client } = await setup((_req, res, seen) => {
      const next = answers[seen.url]?.shift();
      if (next) json(res, next[0], { error: { code: next[0], message: 'not now' } }, next[1]);
      else json(res, 200, { ok: true });
    });
    const post = (path: string) => client.request({ method: 'POST', path, body: {} }).catch((e: unknown) => e);
    expect(await post('/v1/a')).toEqual({ ok: true });
    expect(await post('/v1/b')).toEqual({ ok: true });
    expect(((await post('/v1/c')) as ApiError).status).toBe(503);
    expect(((await post('/v1/d')) as ApiError).status).toBe(502);
    const count = (url: string) => server.seen.filter((s) => s.url === url).length;
    expect([count('/v1/a'), count('/v1/b'), count('/v1/c'), count('/v1/d')]).toEqual([2, 2, 1, 1]);
  });

  it('retries ECONNREFUSED while the server restarts on the same port, for a POST too (nothing was sent)', async () => {
    let server: Fixture = await httpFixture((_req, res) => json(res, 200, { ok: true }));
    const port = server.port;
    await server.close();
    let restarts = 0;
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: TOKEN,
      timing: {
        now: () => Date.now(),
        random: () => 0,
        sleep: async () => {
          restarts += 1;
          if (restarts === 2) server = await httpFixture((_req, res) => json(res, 201, { created: true }), port);
        },
      },
    });
    open.push(client, { close: () => server.close() });
    expect(await client.request({ method: 'POST', path: '/v1/things', body: {} })).toEqual({ created: true });
    expect(restarts).toBe(2);
    expect(server.seen).toHaveLength(1);
  });

  it('gives up on a refused connection after the retries, with a ConnectionError naming the request', async () => {
    const gone = await httpFixture(() => undefined);
    await gone.close();
    const { timing } = recordingTiming();
    const client = createClient({ baseUrl: gone.url, token: TOKEN, timing, retries: 2 });
    open.push(client);
    const error = (await client.user.get().catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.causeCode).toBe('ECONNREFUSED');
    expect(error.message).toMatch(/^GET \/v1\/user: /);
    expect(client.stats.requests).toBe(3);
  });

  it('never puts the token in an error message, even when the server echoes it', async () => {
    const { client } = await setup((req, res) =>
      json(res, 400, { error: { code: 400, message: `bad header: ${req.headers.authorization} (${encodeURIComponent(TOKEN)})` } }),
    );
    const error = (await get(client).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(400);
    expect(error.message).toBe('bad header: Bearer *** (***)');
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(TOKEN);
  });

  it('sends the token to the API origin only, not to a download URL on another host', async () => {
    const storage = await httpFixture((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([1, 2, 3]));
    });
    open.push(storage);
    const { server, client } = await setup((_req, res) => json(res, 200, {}));
    const bytes = await client.content.download({ downloadURL: `${storage.url}/f/logo.png?sig=abc` });
    expect([...bytes]).toEqual([1, 2, 3]);
    expect(storage.seen[0]!.authorization).toBeUndefined();
    await client.request({ method: 'GET', path: '/v1/x' });
    expect(server.seen[0]!.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
