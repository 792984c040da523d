import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientError, createClient } from '../../src/client/index.js';
import { httpFixture, json } from './http-fixture.js';

describe('client queue', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  /**
   * A server that holds each request until `bound` are in flight (or the last of `total` has
   * arrived, or a long grace period ends), so a client that respected no bound would show more
   * than `bound` at once, and one that respects it shows exactly `bound`.
   */
  async function countingServer(bound: number, total: number) {
    let inFlight = 0;
    let most = 0;
    let arrived = 0;
    const waiting: (() => void)[] = [];
    const server = await httpFixture(async (_req, res) => {
      inFlight += 1;
      arrived += 1;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 5_000);
        if (inFlight >= bound || arrived === total) for (const release of waiting.splice(0)) release();
      });
      inFlight -= 1;
      json(res, 200, { ok: true });
    });
    open.push(server);
    return { server, most: () => most };
  }

  it.each([1, 3, 8])('keeps at most %i requests in flight', async (concurrency) => {
    const { server, most } = await countingServer(concurrency, 40);
    const client = createClient({ baseUrl: server.url, token: 't', concurrency });
    open.push(client);
    await Promise.all(Array.from({ length: 40 }, (_, i) => client.request({ method: 'GET', path: `/v1/r/${i}` })));
    expect(server.seen).toHaveLength(40);
    expect(most()).toBeLessThanOrEqual(concurrency);
    expect(most()).toBe(concurrency);
  });

  it('defaults to 8 in flight', async () => {
    const { server, most } = await countingServer(8, 30);
    const client = createClient({ baseUrl: server.url, token: 't' });
    open.push(client);
    await Promise.all(Array.from({ length: 30 }, () => client.request({ method: 'GET', path: '/v1/r' })));
    expect(most()).toBe(8);
  });

  it('starts at most requestsPerSecond requests in each one-second interval', async () => {
    // The queue's clock is faked: an interval ends only when the test moves the clock on, so what
    // starts in it cannot depend on how long this machine takes to send and answer a request (a
    // loaded one once took more than 100 ms longer over the first request than the fourth).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const arrivals: number[] = [];
      const server = await httpFixture((_req, res) => {
        arrivals.push(Date.now());
        json(res, 200, { ok: true });
      });
      const client = createClient({ baseUrl: server.url, token: 't', requestsPerSecond: 3 });
      open.push(server, client);
      const first = Date.now();
      const answers = Array.from({ length: 7 }, () => client.request({ method: 'GET', path: '/v1/r' }));
      // Each interval's requests are answered before the clock moves on: nothing else can start.
      await Promise.all(answers.slice(0, 3));
      expect(arrivals.map((t) => t - first)).toEqual([0, 0, 0]);
      await vi.advanceTimersByTimeAsync(999);
      expect(arrivals).toHaveLength(3);
      await vi.advanceTimersByTimeAsync(1);
      await Promise.all(answers.slice(3, 6));
      expect(arrivals.map((t) => t - first)).toEqual([0, 0, 0, 1000, 1000, 1000]);
      await vi.advanceTimersByTimeAsync(1000);
      await Promise.all(answers);
      expect(arrivals.map((t) => t - first)).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    [{ concurrency: 0 }, /`concurrency` must be a whole number of at least 1, got 0/],
    [{ concurrency: 2.5 }, /`concurrency`.*got 2.5/],
    [{ requestsPerSecond: -1 }, /`requestsPerSecond`.*got -1/],
    [{ retries: -1 }, /`retries`.*got -1/],
    [{ baseUrl: 'ftp://x' }, /`baseUrl` must be an http\(s\) URL/],
    [{ baseUrl: 'http://user:pw@host' }, /must not hold a user name or password/],
    [{ token: '' }, /`token` must be a non-empty string/],
    [{ token: 'abc\r\nX-Evil: 1' }, /`token` must not contain/],
  ])('refuses bad options %j with a message naming the option', (bad, message) => {
    const build = () => createClient({ baseUrl: 'http://127.0.0.1:1', token: 't', ...bad });
    expect(build).toThrow(ClientError);
    expect(build).toThrow(message);
  });

  it('keeps the token out of option errors', () => {
    try {
      createClient({ baseUrl: 'http://127.0.0.1:1', token: 'sekrit\nvalue' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).not.toContain('sekrit');
    }
  });
});
