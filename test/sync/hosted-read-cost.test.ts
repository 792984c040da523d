import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { pull } from '../../src/sync/pull/pull.js';
import { push } from '../../src/sync/push/push.js';
import { mirror } from '../../src/sync/mirror.js';
import { hostedProxy, type HostedProxy } from '../helpers/hosted-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { editMain, git } from './fixture.js';

const PAGES = 40;

/**
 * Against the hosted API every page body and file is a request of its own: reads must cost what
 * changed, not what the space holds (issue 16's targets: a clone at most one request per distinct
 * page and file plus 5; a pull of one remote page edit at most 10).
 */
describe('reads through the hosted API cost what changed', () => {
  let s: TestServer;
  let proxy: HostedProxy;
  let client: Client;
  let work: string;
  beforeAll(async () => {
    s = await startServer('sqlite');
    proxy = await hostedProxy(s.url);
    client = createClient({ baseUrl: proxy.url, token: s.token });
    work = await mkdtemp(join(tmpdir(), 'docsync-hosted-cost-'));
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('clones with one request per distinct page body, then pulls one remote edit in a few requests', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'cost', empty: true } })).body;
    const ids = await editMain(
      s,
      space.id,
      Array.from({ length: PAGES }, (_, i) => ({
        operation: 'insert_page',
        ref: `p${i}`,
        title: `Page ${i}`,
        document: { markdown: `# Page ${i}\n\nText ${i}.\n` },
      })),
    );
    // A change request sharing every page but one with main.
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'One edit' } })).body;
    await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
      body: { changes: [{ operation: 'update_page', page: ids.get('p1'), document: { markdown: '# Page 1\n\nEdited in review.\n' } }] },
    });

    const dir = join(work, 'cost');
    let before = proxy.seen.length;
    await clone({ client, apiUrl: proxy.url, spaceId: space.id, dir });
    const cloneRequests = proxy.seen.slice(before);
    const bodyReads = cloneRequests.filter((r) => /\/page\/[^/?]+\?/.test(r));
    // 40 bodies on main, 1 changed in the change request: 41 distinct bodies.
    expect(bodyReads.length).toBe(PAGES + 1);
    expect(cloneRequests.length).toBeLessThanOrEqual(PAGES + 1 + 5 + 2);
    expect(await readFile(join(dir, 'page-3.md'), 'utf8')).toContain('Text 3.');

    await editMain(s, space.id, [
      { operation: 'update_page', page: ids.get('p7'), document: { markdown: '# Page 7\n\nEdited on the platform.\n' } },
    ]);
    before = proxy.seen.length;
    const [main] = await pull(client, dir, { branches: ['main'] });
    const pullRequests = proxy.seen.slice(before);
    expect(main!.changes.map((c) => c.path)).toEqual(['page-7.md']);
    expect(await readFile(join(dir, 'page-7.md'), 'utf8')).toContain('Edited on the platform.');
    expect(pullRequests.filter((r) => /\/page\/[^/?]+\?/.test(r))).toHaveLength(1);
    expect(pullRequests.length, pullRequests.join('\n')).toBeLessThanOrEqual(10);

    // A push of one page edit: the change request opened, the batch, the page read back.
    git(dir, 'checkout', '-q', '-b', 'edit');
    await writeFile(join(dir, 'page-3.md'), '# Page 3\n\nEdited in the workspace.\n');
    git(dir, 'commit', '-qam', 'Edit page 3');
    before = proxy.seen.length;
    await push(client, dir);
    const pushRequests = proxy.seen.slice(before);
    expect(pushRequests.length, pushRequests.join('\n')).toBeLessThanOrEqual(5);

    // A first mirror of the organization is a clone of each space plus its listing.
    before = proxy.seen.length;
    await mirror({ client, apiUrl: proxy.url, orgId: s.orgId, dir: join(work, 'mirror') });
    const mirrorRequests = proxy.seen.slice(before);
    const mirrorBodies = mirrorRequests.filter((r) => /\/page\/[^/?]+\?/.test(r)).length;
    // Main's 40 bodies, the review's edit, page 7 as the review (and its base, read at the same
    // time) still has it, and the push's edit: each distinct body read once.
    expect(mirrorBodies).toBe(PAGES + 3);
    expect(mirrorRequests.length, mirrorRequests.join('\n')).toBeLessThanOrEqual(PAGES + 3 + 5 + 2);
  });
});
