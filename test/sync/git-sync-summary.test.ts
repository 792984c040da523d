import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { push } from '../../src/sync/push/push.js';
import { loadFolder } from '../../src/workspace/index.js';
import { git } from './fixture.js';

// SUMMARY.md constructs of real GitBook exports (issue 14), pushed into an empty space, merged
// and cloned back: the folder must come back as it was written.
const FOLDER: Record<string, string> = {
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Home](README.md)',
    '* [Formatting](formatting/README.md)',
    '  * [Inline](formatting/inline.md)',
    '  * [Buttons](formatting/inline.md#buttons)',
    '* [The \\`docsync\\` tool \\[beta\\]](tool.md "Tool")',
    '* [Status page](https://status.example.com/)',
    '* [API](api/README.md)',
    '  * ```yaml',
    '    props:',
    '      models: true',
    '    type: builtin:openapi',
    '    dependencies:',
    '      spec:',
    '        ref:',
    '          kind: openapi',
    '          spec: petstore',
    '    ```',
    '',
    '## <a href="#reference" id="reference"></a>API reference',
    '',
    '* [Auth](reference/auth.md)',
    '',
    '## Guides',
    '',
    '* [Install](guides/install.md)',
    '',
    '***',
    '',
    '* [Changelog](changelog.md)',
    '* ```yaml',
    '  type: builtin:openapi',
    '  props:',
    '    models: false',
    '    downloadLink: true',
    '  dependencies:',
    '    spec:',
    '      ref:',
    '        kind: openapi',
    '        spec: gitbook-petstore',
    '  ```',
    '',
  ].join('\n'),
  'README.md': '# Home\n\nWelcome.\n',
  'formatting/README.md': '# Formatting\n\nHow to write.\n',
  'formatting/inline.md': '# Inline\n\n## Buttons\n\nPress them.\n',
  'tool.md': '# The `docsync` tool [beta]\n\nIt syncs.\n',
  'reference/auth.md': '# Auth\n\nTokens.\n',
  'guides/install.md': '# Install\n\nRun it.\n',
  'changelog.md': '# Changelog\n\nNews.\n',
  'api/README.md': '# API\n\nThe reference.\n',
};

describe('SUMMARY.md as GitBook writes it, through push, merge and clone', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-summary-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('comes back byte for byte: `***` in place, anchor entries as link pages, group anchors, escapes, link titles, OpenAPI blocks', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Summary', empty: true } })).body;
    const dir = join(work, 'writer');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
    for (const entry of await readdir(dir)) if (entry !== '.git') await rm(join(dir, entry), { recursive: true, force: true });
    for (const [path, text] of Object.entries(FOLDER)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'Import');
    const pushed = await push(client, dir);
    expect(pushed.skipped).toEqual([]);
    await client.changeRequests.merge(space.id, pushed.changeRequest!.id);

    // On the platform: the anchor entry is a link page beside its page, the group has its slug.
    const pages = (await s.request('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const formatting = pages.find((p: { title: string }) => p.title === 'Formatting');
    expect(formatting.pages.map((p: { type: string; href?: string }) => [p.type, p.href])).toEqual([
      ['document', undefined],
      ['link', 'formatting/inline.md#buttons'],
    ]);
    expect(pages.map((p: { type: string; slug?: string; title: string }) => (p.type === 'group' ? `group:${p.slug}` : p.title))).toEqual([
      'Home',
      'Formatting',
      'The `docsync` tool [beta]',
      'Status page',
      'API',
      'group:reference',
      'group:guides',
      'Changelog',
      'gitbook-petstore',
    ]);
    // OpenAPI blocks are the published computed pages, their source in the order written.
    const api = pages.find((p: { title: string }) => p.title === 'API');
    expect(api.pages).toEqual([expect.objectContaining({ type: 'computed', title: 'petstore' })]);
    expect(Object.keys(api.pages[0].computed)).toEqual(['props', 'type', 'dependencies']);
    expect(pages.at(-1).computed).toEqual({
      type: 'builtin:openapi',
      props: { models: false, downloadLink: true },
      dependencies: { spec: { ref: { kind: 'openapi', spec: 'gitbook-petstore' } } },
    });

    const back = join(work, 'reader');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: back });
    const files = await loadFolder(back);
    const text = (path: string) => {
      const v = files.get(path);
      return typeof v === 'string' ? v : Buffer.from(v!).toString('utf8');
    };
    for (const [path, want] of Object.entries(FOLDER)) expect(text(path), path).toBe(want);
  });
});
