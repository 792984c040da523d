import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

const BAD_NAMES = [
  '../../../../tmp/pwned.txt',
  '/etc/passwd',
  '..',
  '.',
  'a\\b',
  'a\nb.txt',
  'evil\u202Egnp.exe',
  'a//b.png',
  'C:x.png',
  'x'.repeat(257),
];
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

// Issue 25, item 7: a file's name becomes its Git Sync path (`.gitbook/assets/<name>`).
describe.each(testDialects())('file names (%s)', (dialect) => {
  let s: TestServer;
  let src: Server;
  let srcUrl: string;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    src = createServer((req, res) => {
      const name = decodeURIComponent((req.url ?? '/').slice(1));
      res
        .writeHead(200, { 'content-type': 'application/zip' })
        .end(zipSync({ 'README.md': strToU8('# Hi\n'), [`.gitbook/assets/${name}`]: PNG }));
    });
    await new Promise<void>((resolve) => src.listen(0, '127.0.0.1', resolve));
    srcUrl = `http://127.0.0.1:${(src.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s?.close();
    src?.closeAllConnections();
    await new Promise((resolve) => src?.close(resolve));
  });

  it.each(BAD_NAMES.map((n) => [JSON.stringify(n).slice(0, 40), n]))(
    'insert_files refuses %s with 400 naming the field',
    async (_label, name) => {
      const space = await createSpace(s, { title: 'Files' });
      const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' } });
      const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
        body: {
          changes: [
            { operation: 'insert_files', files: [{ name, contentType: 'image/png', base64: Buffer.from(PNG).toString('base64') }] },
          ],
        },
      });
      // Over 256 characters the schema refuses it first; either way the field is named.
      expectError(res, 400, /files(\[0\]|\.0)\.name/);
    },
  );

  it('keeps a plain name and a name in a folder', async () => {
    const space = await createSpace(s, { title: 'Files ok' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' } });
    const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
      body: {
        changes: [
          {
            operation: 'insert_files',
            files: ['logo.png', 'img/déjà vu.png'].map((name) => ({
              name,
              contentType: 'image/png',
              base64: Buffer.from(PNG).toString('base64'),
            })),
          },
        ],
      },
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['with a . segment', 'img/./x.png'],
    ['a 300-character name', 'y'.repeat(300)],
    ['a bidi override', 'x\u202Etxt.png'],
    ['a newline', 'a\nb.png'],
  ])('a zip import refuses an asset named %s', async (_label, name) => {
    const space = await createSpace(s, { title: 'Zip' });
    const res = await s.request('POST', `/v1/spaces/${space.id}/content/import`, {
      body: { url: `${srcUrl}/${encodeURIComponent(name)}`, source: 'zip' },
    });
    expectError(res, 400, /zip entry/);
  });
});
