import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { upsertMember } from '../../src/server/store/organizations.js';
import { initWorkspace } from '../../src/sync/init.js';
import { publishWorkspace } from '../../src/sync/publish.js';
import { clone } from '../../src/sync/clone.js';
import { push } from '../../src/sync/push/push.js';
import { status } from '../../src/sync/status.js';
import { readState } from '../../src/sync/state/state.js';
import { isUnbound } from '../../src/sync/state/unbound.js';
import { loadFolder } from '../../src/workspace/index.js';
import { git, remoteMarkdown } from './fixture.js';

const TEMPLATE = fileURLToPath(new URL('../../templates/workspace', import.meta.url));

/** The page tree of a space's live content: titles and slugs, nested. */
async function outline(s: TestServer, spaceId: string): Promise<unknown[]> {
  const res = await s.request('GET', `/v1/spaces/${spaceId}/content`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const walk = (pages: any[]): unknown[] => pages.map((p) => ({ title: p.title, slug: p.slug, pages: walk(p.pages ?? []) }));
  return walk(res.body.pages);
}

const spaceCount = async (s: TestServer, orgId: string, token?: string) =>
  (await s.request('GET', `/v1/orgs/${orgId}/spaces`, token ? { token } : {})).body.items.length as number;

describe('publishWorkspace', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-publish-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('creates the space in the only organization, puts the template live, and leaves a workspace like a fresh clone', async () => {
    const dir = join(work, 'handbook');
    const init = await initWorkspace(dir, TEMPLATE, { title: 'Handbook' });
    const result = await publishWorkspace(client, dir, { apiUrl: s.url });
    expect(result).toMatchObject({
      title: 'Handbook',
      orgId: s.orgId,
      url: expect.stringContaining(result.spaceId),
      conflicts: [],
      push: { skipped: [], counts: { inserted: 4 } },
    });
    expect(result.changeRequest?.number).toBeGreaterThan(0);

    const space = (await s.request('GET', `/v1/spaces/${result.spaceId}`)).body;
    expect(space).toMatchObject({ title: 'Handbook', revision: result.revision });
    expect(await outline(s, result.spaceId)).toEqual([
      { title: 'Welcome', slug: 'welcome', pages: [] },
      { title: 'Writing pages', slug: 'writing-pages', pages: [] },
      { title: 'Guides', slug: 'guides', pages: [{ title: 'Your first change', slug: 'first-change', pages: [] }] },
    ]);
    const cr = (await s.request('GET', `/v1/spaces/${result.spaceId}/change-requests/${result.changeRequest!.id}`)).body;
    expect(cr).toMatchObject({ status: 'merged', subject: 'Initial content of Handbook' });

    // Bound, nothing to push or pull, and the files are the template's, byte for byte.
    expect(await isUnbound(dir)).toBe(false);
    const state = await readState(dir);
    expect(state.binding).toEqual({ apiUrl: s.url, spaceId: result.spaceId });
    expect(Object.keys(state.branches)).toEqual(['main']);
    expect(state.branches.main).toMatchObject({ remoteRevision: result.revision });
    expect(state.branches.main!.outbox).toBeUndefined();
    expect(await loadFolder(dir)).toEqual(await loadFolder(TEMPLATE));
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(git(dir, 'diff', '--stat', init.commit, 'HEAD')).toBe('');
    expect(await status(client, dir)).toEqual([{ branch: 'main', current: true, committed: [], uncommitted: [], openComments: 0 }]);
    const again = await push(client, dir);
    expect(again.changes).toEqual([]);
    expect(again.changeRequest).toBeUndefined();

    // A clone of the new space is the same folder, with the same page ids.
    const cloned = join(work, 'handbook-clone');
    await clone({ client, apiUrl: s.url, spaceId: result.spaceId, dir: cloned });
    expect(await loadFolder(cloned)).toEqual(await loadFolder(dir));
    expect((await readState(cloned)).branches.main!.index).toEqual(state.branches.main!.index);
  });

  it('sends a later edit on main to a change request, as in any workspace', async () => {
    const dir = join(work, 'later');
    await initWorkspace(dir, TEMPLATE);
    const { spaceId } = await publishWorkspace(client, dir, { apiUrl: s.url });
    await writeFile(
      join(dir, 'writing-pages.md'),
      (await readFile(join(dir, 'writing-pages.md'), 'utf8')).replace('## Add a page', 'Edited after publishing.\n\n## Add a page'),
    );
    const pushed = await push(client, dir);
    expect(pushed.changeRequest).toMatchObject({ opened: true });
    expect(pushed.counts.updated).toBe(1);
    const pageId = (await readState(dir)).branches.main!.index.pages['writing-pages.md']!;
    expect(await remoteMarkdown(s, spaceId, pageId, pushed.changeRequest!.id)).toContain('Edited after publishing.');
    expect(await remoteMarkdown(s, spaceId, pageId)).not.toContain('Edited after publishing.');
  });

  it('publishes uncommitted edits made on main after init, and a title given at publish time', async () => {
    const dir = join(work, 'edited');
    await initWorkspace(dir, TEMPLATE);
    await writeFile(join(dir, 'README.md'), '# Welcome\n\nOur own first page.\n');
    const result = await publishWorkspace(client, dir, { apiUrl: s.url, title: 'Edited before publishing' });
    expect(result.title).toBe('Edited before publishing');
    const readmeId = (await readState(dir)).branches.main!.index.pages['README.md']!;
    expect(await remoteMarkdown(s, result.spaceId, readmeId)).toBe('Our own first page.\n');
    expect(await status(client, dir)).toEqual([{ branch: 'main', current: true, committed: [], uncommitted: [], openComments: 0 }]);
  });

  describe('choosing the organization', () => {
    let member: { id: string; token: string };
    let other: { id: string };
    let memberClient: Client;
    beforeAll(async () => {
      member = await s.user({ org: s.orgId, role: 'admin' });
      other = await s.organization('Second org');
      await upsertMember(s.server.db.kysely, { orgId: other.id, userId: member.id, role: 'admin' }, s.clock.now().toISOString());
      memberClient = createClient({ baseUrl: s.url, token: member.token });
    });
    afterAll(async () => {
      await memberClient?.close();
    });

    it('asks for one when the user is a member of several, naming them, and creates nothing', async () => {
      const dir = join(work, 'several');
      await initWorkspace(dir, TEMPLATE);
      const before = [await spaceCount(s, s.orgId, member.token), await spaceCount(s, other.id, member.token)];
      const error = await publishWorkspace(memberClient, dir, { apiUrl: s.url }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'choose-organization' });
      expect((error as Error).message).toMatch(/^you are a member of 2 organizations: .+; choose one with --org <id>$/);
      expect((error as Error).message).toContain(`${other.id} (Second org)`);
      expect([await spaceCount(s, s.orgId, member.token), await spaceCount(s, other.id, member.token)]).toEqual(before);
      expect(await isUnbound(dir)).toBe(true);
    });

    it('creates the space in the organization named', async () => {
      const dir = join(work, 'chosen');
      await initWorkspace(dir, TEMPLATE);
      const result = await publishWorkspace(memberClient, dir, { apiUrl: s.url, orgId: other.id });
      expect(result.orgId).toBe(other.id);
      const listed = (await s.request('GET', `/v1/orgs/${other.id}/spaces`, { token: member.token })).body.items.map((sp: any) => sp.id);
      expect(listed).toContain(result.spaceId);
    });

    it('refuses an organization the user is not a member of, creating nothing', async () => {
      const dir = join(work, 'not-mine');
      await initWorkspace(dir, TEMPLATE);
      const stranger = await s.organization('Not mine');
      await expect(publishWorkspace(client, dir, { apiUrl: s.url, orgId: stranger.id })).rejects.toMatchObject({
        code: 'choose-organization',
        message: `--org ${stranger.id}: no such organization among yours (${s.orgId} (${(await s.request('GET', `/v1/orgs/${s.orgId}`)).body.title}))`,
      });
      expect(await spaceCount(s, stranger.id, stranger.adminToken)).toBe(0);
      expect(await isUnbound(dir)).toBe(true);
    });
  });

  it('refuses a page tree it cannot read before creating a space', async () => {
    const dir = join(work, 'broken');
    await initWorkspace(dir, TEMPLATE);
    await writeFile(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Gone](gone.md)\n');
    const before = await spaceCount(s, s.orgId);
    await expect(publishWorkspace(client, dir, { apiUrl: s.url })).rejects.toMatchObject({
      code: 'unreadable-tree',
      details: [expect.stringContaining('gone.md')],
    });
    expect(await spaceCount(s, s.orgId)).toBe(before);
    expect(await isUnbound(dir)).toBe(true);
  });

  it('refuses a workspace already bound, and a folder docsync init did not make', async () => {
    const dir = join(work, 'twice');
    await initWorkspace(dir, TEMPLATE);
    const { spaceId } = await publishWorkspace(client, dir, { apiUrl: s.url });
    await expect(publishWorkspace(client, dir, { apiUrl: s.url })).rejects.toMatchObject({
      message: `${dir} is already bound to space ${spaceId}; use docsync push`,
    });
    await expect(publishWorkspace(client, work, { apiUrl: s.url })).rejects.toMatchObject({
      message: expect.stringContaining(`${work} was not made by docsync init`),
    });
  });
});
