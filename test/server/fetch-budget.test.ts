import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';
import { whileAttacked } from '../helpers/liveness.js';
import { FETCH_BUDGET } from '../../src/server/fetch/budget.js';

const HANGING = 5;
const site = `<html><head><title>Home</title></head><body><main><h1>Home</h1>${Array.from({ length: HANGING }, (_, i) => `<a href="hang${i}.html">${i}</a>`).join(' ')}</main></body></html>`;

// Issue 25, item 3: all the fetches of one request share one allowance.
describe.each(testDialects())('one fetch budget per request (%s)', (dialect) => {
  let s: TestServer;
  let src: Server;
  let base: string;
  const saved = { ...FETCH_BUDGET };
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    src = createServer((req, res) => {
      const path = req.url ?? '/';
      if (path.startsWith('/site/hang')) return; // never answers
      if (path === '/site/index.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end(site);
      res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(60, 1));
    });
    await new Promise<void>((resolve) => src.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(src.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s?.close();
    src?.closeAllConnections();
    await new Promise((resolve) => src?.close(resolve));
  });
  afterEach(() => {
    Object.assign(FETCH_BUDGET, saved);
  });

  async function batch(urls: number) {
    const space = await createSpace(s, { title: 'Fetches' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' } });
    const files = Array.from({ length: urls }, (_, i) => ({ name: `f${i}.png`, url: `${base}/file${i}.png` }));
    // Spread over several changes: the budget is the request's, not a change's.
    const changes = [files.slice(0, 3), files.slice(3)].filter((f) => f.length > 0).map((f) => ({ operation: 'insert_files', files: f }));
    return s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, { body: { changes } });
  }

  it('a batch makes at most maxFetches fetches, over all its insert_files changes', async () => {
    FETCH_BUDGET.maxFetches = 4;
    expect((await batch(4)).status).toBe(200);
    expectError(await batch(5), 400, /changes\[1\]\.files\[1\]\.url: .*one request may fetch at most 4 URLs/);
  });

  it('a batch fetches at most maxBytes together', async () => {
    FETCH_BUDGET.maxBytes = 150;
    expect((await batch(2)).status).toBe(200);
    expectError(await batch(3), 400, /changes\[0\]\.files\[2\]\.url: .*larger than 30 bytes/);
  });

  it('a website import with hanging links ends within the request budget, importing what answered', async () => {
    FETCH_BUDGET.totalMs = 1_500;
    const space = await createSpace(s, { title: 'Hanging' });
    const { result, ...work } = await whileAttacked(s, () =>
      s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url: `${base}/site/index.html`, source: 'website' } }),
    );
    expect(result.status).toBe(201);
    expect(result.body).toMatchObject({ importedResources: 1, totalResources: 1 + HANGING });
    // The hanging links are waited on, not worked on: other requests were answered meanwhile.
    expect(work.answeredDuringAttack).toBeGreaterThan(0);
  });
});
