import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type Client } from '../../src/client/index.js';
import type { ChangeRequest } from '../../src/model/index.js';
import { adoptMain } from '../../src/sync/push/adopt-main.js';
import type { BranchState } from '../../src/sync/state/state.js';
import { git } from './fixture.js';

// White-box: what push's adopt-main sends when main's update conflicts (issue 13). The revert
// that lets main in is docsync's own edit; when it does not let main in, the change request must
// not keep it (a later pull would take it for a reviewer's edit and drop the writer's text).
describe('adoptMain', () => {
  let dir: string;
  let head: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docsync-adopt-main-'));
    git(dir, 'init', '-q', '-b', 'main');
    await writeFile(join(dir, 'README.md'), '# Alpha\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'one');
    head = git(dir, 'rev-parse', 'HEAD').trim();
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const conflict = () =>
    new ApiError(409, 'change request #3 cannot be updated: 1 conflict; page "Beta" (beta1): changed on one side and deleted on the other');

  function stub(updates: (() => void)[]) {
    const writes: unknown[] = [];
    const client = {
      spaces: { get: async () => ({ revision: 'main-rev' }) },
      changeRequests: {
        update: async () => {
          updates.shift()!();
          return {};
        },
      },
      content: {
        write: async (_space: string, _cr: string, changes: unknown[]) => {
          writes.push(changes);
          return { changeRequest: { revision: `reverted-${writes.length}` } };
        },
      },
    } as unknown as Client;
    return { client, writes };
  }
  const main = () => ({ remoteRevision: 'main-rev', syncedCommit: head }) as BranchState;
  const cr = { id: 'cr3', number: 3, outdated: true, revision: 'cr-rev', revisionInitial: 'base-rev' } as ChangeRequest;

  it('reverts the conflicting pages to the base when that lets main in', async () => {
    const { client, writes } = stub([
      () => {
        throw conflict();
      },
      () => {},
    ]);
    expect(await adoptMain(client, dir, 'space', main(), head, cr)).toBe(true);
    expect(writes).toEqual([[{ operation: 'revert_page', page: 'beta1' }]]);
  });

  it('gives the pages back what the change request held when the update still conflicts', async () => {
    const { client, writes } = stub([
      () => {
        throw conflict();
      },
      () => {
        throw conflict();
      },
    ]);
    await expect(adoptMain(client, dir, 'space', main(), head, cr)).rejects.toMatchObject({ code: 'merge-conflicts' });
    expect(writes).toEqual([
      [{ operation: 'revert_page', page: 'beta1' }],
      [{ operation: 'revert_page', page: 'beta1', revision: 'cr-rev' }],
    ]);
  });

  // Model seed 424242: the branch's change request added a page main had not sent yet, then main
  // sent its own copy of the file; the update names whichever of the two it meets second.
  it("reverts the change request's own copy when the update names main's page of one slug", async () => {
    const { client, writes } = stub([
      () => {
        throw new ApiError(
          409,
          'change request #3 cannot be updated: 1 conflict; page "New" (mainNew): another page under the same parent has its slug',
        );
      },
      () => {},
    ]);
    const index = (pages: Record<string, string>) => ({ pages: { 'README.md': 'readme', ...pages }, files: {}, includes: {} });
    const withIndex = { ...main(), index: index({ 'f/new.md': 'mainNew' }) };
    expect(await adoptMain(client, dir, 'space', withIndex, head, cr, index({ 'f/new.md': 'crNew' }))).toBe(true);
    expect(writes).toEqual([[{ operation: 'revert_page', page: 'crNew' }]]);
  });
});
