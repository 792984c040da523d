import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { loadFolder } from '../../src/workspace/index.js';
import { clonedSpace, git } from './fixture.js';

const text = (folder: Map<string, Uint8Array | string>) =>
  new Map([...folder].map(([path, value]) => [path, typeof value === 'string' ? value : Buffer.from(value).toString('latin1')]));

// Issue 14: page files as GitBook writes them come back as written: an empty page as `# T\n`,
// `# T\n\n` or with more blank lines, and a page file without its title heading.
describe.each(testDialects())('page files keep their form (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-empty-pages-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('pushed, merged and cloned back byte for byte; a later edit of one of them is an ordinary edit', async () => {
    const t = await clonedSpace(s, client, work, 'empty');
    const pages = {
      'tight.md': '# Tight\n',
      'canonical.md': '# Canonical\n\n',
      'loose.md': '# Loose\n\n\n\n',
      'fronted.md': '---\nicon: link\n---\n\n# Fronted\n',
    };
    for (const [path, body] of Object.entries(pages)) await writeFile(join(t.dir, path), body);
    await writeFile(
      join(t.dir, 'SUMMARY.md'),
      '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Tight](tight.md)\n* [Canonical](canonical.md)\n* [Loose](loose.md)\n* [Fronted](fronted.md)\n',
    );
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Empty pages');
    const pushed = await push(client, t.dir);
    expect(pushed.skipped).toEqual([]);
    expect(pushed.normalised).toEqual([]);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${pushed.changeRequest!.id}/merge`)).status).toBe(200);
    await pull(client, t.dir);
    const back = join(work, 'empty-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    const cloned = text(await loadFolder(back));
    for (const [path, body] of Object.entries(pages)) expect(cloned.get(path), path).toBe(body);
    expect(cloned).toEqual(text(await loadFolder(t.dir)));

    await writeFile(join(back, 'tight.md'), '# Tight\n\nNow written.\n');
    git(back, 'add', '-A');
    git(back, 'commit', '-qm', 'Tight written');
    const edited = await push(client, back);
    expect(edited.changes).toMatchObject([{ operation: 'update_page' }]);
    expect(edited.normalised).toEqual([]);
  });

  it('a page file without its title heading is cloned back without one; adding the heading later is an update', async () => {
    const t = await clonedSpace(s, client, work, 'bare');
    const bare = '---\ndescription: No heading here\n---\n\n{% hint style="info" %}\nStraight to the point.\n{% endhint %}\n';
    await writeFile(join(t.dir, 'bare.md'), bare);
    await writeFile(join(t.dir, 'SUMMARY.md'), '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Bare page](bare.md)\n');
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'A page without its heading');
    const pushed = await push(client, t.dir);
    expect(pushed.changes).toMatchObject([{ operation: 'insert_page', title: 'Bare page', titleHeading: false }]);
    expect(pushed.normalised).toEqual([]);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${pushed.changeRequest!.id}/merge`)).status).toBe(200);
    const back = join(work, 'bare-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    expect(text(await loadFolder(back)).get('bare.md')).toBe(bare);

    // The writer adds the heading: an ordinary update, and the platform forgets the mark.
    await writeFile(join(back, 'bare.md'), bare.replace('---\n\n', '---\n\n# Bare page\n\n'));
    git(back, 'add', '-A');
    git(back, 'commit', '-qm', 'Heading');
    const headed = await push(client, back);
    expect(headed.changes).toMatchObject([{ operation: 'update_page', titleHeading: true }]);
    expect(headed.normalised).toEqual([]);
  });

  it('an empty description in front matter is cloned back as written (the platform stores it as none)', async () => {
    const t = await clonedSpace(s, client, work, 'blank-description');
    const page = '---\ndescription: \'\'\nicon: ""\nlayout:\n  width: wide\n---\n\n# Blank description\n\nText.\n';
    await writeFile(join(t.dir, 'blank.md'), page);
    await writeFile(
      join(t.dir, 'SUMMARY.md'),
      '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Blank description](blank.md)\n',
    );
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Blank description');
    const pushed = await push(client, t.dir);
    expect(pushed.normalised).toEqual([]);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${pushed.changeRequest!.id}/merge`)).status).toBe(200);
    const back = join(work, 'blank-description-reader');
    await clone({ client, apiUrl: s.url, spaceId: t.spaceId, dir: back });
    expect(text(await loadFolder(back)).get('blank.md')).toBe(page);
    await pull(client, t.dir);
    expect((await push(client, t.dir)).changes).toEqual([]);
  });
});
