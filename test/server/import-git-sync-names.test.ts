import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { expectSpec } from '../helpers/expect-spec.js';
import { createSpace } from '../helpers/spaces.js';

/** A folder as GitBook's Git Sync exports it: its own file names, link titles, a link page. */
const ZIP = zipSync({
  'docs-main/README.md': strToU8('# Welcome\n'),
  'docs-main/SUMMARY.md': strToU8(
    [
      '# Table of contents',
      '',
      '* [Welcome](README.md)',
      '',
      '## Getting Started',
      '',
      '* [Detox + Jest](getting-started/detox-+-jest.md "Detox")',
      '* [Changelog](https://example.com/CHANGELOG.md)',
      '',
    ].join('\n'),
  ),
  'docs-main/getting-started/detox-+-jest.md': strToU8('# Detox + Jest\n\nRun it.\n'),
});

describe.each(testDialects())('zip import of GitBook names (%s)', (dialect) => {
  let s: TestServer;
  let source: Server;
  let url: string;
  beforeAll(async () => {
    s = await startServer(dialect, { allowPrivateFetch: true });
    source = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/zip' }).end(ZIP));
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/docs.zip`;
  });
  afterAll(async () => {
    await s?.close();
    source?.closeAllConnections();
    await new Promise((resolve) => source?.close(resolve));
  });

  it('keeps file names as slugs, reads link titles and gives the group its folder', async () => {
    const space = await createSpace(s, { empty: true });
    const res = await s.request('POST', `/v1/spaces/${space.id}/content/import`, { body: { url, source: 'zip' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const pages = await s.request('GET', `/v1/spaces/${space.id}/content/pages?format=markdown`);
    expectSpec(pages, 'GET', '/spaces/{spaceId}/content/pages', 200);
    const [welcome, group] = pages.body.pages;
    expect(welcome).toMatchObject({ title: 'Welcome', git: { path: 'README.md' } });
    expect(group).toMatchObject({ type: 'group', slug: 'getting-started' });
    expect(group.pages[0]).toMatchObject({
      slug: 'detox-+-jest',
      linkTitle: 'Detox',
      git: { path: 'getting-started/detox-+-jest.md' },
      markdown: 'Run it.\n',
    });
    expect(group.pages[1]).toMatchObject({ type: 'link', href: 'https://example.com/CHANGELOG.md' });
  });
});
