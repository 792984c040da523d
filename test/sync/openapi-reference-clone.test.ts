import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { pull } from '../../src/sync/pull/pull.js';
import { push } from '../../src/sync/push/push.js';
import { loadFolder } from '../../src/workspace/index.js';
import { PETS_V1 } from '../helpers/openapi-fixture.js';
import { git } from './fixture.js';

const SPEC = PETS_V1.replace('items: { $ref: "schemas/pet.yaml" }', 'items: { type: object }');

const FOLDER: Record<string, string> = {
  'SUMMARY.md': [
    '# Table of contents',
    '',
    '* [Home](README.md)',
    '* ```yaml',
    '  type: builtin:openapi',
    '  props:',
    '    models: true',
    '  dependencies:',
    '    spec:',
    '      ref:',
    '        kind: openapi',
    '        spec: pets',
    '  ```',
    '',
  ].join('\n'),
  'README.md': '# Home\n\nWelcome.\n',
};

// API reference pages are generated on read (docs/api.md): a clone or pull of a space with an
// OpenAPI block writes the block, never the generated pages, and has nothing to push back.
describe('a space with an API reference, cloned', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-openapi-ref-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('holds only the block', async () => {
    expect((await s.request('POST', `/v1/orgs/${s.orgId}/openapi`, { body: { slug: 'pets', source: { text: SPEC } } })).status).toBe(201);
    // A spec given as text is processed by the request itself: its version is there at once.
    expect((await s.request('GET', `/v1/orgs/${s.orgId}/openapi/pets`)).body.lastVersion).toEqual(expect.any(String));
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'API', empty: true } })).body;
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
    await client.changeRequests.merge(space.id, pushed.changeRequest!.id);

    // The platform generates the reference's pages ...
    const pages = (await s.request('GET', `/v1/spaces/${space.id}/content/pages`)).body.pages;
    const reference = pages.find((p: { type: string }) => p.type === 'computed');
    expect(reference.pages.map((p: { title: string }) => p.title)).toEqual(['pets']);
    expect(reference.pages[0].pages.map((p: { title: string }) => p.title)).toEqual(['List pets']);

    // ... and a clone holds the block alone, as written.
    const back = join(work, 'reader');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: back });
    const files = await loadFolder(back);
    const pagesOf = (keys: Iterable<string>) => [...keys].filter((p) => !p.startsWith('.git')).sort();
    expect(pagesOf(files.keys())).toEqual(Object.keys(FOLDER).sort());
    for (const [path, want] of Object.entries(FOLDER)) expect(String(Buffer.from(files.get(path)!)), path).toBe(want);

    // Pull and push of the writer's folder find nothing to send back.
    await pull(client, dir);
    const again = await push(client, dir);
    expect(again.changes).toEqual([]);
    const writerFiles = await loadFolder(dir);
    expect(pagesOf(writerFiles.keys())).toEqual(Object.keys(FOLDER).sort());
  });
});
