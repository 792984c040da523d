import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

// Issue 25, item 7: an uploaded file never runs as a page of the server's origin.
describe.each(testDialects())('file downloads (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('serve HTML, SVG and other files as attachments, raster images inline, always with nosniff', async () => {
    const space = await createSpace(s, { title: 'Downloads' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' } });
    const files = [
      { name: 'page.html', contentType: 'text/html', base64: b64('<script>alert(1)</script>') },
      {
        name: 'logo.svg',
        contentType: 'image/svg+xml',
        base64: b64('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      },
      { name: 'photo.png', contentType: 'image/png', base64: b64('\x89PNG') },
      { name: 'notes.txt', contentType: 'text/plain', base64: b64('hello') },
    ];
    const res = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content?compat=false`, {
      body: { changes: [{ operation: 'insert_files', files }] },
    });
    expect(res.status).toBe(200);
    const expected: Record<string, string> = {
      'page.html': 'attachment',
      'logo.svg': 'attachment',
      'photo.png': 'inline',
      'notes.txt': 'attachment',
    };
    for (const file of res.body.insertedFiles as { name: string; downloadURL: string }[]) {
      const download = await fetch(file.downloadURL, { headers: { authorization: `Bearer ${s.token}` } });
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toBe(`${expected[file.name]}; filename*=UTF-8''${file.name}`);
      expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});
