import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { update } from '../../src/sync/change-requests/update.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { changeRequestWith, clonedSpace, editMain, git, remoteMarkdown } from './fixture.js';

describe('update', () => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-update-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('brings an edit made on main meanwhile into the change request, then pulls the branch into its local commits', async () => {
    const t = await clonedSpace(s, client, work, 'updated');
    const cr = await changeRequestWith(s, t.spaceId, 'Beta work', [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, in review\n' } },
    ]);
    await pull(client, t.dir);
    const branch = `cr/${cr.number}-beta-work`;
    git(t.dir, 'checkout', '-q', branch);
    // Local work on the branch, committed and not: update must merge into it, not replace it.
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, in review\n\nA local paragraph.\n');
    git(t.dir, 'commit', '-qam', 'local paragraph');
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo, edited on main\nthree\n' } },
    ]);
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`)).body.outdated).toBe(true);

    const result = await update(client, t.dir);
    expect(result).toMatchObject({ kind: 'updated', branch, changeRequest: cr.number });
    const remote = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`)).body;
    expect(remote.outdated).toBe(false);
    expect(result.kind === 'updated' && result.revision).toBe(remote.revision);
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, cr.id)).toContain('two, edited on main');
    expect(result.kind === 'updated' && result.pulled).toMatchObject([
      { branch, conflicts: [], changes: [{ path: 'README.md', status: 'modified' }] },
    ]);

    expect(await readFile(join(t.dir, 'README.md'), 'utf8')).toBe('# Alpha\n\none\ntwo, edited on main\nthree\n');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nbeta text, in review\n\nA local paragraph.\n');
    expect((await readState(t.dir)).branches[branch]!.remoteRevision).toBe(remote.revision);
    // Only the branch was pulled: main still waits for its own pull.
    expect(git(t.dir, 'show', 'main:README.md')).toBe('# Alpha\n\none\ntwo\nthree\n');
  });

  it('reports the pages in conflict when main and the change request changed the same line, and changes nothing', async () => {
    const t = await clonedSpace(s, client, work, 'update-conflict');
    const cr = await changeRequestWith(s, t.spaceId, 'Clash', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo from the change request\nthree\n' } },
    ]);
    await pull(client, t.dir);
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo from main\nthree\n' } },
    ]);
    const before = (await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`)).body.revision;
    const stateBefore = await readState(t.dir);

    const result = await update(client, t.dir, `cr/${cr.number}-clash`);
    expect(result).toMatchObject({
      kind: 'conflict',
      changeRequest: cr.number,
      conflicts: [{ kind: 'page', title: 'Alpha', path: 'README.md' }],
    });
    expect(result.kind === 'conflict' && result.message).toContain('cannot be updated');
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`)).body.revision).toBe(before);
    expect(await readState(t.dir)).toEqual(stateBefore);
  });

  it('refuses main and a change request that is merged or archived', async () => {
    const t = await clonedSpace(s, client, work, 'update-refused');
    await expect(update(client, t.dir)).rejects.toThrow(
      'main is the live content, not a change request; update works on a change request branch',
    );
    const cr = await changeRequestWith(s, t.spaceId, 'Done', [{ operation: 'update_page', page: t.beta, title: 'Beta done' }]);
    await pull(client, t.dir);
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
    await expect(update(client, t.dir, `cr/${cr.number}-done`)).rejects.toThrow(
      `change request #${cr.number} of cr/${cr.number}-done is merged: there is nothing to update`,
    );
  });
});
