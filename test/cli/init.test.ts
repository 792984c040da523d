import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { upsertMember } from '../../src/server/store/organizations.js';
import { readState } from '../../src/sync/state/state.js';
import { loadFolder, readFolder } from '../../src/workspace/index.js';
import { git, remoteMarkdown } from '../sync/fixture.js';
import { jsonOf, runCli, spawnCli } from './run-cli.js';
import { PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

const TEMPLATE = fileURLToPath(new URL('../../templates/workspace', import.meta.url));

/** docsync init, then the first docsync push that creates the space, as a new user runs them. */
describe('docsync init / first push', () => {
  let s: TestServer;
  let work: string;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    s = await startServer('sqlite');
    work = await mkdtemp(join(tmpdir(), 'docsync-cli-init-'));
    env = { XDG_CONFIG_HOME: join(work, 'config'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
  });
  afterAll(async () => {
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('init writes the template; push creates the space with its pages; a later edit goes to a change request', async () => {
    const dir = join(work, 'handbook');
    const init = await runCli(['init', dir, '--title', 'Team handbook'], env);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toBe(
      `created workspace "Team handbook" in ${dir} (6 files, committed on main); edit the pages, then run docsync push to create its space\n`,
    );
    // Before the first push, commands that need a space say there is none.
    const early = await runCli(['status', '--dir', dir], env);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`${dir} has no space yet (made by docsync init); run docsync push to create it`);

    const pushed = await runCli(['push', '--dir', dir], env);
    expect(pushed.code, pushed.stderr).toBe(0);
    const { spaceId } = (await readState(dir)).binding;
    expect(pushed.stdout).toMatch(
      new RegExp(
        `^created space "Team handbook" http\\S+/${spaceId} in organization ${s.orgId}\n` +
          `main: pushed to new change request #(\\d+) http\\S+ \\(4 inserted; 3 batches\\), revision \\S+\n` +
          `merged change request #\\1 into main: the content is live \\(revision \\S+\\)\n$`,
      ),
    );

    // The space has the template's pages, each with the template's text.
    const template = readFolder(await loadFolder(TEMPLATE));
    const content = (await s.request('GET', `/v1/spaces/${spaceId}/content`)).body;
    const titles = (pages: any[]): unknown[] => pages.map((p) => [p.title, titles(p.pages ?? [])]);
    expect(titles(content.pages)).toEqual([
      ['Welcome', []],
      ['Writing pages', []],
      ['Guides', [['Your first change', []]]],
    ]);
    const index = (await readState(dir)).branches.main!.index.pages;
    for (const [path, page] of template.pages) expect(await remoteMarkdown(s, spaceId, index[path]!), path).toBe(page.markdown);
    expect((await runCli(['status', '--dir', dir], env)).stdout.split('\n')).toContain('* main: in sync');

    await writeFile(
      join(dir, 'guides/first-change.md'),
      `${await readFile(join(dir, 'guides/first-change.md'), 'utf8')}\nOne more line.\n`,
    );
    const edit = await runCli(['push', '--dir', dir], env);
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stdout).toMatch(/^main: pushed to new change request #\d+ http\S+ \(1 updated; 1 batch\)/);
    const outbox = (await readState(dir)).branches.main!.outbox!;
    expect(await remoteMarkdown(s, spaceId, index['guides/first-change.md']!, outbox.changeRequestId)).toContain('One more line.');
    expect(await remoteMarkdown(s, spaceId, index['guides/first-change.md']!)).not.toContain('One more line.');
  });

  it('prints JSON with --json, in a child process that finds the template from its own module', async () => {
    const dir = join(work, 'json');
    const init = spawnCli(['init', dir, '--json'], {
      XDG_CONFIG_HOME: join(work, 'config'),
      DOCSYNC_API_URL: s.url,
      DOCSYNC_TOKEN: s.token,
    });
    expect(await init.exited, init.stderr()).toBe(0);
    expect(JSON.parse(init.stdout())).toMatchObject({
      dir,
      title: 'json',
      files: expect.arrayContaining(['README.md', 'SUMMARY.md', 'guides/first-change.md']),
    });
    expect(await loadFolder(dir)).toEqual(await loadFolder(TEMPLATE));
    const published = jsonOf(await runCli(['push', '--dir', dir, '--json', '--subject', 'Hello'], env));
    expect(published).toMatchObject({
      title: 'json',
      orgId: s.orgId,
      url: expect.stringContaining(published.spaceId),
      conflicts: [],
      push: { branch: 'main', counts: { inserted: 4 } },
    });
    expect((await s.request('GET', `/v1/spaces/${published.spaceId}/change-requests/${published.changeRequest.id}`)).body).toMatchObject({
      subject: 'Hello',
      status: 'merged',
    });
    expect(git(dir, 'status', '--porcelain')).toBe('');
  });

  it('refuses a folder that is not empty, and a bad or missing argument, with usage errors where they are', async () => {
    const notes = join(work, 'notes');
    await mkdir(notes);
    await writeFile(join(notes, 'todo.md'), 'mine\n');
    const full = await runCli(['init', notes], env);
    expect(full.code).toBe(1);
    expect(full.stderr).toBe(`docsync: ${notes} exists and is not empty; docsync init makes a workspace in a new or empty folder\n`);

    const long = await runCli(['init', join(work, 'long'), '--title', 'x'.repeat(51)], env);
    expect(long.code).toBe(2);
    expect(long.stderr).toBe(
      'docsync: --title: the space title "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" has 51 characters; at most 50 are allowed\n',
    );
    expect((await runCli(['init'], env)).code).toBe(2);
  });

  it('asks for --org when the user has several organizations, refuses one not theirs, and takes the one named', async () => {
    const member = await s.user({ org: s.orgId, role: 'admin' });
    const other = await s.organization('Second org');
    await upsertMember(s.server.db.kysely, { orgId: other.id, userId: member.id, role: 'admin' }, s.clock.now().toISOString());
    const memberEnv = { ...env, DOCSYNC_TOKEN: member.token };
    const dir = join(work, 'several');
    expect((await runCli(['init', dir], memberEnv)).code).toBe(0);

    const unnamed = await runCli(['push', '--dir', dir], memberEnv);
    expect(unnamed.code).toBe(2);
    expect(unnamed.stderr).toMatch(/^docsync: you are a member of 2 organizations: .+; choose one with --org <id>\n$/);
    expect(unnamed.stderr).toContain(`${other.id} (Second org)`);

    const bad = await runCli(['push', '--dir', dir, '--org', 'no-such-org'], memberEnv);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^docsync: --org no-such-org: no such organization among yours \(.+\)\n$/);
    expect((await s.request('GET', `/v1/orgs/${other.id}/spaces`, { token: member.token })).body.items).toEqual([]);

    const named = await runCli(['push', '--dir', dir, '--org', other.id], memberEnv);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toContain(`in organization ${other.id}\n`);
    expect((await s.request('GET', `/v1/orgs/${other.id}/spaces`, { token: member.token })).body.items.map((sp: any) => sp.id)).toEqual([
      (await readState(dir)).binding.spaceId,
    ]);

    // Once the space exists, --org has nothing to choose.
    const again = await runCli(['push', '--dir', dir, '--org', other.id], memberEnv);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--org is only for the first push of a workspace docsync init made; ${dir} has its space already`);
  });

  it('refuses, before the space exists, a dry run and a branch other than main', async () => {
    const dir = join(work, 'first');
    expect((await runCli(['init', dir], env)).code).toBe(0);
    const dry = await runCli(['push', '--dir', dir, '--dry-run'], env);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain(`${dir} has no space yet, so a dry run has nothing to compare with`);
    git(dir, 'checkout', '-qb', 'draft');
    const branch = await runCli(['push', 'draft', '--dir', dir], env);
    expect(branch.code).toBe(2);
    expect(branch.stderr).toContain(`${dir} has no space yet, and the push that creates it sends main; run docsync push without draft`);
  });
});
