import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { httpFixture, json } from './http-fixture.js';

/** A server that allows `limit` requests per whole second, as the hosted API's headers say. */
function limitedHandler(limit: number) {
  let window = 0;
  let used = 0;
  const refused: number[] = [];
  const handler: Parameters<typeof httpFixture>[0] = (_req, res, _seen, index) => {
    const second = Math.floor(Date.now() / 1000);
    if (second !== window) {
      window = second;
      used = 0;
    }
    const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-reset': String(second + 1) };
    if (used >= limit) {
      refused.push(index);
      json(res, 429, { error: { code: 429, message: 'rate limited' } }, { ...headers, 'x-ratelimit-remaining': '0' });
      return;
    }
    used += 1;
    json(res, 200, { ok: true }, { ...headers, 'x-ratelimit-remaining': String(limit - used) });
  };
  return { handler, refused };
}

describe("the client keeps inside the server's rate limit", () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  it('waits for the window to end when what is left is in flight: 12 requests at 5 a second, none refused', async () => {
    const { handler, refused } = limitedHandler(5);
    const server = await httpFixture(handler);
    const client = createClient({ baseUrl: server.url, token: 'tok', concurrency: 2 });
    open.push(server, client);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => client.request<{ ok: boolean }>({ method: 'GET', path: '/v1/thing' })),
    );
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(refused).toEqual([]);
    expect(server.seen).toHaveLength(12);
  });
});
