import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import { readState } from '../../src/sync/state/state.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { loadFolder } from '../../src/workspace/index.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test', ...args], { cwd: dir, encoding: 'utf8' });

describe('clone', () => {
  let s: TestServer;
  let work: string;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-clone-'));
  });
  afterAll(async () => {
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  async function seedSpace() {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Handbook', empty: true } })).body;
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Seed' } })).body;
    const write = (changes: unknown[]) =>
      s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { body: { changes } });
    const first = await write([
      { operation: 'insert_page', title: 'Welcome', document: { markdown: '# Welcome\n\nStart with [the guide](guides/README.md).\n' } },
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: { markdown: '# Guides\n\nAll guides.\n' } },
      {
        operation: 'insert_files',
        files: [{ name: 'logo.png', contentType: 'image/png', base64: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64') }],
      },
    ]);
    expect(first.status).toBe(200);
    const guides = first.body.changes.find((c: any) => c.ref === 'guides').page.id;
    expect(
      (
        await write([
          {
            operation: 'insert_page',
            into: guides,
            title: 'Install',
            description: 'How to install',
            document: { markdown: '# Install\n\nRun it. ![logo](../.gitbook/assets/logo.png)\n' },
          },
        ])
      ).status,
    ).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    const open = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'Fix typos in the guide!' } })).body;
    expect(
      (
        await s.request('POST', `/v1/spaces/${space.id}/change-requests/${open.id}/content`, {
          body: { changes: [{ operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nQuestions.\n' } }] },
        })
      ).status,
    ).toBe(200);
    return { spaceId: space.id as string, open };
  }

  it('creates a repository whose main is the live content and a branch per open change request', async () => {
    const { spaceId, open } = await seedSpace();
    const dir = join(work, 'handbook');
    const client = createClient({ baseUrl: s.url, token: s.token });
    try {
      const result = await clone({ client, apiUrl: s.url, spaceId, dir });
      expect(result.branches.map((b) => b.branch)).toEqual(['main', `cr/${open.number}-fix-typos-in-the-guide`]);
      expect(result.problems).toEqual([]);

      // The working tree is main, as the Git Sync layout.
      expect(await readFile(join(dir, 'SUMMARY.md'), 'utf8')).toBe(
        '# Table of contents\n\n* [Welcome](README.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n',
      );
      expect(await readFile(join(dir, 'guides/install.md'), 'utf8')).toContain('description: How to install');
      expect([...(await readFile(join(dir, '.gitbook/assets/logo.png')))]).toEqual([0x89, 0x50, 0x4e, 0x47]);

      // The folder is exactly the space's content written by the workspace format.
      const expected = snapshotOf(await fetchContent(client, { space: spaceId })).files;
      const onDisk = await loadFolder(dir);
      expect([...onDisk.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [path, bytes] of expected) expect(Buffer.from(onDisk.get(path) as Uint8Array).equals(Buffer.from(bytes)), path).toBe(true);

      // Plain git sees a clean tree, one commit on main naming the revision, the CR branch on top of it.
      expect(git(dir, 'status', '--porcelain')).toBe('');
      const revision = (await s.request('GET', `/v1/spaces/${spaceId}`)).body.revision;
      expect(git(dir, 'log', '--format=%s', 'main').trim()).toBe(`docsync: Handbook at revision ${revision}`);
      const crBranch = `cr/${open.number}-fix-typos-in-the-guide`;
      expect(git(dir, 'rev-parse', `${crBranch}^`).trim()).toBe(git(dir, 'rev-parse', 'main').trim());
      expect(git(dir, 'show', `${crBranch}:SUMMARY.md`)).toContain('* [FAQ](faq.md)');
      expect(git(dir, 'branch', '--format=%(refname:short)').trim().split('\n').sort()).toEqual([crBranch, 'main'].sort());

      const state = await readState(dir);
      expect(state.binding).toEqual({ apiUrl: s.url, spaceId });
      expect(state.branches.main!.remoteRevision).toBe(revision);
      expect(state.branches[crBranch]).toMatchObject({ changeRequestId: open.id, changeRequestNumber: open.number });
      expect(result.requests).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('refuses a folder that is not empty', async () => {
    const { spaceId } = await seedSpace();
    const client = createClient({ baseUrl: s.url, token: s.token });
    try {
      await expect(clone({ client, apiUrl: s.url, spaceId, dir: work })).rejects.toThrow(/not empty/);
    } finally {
      await client.close();
    }
  });
});
