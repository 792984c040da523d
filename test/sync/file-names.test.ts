import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { push } from '../../src/sync/push/push.js';
import { git } from './fixture.js';

// File names seen in real GitBook exports (issue 14): each is pushed and cloned back unchanged.
const SCREENSHOT = 'Screenshot 2024-05-02 at 3.14.15\u202FPM.png';
const NFC = 'r\u00e9sum\u00e9.png';
const NFD = 're\u0301sume\u0301.png';
const ASSETS = ['image (1).png', 'Plans & Pricing.png', '+Aggiungi.PNG', '+aggiungi.PNG', SCREENSHOT, NFC, NFD];
const PAGES = ['detox-+-jest.md', 'q&a.md'];

describe('file names as GitBook exports have them, through push, merge and clone', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-names-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('keeps spaces, (1), +, &, U+202F, NFC beside NFD and names differing only in case', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Names', empty: true } })).body;
    const dir = join(work, 'writer');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
    for (const entry of await readdir(dir)) if (entry !== '.git') await rm(join(dir, entry), { recursive: true, force: true });
    const files: Record<string, string> = {
      '.gitbook.yaml': 'root: ./\n',
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Detox + Jest](detox-+-jest.md)\n* [Q&A](q&a.md)\n',
      'README.md': `# Home\n\n${ASSETS.map((name) => (/[\s()]/.test(name) ? `![](<.gitbook/assets/${name}>)` : `![](.gitbook/assets/${name})`)).join('\n\n')}\n`,
      'detox-+-jest.md': '# Detox + Jest\n\nText.\n',
      'q&a.md': '# Q&A\n\nText.\n',
    };
    ASSETS.forEach((name, i) => (files[`.gitbook/assets/${name}`] = `bytes ${i}`));
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'Import');
    const pushed = await push(client, dir);
    expect(pushed.skipped).toEqual([]);
    await client.changeRequests.merge(space.id, pushed.changeRequest!.id);

    const back = join(work, 'reader');
    await clone({ client, apiUrl: s.url, spaceId: space.id, dir: back });
    const names = (await readdir(join(back, '.gitbook', 'assets'))).sort();
    expect(names).toEqual([...ASSETS].sort());
    expect(git(back, '-c', 'core.quotepath=off', 'ls-files', '-z').split('\0').filter(Boolean).sort()).toEqual(Object.keys(files).sort());
    for (const page of PAGES) expect((await readdir(back)).includes(page), page).toBe(true);
    for (const [path, text] of Object.entries(files)) expect(git(back, 'show', `HEAD:${path}`), path).toBe(text);
  });
});
