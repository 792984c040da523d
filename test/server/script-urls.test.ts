import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectError } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

const SCRIPTS = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'vbscript:msgbox(1)', 'data:text/html,<script>alert(1)</script>'];

// Issue 25, item 7: nothing people click is stored as a URL a browser would run.
describe.each(testDialects())('script URLs (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('a link page refuses javascript:, vbscript: and data: targets, naming the field; https and mailto are kept', async () => {
    const space = await createSpace(s, { title: 'Links' });
    const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' } });
    const write = (href: string) =>
      s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
        body: { changes: [{ operation: 'insert_page', type: 'link', title: 'L', href, document: {} }] },
      });
    for (const href of SCRIPTS) expectError(await write(href), 400, /href.*must not be a (javascript|vbscript|data): URL/);
    expect((await write('https://example.com/')).status).toBe(200);
    expect((await write('mailto:docs@example.com')).status).toBe(200);
  });

  it('an organization logo must be an http or https URL', async () => {
    for (const logo of [...SCRIPTS, 'ftp://example.com/logo.png']) {
      // Some are not even URIs to the schema; the rest are refused for their scheme.
      expectError(
        await s.request('PATCH', `/v1/orgs/${s.orgId}`, { body: { logo } }),
        400,
        /body\.logo must be (an http or https URL|a valid uri)/,
      );
    }
    expectError(
      await s.request('PATCH', `/v1/orgs/${s.orgId}`, { body: { logo: 'javascript:alert(1)' } }),
      400,
      /must be an http or https URL \(must not be a javascript: URL/,
    );
    const ok = await s.request('PATCH', `/v1/orgs/${s.orgId}`, { body: { logo: 'https://example.com/logo.png' } });
    expect(ok.status).toBe(200);
  });
});
