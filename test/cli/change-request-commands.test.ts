import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { changeRequestWith, editMain, git, remoteMarkdown } from '../sync/fixture.js';
import { jsonOf, runCli } from './run-cli.js';

/** merge, update and cr as a writer runs them, against a real server and real git repositories. */
describe('docsync merge / update / cr', () => {
  let s: TestServer;
  let home: string;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    s = await startServer('sqlite');
    home = await mkdtemp(join(tmpdir(), 'docsync-cli-cr-'));
    env = { XDG_CONFIG_HOME: join(home, 'config'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
  });
  afterAll(async () => {
    await s?.close();
    await rm(home, { recursive: true, force: true });
  });

  /** A space with Alpha (README.md) and Beta (beta.md), cloned with the CLI. */
  async function cloned(name: string) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
    const ids = await editMain(s, space.id, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\none\ntwo\nthree\n' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\nbeta text\n' } },
    ]);
    const dir = join(home, name);
    const result = await runCli(['clone', space.id, dir], env);
    expect(result.code, result.stderr).toBe(0);
    return { spaceId: space.id as string, dir, alpha: ids.get('a')!, beta: ids.get('b')! };
  }

  const cli = (dir: string, ...args: string[]) => runCli([...args, '--dir', dir], env);
  const pulled = async (dir: string) => expect((await cli(dir, 'pull')).code).toBe(0);

  it('merges the checked-out branch, pulls main, and no longer pulls the branch', async () => {
    const t = await cloned('merge-ok');
    const cr = await changeRequestWith(s, t.spaceId, 'Better alpha', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nTWO\nthree\n' } },
    ]);
    await pulled(t.dir);
    const branch = `cr/${cr.number}-better-alpha`;
    git(t.dir, 'checkout', '-q', branch);

    const merged = await cli(t.dir, 'merge');
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(
      new RegExp(
        `^merged change request #${cr.number} into main \\(revision \\S+\\); ${branch} is no longer followed \\(the git branch stays\\)\\nmain: \\S+ -> \\S+: modified README\\.md\\n$`,
      ),
    );
    expect(await remoteMarkdown(s, t.spaceId, t.alpha)).toBe('one\nTWO\nthree\n');
    expect(git(t.dir, 'show', 'main:README.md')).toBe('# Alpha\n\none\nTWO\nthree\n');
    git(t.dir, 'checkout', '-q', 'main');
    expect((await cli(t.dir, 'pull')).stdout).toBe('main: up to date\n');
  });

  it('exits 3 naming the conflicting page and its file when two change requests changed the same line, and suggests update', async () => {
    const t = await cloned('merge-conflict');
    const first = await changeRequestWith(s, t.spaceId, 'First', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nfirst\nthree\n' } },
    ]);
    const second = await changeRequestWith(s, t.spaceId, 'Second', [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\nsecond\nthree\n' } },
    ]);
    await pulled(t.dir);
    expect((await cli(t.dir, 'merge', `cr/${first.number}-first`)).code).toBe(0);

    const refused = await cli(t.dir, 'merge', `cr/${second.number}-second`);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe(
      `change request #${second.number} (cr/${second.number}-second) cannot be merged: 1 conflict\n` +
        '  README.md: page "Alpha": both sides changed the same lines of its document\n',
    );
    expect(refused.stderr).toBe(
      `docsync: merge of change request #${second.number} met conflicts in README.md; run docsync update cr/${second.number}-second to bring main's changes into it, resolve what still conflicts on the branch and push, then merge again\n`,
    );
    const json = await cli(t.dir, 'merge', `cr/${second.number}-second`, '--json');
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({
      kind: 'conflict',
      conflicts: [{ kind: 'page', title: 'Alpha', path: 'README.md', id: t.alpha }],
    });
  });

  it('updates a change request with an edit made on main meanwhile and pulls the branch; exits 3 with the pages on a conflict', async () => {
    const t = await cloned('update');
    const cr = await changeRequestWith(s, t.spaceId, 'Beta work', [
      { operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, reviewed\n' } },
    ]);
    await pulled(t.dir);
    const branch = `cr/${cr.number}-beta-work`;
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: t.alpha, document: { markdown: '# Alpha\n\none\ntwo on main\nthree\n' } },
    ]);

    const updated = await cli(t.dir, 'update', branch);
    expect(updated.code, updated.stderr).toBe(0);
    expect(updated.stdout).toMatch(
      new RegExp(
        `^updated change request #${cr.number} \\(${branch}\\) with main: revision \\S+\\n${branch}: \\S+ -> \\S+: modified README\\.md\\n$`,
      ),
    );
    expect(await remoteMarkdown(s, t.spaceId, t.alpha, cr.id)).toBe('one\ntwo on main\nthree\n');
    expect(git(t.dir, 'show', `${branch}:README.md`)).toBe('# Alpha\n\none\ntwo on main\nthree\n');
    expect(git(t.dir, 'show', `${branch}:beta.md`)).toBe('# Beta\n\nbeta text, reviewed\n');

    expect(
      (
        await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}/content`, {
          body: { changes: [{ operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, CR\n' } }] },
        })
      ).status,
    ).toBe(200);
    await editMain(s, t.spaceId, [{ operation: 'update_page', page: t.beta, document: { markdown: '# Beta\n\nbeta text, main\n' } }]);
    const refused = await cli(t.dir, 'update', branch);
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain('  beta.md: page "Beta": both sides changed the same lines of its document\n');
    expect(refused.stderr).toContain(
      `make those lines agree with main on ${branch} (git diff main ${branch} -- beta.md), push, then update again`,
    );
  });

  it('lists, archives and opens change requests', async () => {
    const t = await cloned('cr');
    const tracked = await changeRequestWith(s, t.spaceId, 'Tracked', [{ operation: 'update_page', page: t.beta, title: 'Beta two' }]);
    await pulled(t.dir);
    const fresh = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Fresh' } })).body;
    const branch = `cr/${tracked.number}-tracked`;

    const listed = await cli(t.dir, 'cr', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split('\n').sort().join('\n')).toBe(
      ['', `#${fresh.number}  open  -  Fresh`, `#${tracked.number}  open  ${branch}  Tracked`].sort().join('\n'),
    );
    expect(
      jsonOf(await cli(t.dir, 'cr', 'list', '--json'))
        .map((r: any) => [r.number, r.branch])
        .sort(),
    ).toEqual(
      [
        [fresh.number, null],
        [tracked.number, branch],
      ].sort(),
    );
    expect((await cli(t.dir, 'cr', 'list', '--status', 'archived')).stdout).toBe('no archived change requests\n');
    const bad = await cli(t.dir, 'cr', 'list', '--status', 'closed');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("argument 'closed' is invalid. Allowed choices are draft, open, archived, merged.");

    const archived = await cli(t.dir, 'cr', 'archive', branch);
    expect(archived.code, archived.stderr).toBe(0);
    expect(archived.stdout).toBe(`archived change request #${tracked.number}; ${branch} is no longer followed (the git branch stays)\n`);
    expect((await cli(t.dir, 'cr', 'list', '--status', 'archived')).stdout).toBe(
      `#${tracked.number}  archived  ${branch} (not followed)  Tracked\n`,
    );
    expect((await cli(t.dir, 'pull')).stdout).not.toContain(branch);

    const opened = await cli(t.dir, 'cr', 'open', branch, '--json');
    expect(jsonOf(opened)).toMatchObject({ changeRequest: tracked.number, status: 'open', branch, pulled: [{ branch }] });
    // One archived on the platform, never pulled here, gets its branch when opened by number.
    const shelved = (await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests`, { body: { subject: 'Shelved' } })).body;
    expect(
      (await s.request('PATCH', `/v1/spaces/${t.spaceId}/change-requests/${shelved.id}`, { body: { status: 'archived' } })).status,
    ).toBe(200);
    const openedNew = await cli(t.dir, 'cr', 'open', `#${shelved.number}`);
    expect(openedNew.stdout).toBe(`opened change request #${shelved.number} on a new branch cr/${shelved.number}-shelved\n`);
  });

  it('refuses main, and a branch with changes not pushed', async () => {
    const t = await cloned('refusals');
    const onMain = await cli(t.dir, 'merge');
    expect(onMain.code).toBe(1);
    expect(onMain.stderr).toBe(
      'docsync: main is the live content, not a change request; merge works on a change request branch (cr/<number>-<subject>): check one out or name it\n',
    );
    expect((await cli(t.dir, 'update', 'main')).stderr).toContain('main is the live content, not a change request; update works');
    expect((await cli(t.dir, 'cr', 'archive', 'main')).code).toBe(1);

    const cr = await changeRequestWith(s, t.spaceId, 'Local work', [{ operation: 'update_page', page: t.beta, title: 'Beta two' }]);
    await pulled(t.dir);
    const branch = `cr/${cr.number}-local-work`;
    git(t.dir, 'checkout', '-q', branch);
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\nbeta text, changed here\n');
    git(t.dir, 'commit', '-qam', 'not pushed');
    const refused = await cli(t.dir, 'merge');
    expect(refused.code).toBe(5);
    expect(refused.stderr).toBe(
      `docsync: ${branch} has changes not pushed to change request #${cr.number} (beta.md); push first (docsync push), then merge\n`,
    );
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`)).body.status).toBe('open');
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe('# Beta\n\nbeta text, changed here\n');
  });
});
