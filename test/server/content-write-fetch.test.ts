import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeFetch } from '../../src/server/fetch/safe-fetch.js';
import { addressProblem } from '../../src/server/fetch/address.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    if (url.pathname === '/redirect') {
      res.writeHead(302, { location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/file.txt' }).end();
    } else if (url.pathname === '/file.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    } else if (url.pathname === '/big') {
      // No content-length: the cap must hold while streaming too.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(600));
      res.end(Buffer.alloc(600));
    } else if (url.pathname === '/slow') {
      res.writeHead(200);
      res.write('a');
      // Never ends: the timeout must cut it.
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const open = { allowPrivate: true, maxBytes: 1000 };

describe('addressProblem', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    '255.255.255.255',
  ])('refuses %s', (address) => expect(addressProblem(address)).toMatch(/is a|not an IP/));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });
});

describe('safeFetch', () => {
  it('fetches bytes and the content type', async () => {
    const got = await safeFetch(`${base}/file.txt`, open);
    expect(got.bytes.toString()).toBe('hello');
    expect(got.contentType).toBe('text/plain');
  });

  it('follows up to 5 redirects and refuses a sixth', async () => {
    expect((await safeFetch(`${base}/redirect?hops=5`, open)).url).toBe(`${base}/file.txt`);
    await expect(safeFetch(`${base}/redirect?hops=6`, open)).rejects.toThrow(/more than 5 redirects/);
  });

  it('refuses loopback unless private fetches are allowed', async () => {
    await expect(safeFetch(`${base}/file.txt`, { ...open, allowPrivate: false })).rejects.toThrow(
      /refused, 127\.0\.0\.1 is a loopback address/,
    );
    await expect(safeFetch('http://[::1]:1/x', { ...open, allowPrivate: false })).rejects.toThrow(/loopback/);
    await expect(safeFetch('http://localhost:1/x', { ...open, allowPrivate: false })).rejects.toThrow(/loopback/);
  });

  it('refuses IPv4-compatible IPv6 literals, which some stacks route to the IPv4 address they carry', async () => {
    for (const host of ['[::127.0.0.1]', '[::a9fe:a9fe]', '[::7f00:1]', '[::10.0.0.1]']) {
      await expect(safeFetch(`http://${host}:1/x`, { ...open, allowPrivate: false })).rejects.toThrow(/IPv4-compatible IPv6/);
    }
  });

  it('caps the size while streaming', async () => {
    await expect(safeFetch(`${base}/big`, open)).rejects.toThrow(/larger than 1000 bytes/);
  });

  it('times out', async () => {
    await expect(safeFetch(`${base}/slow`, { ...open, timeoutMs: 200 })).rejects.toThrow(/no answer within 200 ms/);
  });

  it('refuses other schemes, bad URLs and error statuses', async () => {
    await expect(safeFetch('file:///etc/passwd', open)).rejects.toThrow(/only http and https/);
    await expect(safeFetch('not a url', open)).rejects.toThrow(/not a valid URL/);
    await expect(safeFetch(`${base}/missing`, open)).rejects.toThrow(/HTTP 404/);
  });
});
