import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, safeFetch, type Resolve } from '../../src/server/fetch/safe-fetch.js';

/** A resolver that gives `answers[0]` the first time it is asked, `answers[1]` after that. */
function rebinding(...answers: string[][]): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<LookupAddress[]> => {
    const answer = answers[Math.min(calls.length, answers.length - 1)]!;
    calls.push(host);
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

// DNS rebinding (issue 25): the guard resolves a host once, checks the addresses, and the
// connection goes to those addresses; a name that answers a public address to the check and
// 127.0.0.1 to a second lookup never reaches the loopback service.
describe('the fetch guard connects to the address it checked', () => {
  let local: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    local = createServer((req, res) => {
      hits += 1;
      if (req.url === '/hop') res.writeHead(302, { location: `http://second.test:${port}/end` }).end();
      else res.end(`local ${req.url}`);
    });
    await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
    port = (local.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => local.close(r)));

  it('a name answering public, then 127.0.0.1: one lookup, the loopback service is never reached', async () => {
    const before = hits;
    // 93.184.216.34 is public unicast; the attempt to it is cut short by the timeout.
    const resolve = rebinding(['93.184.216.34'], ['127.0.0.1']);
    const fetching = safeFetch(`http://rebind.test:${port}/secret`, { allowPrivate: false, maxBytes: 1024, timeoutMs: 500, resolve });
    await expect(fetching).rejects.toBeInstanceOf(FetchError);
    expect(resolve.calls).toEqual(['rebind.test']);
    expect(hits).toBe(before);
  });

  it('connects to the first answer, not a second lookup (private fetching allowed, so the answers can be local)', async () => {
    const resolve = rebinding(['127.0.0.1'], ['10.255.255.1']);
    const fetched = await safeFetch(`http://rebind.test:${port}/page`, { allowPrivate: true, maxBytes: 1024, timeoutMs: 5_000, resolve });
    expect(fetched.bytes.toString()).toBe('local /page');
    expect(resolve.calls).toEqual(['rebind.test']);
  });

  it('resolves each hop of a redirect once and connects to what it checked', async () => {
    const resolve = rebinding(['127.0.0.1'], ['127.0.0.1'], ['10.255.255.1']);
    const fetched = await safeFetch(`http://first.test:${port}/hop`, { allowPrivate: true, maxBytes: 1024, timeoutMs: 5_000, resolve });
    expect(fetched).toMatchObject({ url: `http://second.test:${port}/end` });
    expect(fetched.bytes.toString()).toBe('local /end');
    expect(resolve.calls).toEqual(['first.test', 'second.test']);
  });

  it('refuses a name whose only answer is loopback, before connecting', async () => {
    const before = hits;
    const resolve = rebinding(['127.0.0.1']);
    await expect(safeFetch(`http://loop.test:${port}/`, { allowPrivate: false, maxBytes: 1024, resolve })).rejects.toThrow(
      /refused, 127\.0\.0\.1 is a loopback address/,
    );
    expect(hits).toBe(before);
  });
});
