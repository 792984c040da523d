import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { startPreview } from '../../src/preview/index.js';
import { platformSpecs } from '../../src/cli/commands/preview-specs.js';

const SHOP =
  'openapi: 3.0.3\ninfo: { title: Shop, version: "1" }\npaths:\n  /orders:\n    get:\n      summary: List orders\n      responses:\n        "200": { description: The orders }\n';

let s: TestServer;
const saved = { token: process.env.DOCSYNC_TOKEN, url: process.env.DOCSYNC_API_URL };
beforeAll(async () => {
  s = await startServer('sqlite');
  process.env.DOCSYNC_TOKEN = s.token;
  delete process.env.DOCSYNC_API_URL;
});
afterAll(async () => {
  if (saved.token === undefined) delete process.env.DOCSYNC_TOKEN;
  else process.env.DOCSYNC_TOKEN = saved.token;
  if (saved.url !== undefined) process.env.DOCSYNC_API_URL = saved.url;
  await s?.close();
});

describe('docsync preview in a bound workspace: OpenAPI blocks from the platform', () => {
  it("renders blocks naming a spec of the space's organization by slug, and leaves unknown ones placeholders", async () => {
    expect((await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, { body: { slug: 'shop', source: { text: SHOP } } })).status).toBe(201);
    const space = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Docs' } });
    const dir = await mkdtemp(join(tmpdir(), 'docsync-preview-specs-'));
    const client = createClient({ baseUrl: s.url, token: s.token });
    await clone({ client, apiUrl: s.url, spaceId: space.body.id, dir });
    await client.close();
    await writeFile(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Orders](README.md)\n');
    await writeFile(
      join(dir, 'README.md'),
      [
        '# Orders',
        '',
        '{% openapi-operation spec="shop" path="/orders" method="get" %}',
        '{% endopenapi-operation %}',
        '',
        '{% swagger src="shop" path="/orders" method="get" %}',
        '{% endswagger %}',
        '',
        '{% openapi-operation spec="nope" path="/orders" method="get" %}',
        '{% endopenapi-operation %}',
        '',
      ].join('\n'),
    );
    const specs = await platformSpecs(dir);
    expect(specs).toBeDefined();
    const preview = await startPreview({ dir, port: 0, specs: specs!.resolve });
    try {
      const html = await (await fetch(`${preview.url}/`)).text();
      expect(html).toContain('gb-openapi-block gb-openapi-operation');
      expect(html).toContain('gb-openapi-block gb-swagger');
      expect(html.match(/<strong>List orders<\/strong>/g)).toHaveLength(2);
      expect(html).toContain('from nope');
    } finally {
      await preview.close();
      await specs!.close();
    }
    // A folder that is no workspace asks no platform.
    expect(await platformSpecs(await mkdtemp(join(tmpdir(), 'docsync-unbound-')))).toBeUndefined();
  });
});
