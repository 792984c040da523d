import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Client } from '../../src/client/index.js';
import { fetchContent } from '../../src/sync/remote/content.js';
import { snapshotOf } from '../../src/sync/remote/snapshot.js';
import { readState } from '../../src/sync/state/state.js';
import type { TestServer } from '../helpers/server.js';
import { serverForTests } from '../sync/server-for-tests.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';
import { clonedSpace, editMain, git } from '../sync/fixture.js';
import { spawnCli } from './run-cli.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

/**
 * A push killed (SIGKILL, through the journal's test hook) after it moved the checked-out branch,
 * before the files on disk followed (its read-back, to the server's form of the files; its
 * catch-up, merging main's edits made on the platform since), then run again: it ends as the
 * uninterrupted push on a twin workspace (the same files, the same commits, a clean status), not
 * with the files' older form taken for an edit and pushed back (undoing the platform's edit).
 */
describe('docsync push killed between moving the branch and the files', () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-read-back-crash-', (t) => ({ s, client, work } = t));
  const env = () => ({ DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });

  /** A branch whose push the server stores in another form (the blank lines after a title go), with a new page when `whole` (the whole read-back). */
  async function tidyBranch(name: string, whole: boolean) {
    const t = await clonedSpace(s, client, work, name);
    git(t.dir, 'checkout', '-qb', 'tidy');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\n\n\nbeta text, edited\n');
    if (whole) {
      await writeFile(join(t.dir, 'gamma.md'), '# Gamma\n\n\n\nnew page\n');
      const summary = await readFile(join(t.dir, 'SUMMARY.md'), 'utf8');
      await writeFile(join(t.dir, 'SUMMARY.md'), `${summary.trimEnd()}\n* [Gamma](gamma.md)\n`);
    }
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Edit beta with stray blank lines');
    return t;
  }

  async function outcome(dir: string, spaceId: string) {
    const state = (await readState(dir)).branches.tidy!;
    const remote = snapshotOf(await fetchContent(client, { space: spaceId, changeRequest: state.changeRequestId! }));
    return {
      beta: await readFile(join(dir, 'beta.md'), 'utf8'),
      status: git(dir, 'status', '--porcelain', '--untracked-files=all'),
      commits: git(dir, 'log', '--format=%s', 'tidy')
        .replaceAll(basename(dir), '<space>')
        .replace(/revision [\w-]+/g, 'revision <id>')
        .trim()
        .split('\n')
        .sort(),
      changeRequest: Object.fromEntries([...remote.files].map(([path, bytes]) => [path, Buffer.from(bytes).toString()])),
      synced: state.remoteRevision === remote.revision,
    };
  }

  it('ends as the uninterrupted push after a catch-up with main', async () => {
    const behind = async (name: string) => {
      const t = await clonedSpace(s, client, work, name);
      git(t.dir, 'checkout', '-qb', 'tidy');
      await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, edited on the branch\n');
      git(t.dir, 'commit', '-qam', 'Edit beta');
      await editMain(s, t.spaceId, [
        { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo, on the platform\nthree\n' } },
      ]);
      return t;
    };
    const twin = await behind('twin-behind');
    const pushed = spawnCli(['push', '--dir', twin.dir], env());
    expect(await pushed.exited, pushed.stderr()).toBe(0);
    const want = { ...(await outcome(twin.dir, twin.spaceId)), readme: await readFile(join(twin.dir, 'README.md'), 'utf8') };
    expect(want.readme).toBe('# Alpha\n\none\ntwo, on the platform\nthree\n');

    const t = await behind('killed-behind');
    const killed = spawnCli(['push', '--dir', t.dir], { ...env(), DOCSYNC_TEST_KILL: 'caught-up:0' });
    expect(await killed.exited, killed.stderr()).toBe('SIGKILL');
    const again = spawnCli(['push', '--dir', t.dir], env());
    expect(await again.exited, again.stderr()).toBe(0);
    const got = { ...(await outcome(t.dir, t.spaceId)), readme: await readFile(join(t.dir, 'README.md'), 'utf8') };
    // The branch's synced point moves at the push's end, so the rerun merges main once more: a
    // second pair of main's commit and merge, changing no file. Every file, the change request
    // and the platform's edit are as the uninterrupted push left them.
    expect({ ...got, commits: [...new Set(got.commits)] }).toEqual(want);
    expect(got.commits.length - want.commits.length).toBeLessThanOrEqual(2);
  });

  for (const whole of [false, true]) {
    it(`ends as the uninterrupted push (${whole ? 'whole read-back' : 'pages read back'})`, async () => {
      const twin = await tidyBranch(`twin-${whole}`, whole);
      const pushed = spawnCli(['push', '--json', '--dir', twin.dir], env());
      expect(await pushed.exited, pushed.stderr()).toBe(0);
      expect(JSON.parse(pushed.stdout()).normalised).toContain('beta.md');
      const want = await outcome(twin.dir, twin.spaceId);
      expect(want.beta).toBe('# Beta\n\nbeta text, edited\n');

      const t = await tidyBranch(`killed-${whole}`, whole);
      const killed = spawnCli(['push', '--dir', t.dir], { ...env(), DOCSYNC_TEST_KILL: 'read-back:0' });
      expect(await killed.exited, killed.stderr()).toBe('SIGKILL');
      const again = spawnCli(['push', '--json', '--dir', t.dir], env());
      expect(await again.exited, again.stderr()).toBe(0);
      expect(JSON.parse(again.stdout()).counts).toMatchObject({ inserted: 0, updated: 0, deleted: 0 });
      expect(await outcome(t.dir, t.spaceId)).toEqual(want);
    });
  }
});
