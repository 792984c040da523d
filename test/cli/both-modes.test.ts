import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectExitOk, spawnWatch } from '../daemon/watch-process.js';
import { hostedProxy, type HostedProxy } from '../helpers/hosted-proxy.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { editMain, git } from '../sync/fixture.js';
import { runCli, type CliResult } from './run-cli.js';
import { EVENT_WAIT_MS, PROCESS_TEST_MS } from '../helpers/patience.js';

// Processes or servers started and their events waited on: minutes on a loaded machine (test/helpers/patience.ts).
vi.setConfig({ testTimeout: PROCESS_TEST_MS, hookTimeout: PROCESS_TEST_MS });

type Mode = 'direct' | 'hosted';
interface RemotePage {
  id: string;
  title: string;
  slug: string;
  type: string;
  href?: string;
  pages?: RemotePage[];
}

const ORIGINAL_SUMMARY =
  '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Gamma](gamma.md)\n* [Delta](delta.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n';
/** Every kind of change at once: add, edit, delete, rename, move, a file, an external link, a group. */
const EDITED_SUMMARY =
  '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Guides](guides/README.md)\n  * [Install](guides/setup.md)\n  * [Delta](guides/delta.md)\n* [New](new.md)\n* [Website](https://example.com/)\n\n## Reference\n\n* [API](reference/api.md)\n';
const LOGO = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/**
 * One scripted scenario of the sync tool, run against our server directly and through the
 * hosted-API emulation (test/helpers/hosted-proxy.ts: no extensions, unknown fields refused,
 * result "conflicts", a rate limit): clone, pull, push of every kind of change, update, merge
 * (also one that conflicts), sync, mirror and watch. In both modes nothing is lost or corrupted:
 * no conflict marker is ever committed, every branch can still be pushed, and what the server
 * cannot take is reported (exit 4, the file named) and kept as the writer wrote it.
 */
describe.each<Mode>(['direct', 'hosted'])('the sync tool end to end, %s', (mode) => {
  let s: TestServer;
  let proxy: HostedProxy | undefined;
  let home: string;
  let env: Record<string, string>;
  let spaceId: string;
  let ids: Map<string, string>;
  const dir = () => join(home, 'space');
  const cli = (args: string[]) => runCli(args, env);
  const ok = (result: CliResult, code = 0) => expect(result.code, `${result.stdout}${result.stderr}`).toBe(code);
  const remote = async (path: string) => (await s.request('GET', `/v1/spaces/${spaceId}${path}`)).body;
  const titles = (pages: RemotePage[]): string[] =>
    pages.flatMap((p) => [
      `${p.title}${p.type === 'document' ? '' : ` (${p.type})`}`,
      ...titles(p.pages ?? []).map((t) => `${p.title}/${t}`),
    ]);

  /** No commit of any branch holds a conflict marker, and the working tree is committed. */
  function expectIntact(folder = dir()) {
    const commits = git(folder, 'rev-list', '--all').trim().split('\n');
    // git grep exits 1 when it finds nothing.
    const found = spawnSync('git', ['grep', '-l', '-e', '^<<<<<<< ', '-e', '^>>>>>>> ', ...commits, '--'], {
      cwd: folder,
      encoding: 'utf8',
    });
    expect([found.status, found.stdout]).toEqual([1, '']);
    expect(git(folder, 'status', '--porcelain')).toBe('');
  }

  beforeAll(async () => {
    s = await startServer('sqlite');
    if (mode === 'hosted') proxy = await hostedProxy(s.url, { requestsPerSecond: 40 });
    home = await mkdtemp(join(tmpdir(), `docsync-both-${mode}-`));
    env = { XDG_CONFIG_HOME: join(home, 'config'), DOCSYNC_API_URL: proxy?.url ?? s.url, DOCSYNC_TOKEN: s.token };
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Scenario', empty: true } })).body;
    spaceId = space.id;
    ids = await editMain(s, spaceId, [
      { operation: 'insert_page', ref: 'alpha', title: 'Alpha', document: { markdown: '# Alpha\n\none\ntwo\nthree\n' } },
      { operation: 'insert_page', ref: 'beta', title: 'Beta', document: { markdown: '# Beta\n\nbeta text\n' } },
      { operation: 'insert_page', ref: 'gamma', title: 'Gamma', document: { markdown: '# Gamma\n\ngoing away\n' } },
      { operation: 'insert_page', ref: 'delta', title: 'Delta', document: { markdown: '# Delta\n\nmoving\n' } },
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: { markdown: '# Guides\n\nall guides\n' } },
    ]);
    const under = await editMain(s, spaceId, [
      {
        operation: 'insert_page',
        ref: 'install',
        into: ids.get('guides'),
        title: 'Install',
        document: { markdown: '# Install\n\nrun it\n' },
      },
    ]);
    ids.set('install', under.get('install')!);
  });
  afterAll(async () => {
    await proxy?.close();
    await s?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('clones, and pulls an edit made on the platform', async () => {
    ok(await cli(['clone', spaceId, dir()]));
    expect(await readFile(join(dir(), 'SUMMARY.md'), 'utf8')).toBe(ORIGINAL_SUMMARY);
    await editMain(s, spaceId, [
      { operation: 'update_page', page: ids.get('beta'), document: { markdown: '# Beta\n\nbeta text\nfrom the platform\n' } },
    ]);
    ok(await cli(['pull', '--dir', dir()]));
    expect(await readFile(join(dir(), 'beta.md'), 'utf8')).toBe('# Beta\n\nbeta text\nfrom the platform\n');
    expectIntact();
  });

  it('pushes every kind of change; what the server cannot take is reported and kept, and pushing again is never refused', async () => {
    const d = dir();
    git(d, 'checkout', '-q', '-b', 'work');
    await writeFile(join(d, 'beta.md'), '# Beta\n\nbeta text\nfrom the platform\nand from the writer\n');
    await rm(join(d, 'gamma.md'));
    git(d, 'mv', 'guides/install.md', 'guides/setup.md');
    git(d, 'mv', 'delta.md', 'guides/delta.md');
    await mkdir(join(d, '.gitbook', 'assets'), { recursive: true });
    await writeFile(join(d, '.gitbook', 'assets', 'logo.png'), LOGO);
    await writeFile(join(d, 'new.md'), '# New\n\nA new page with a logo.\n\n![Logo](.gitbook/assets/logo.png)\n');
    await mkdir(join(d, 'reference'));
    await writeFile(join(d, 'reference', 'api.md'), '# API\n\nThe reference.\n');
    await writeFile(join(d, 'SUMMARY.md'), EDITED_SUMMARY);
    git(d, 'add', '-A');
    git(d, 'commit', '-qm', 'Every kind of change');

    const pushed = await cli(['push', '--dir', d]);
    ok(pushed, mode === 'direct' ? 0 : 4);
    if (mode === 'hosted') expect(pushed.stdout + pushed.stderr).toContain('SUMMARY.md');
    expect(await readFile(join(d, 'SUMMARY.md'), 'utf8')).toBe(EDITED_SUMMARY);
    expect(git(d, 'show', 'HEAD:SUMMARY.md')).toBe(EDITED_SUMMARY);
    expect(await readFile(join(d, 'reference', 'api.md'), 'utf8')).toBe('# API\n\nThe reference.\n');
    expectIntact();

    const cr = (await remote('/change-requests')).items[0];
    const content = await remote(`/change-requests/${cr.id}/content`);
    const sent = ['Alpha', 'Beta', 'Guides', 'Guides/Install', 'Guides/Delta', 'New'];
    expect(titles(content.pages)).toEqual(mode === 'direct' ? [...sent, 'Website (link)', 'Reference (group)', 'Reference/API'] : sent);
    const guides = (content.pages as RemotePage[]).find((p) => p.title === 'Guides')!;
    expect(guides.pages!.map((p) => [p.id, p.slug])).toEqual([
      [ids.get('install'), 'setup'],
      [ids.get('delta'), 'delta'],
    ]);
    expect((await remote(`/change-requests/${cr.id}/content/files`)).items.map((f: { name: string }) => f.name)).toEqual(['logo.png']);
    expect((await remote(`/change-requests/${cr.id}/content/page/${ids.get('beta')}?format=markdown`)).markdown).toContain(
      'and from the writer',
    );

    const again = await cli(['push', '--dir', d]);
    ok(again, mode === 'direct' ? 0 : 4);
    expect(await readFile(join(d, 'SUMMARY.md'), 'utf8')).toBe(EDITED_SUMMARY);
    expectIntact();
  });

  it("updates the branch with main's changes", async () => {
    await editMain(s, spaceId, [
      { operation: 'update_page', page: ids.get('alpha'), document: { markdown: '# Alpha\n\none\ntwo\nthree\nfour\n' } },
    ]);
    ok(await cli(['update', 'work', '--dir', dir()]));
    expect(await readFile(join(dir(), 'README.md'), 'utf8')).toBe('# Alpha\n\none\ntwo\nthree\nfour\n');
    expect(await readFile(join(dir(), 'SUMMARY.md'), 'utf8')).toBe(EDITED_SUMMARY);
    expectIntact();
  });

  it('merges the branch into main, and main gets what was sent', async () => {
    const merged = await cli(['merge', 'work', '--dir', dir()]);
    // Without extensions the link and the group stay on the branch, named, never in silence.
    ok(merged, mode === 'direct' ? 0 : 4);
    if (mode === 'hosted') expect(merged.stdout).toContain('NOT SENT SUMMARY.md: this server cannot create link pages');
    expect(git(dir(), 'show', 'work:SUMMARY.md')).toBe(EDITED_SUMMARY);
    git(dir(), 'checkout', '-q', 'main');
    expect(await readFile(join(dir(), 'new.md'), 'utf8')).toContain('A new page with a logo.');
    expect(await readFile(join(dir(), '.gitbook', 'assets', 'logo.png'))).toEqual(LOGO);
    expect(await readFile(join(dir(), 'guides', 'setup.md'), 'utf8')).toBe('# Install\n\nrun it\n');
    expectIntact();
  });

  it('a merge that conflicts changes nothing, and the branch can still be pushed', async () => {
    const d = dir();
    git(d, 'checkout', '-q', '-b', 'clash');
    await writeFile(join(d, 'README.md'), '# Alpha\n\none\nTWO from the branch\nthree\nfour\n');
    git(d, 'commit', '-qam', 'Clash');
    ok(await cli(['push', '--dir', d]));
    const head = (await remote('')).revision;
    await editMain(s, spaceId, [
      { operation: 'update_page', page: ids.get('alpha'), document: { markdown: '# Alpha\n\none\nTWO from the platform\nthree\nfour\n' } },
    ]);
    const liveBefore = (await remote('')).revision;
    expect(liveBefore).not.toBe(head);

    const merged = await cli(['merge', 'clash', '--dir', d]);
    ok(merged, 3);
    expect((await remote('')).revision).toBe(liveBefore);
    expect(await readFile(join(d, 'README.md'), 'utf8')).toBe('# Alpha\n\none\nTWO from the branch\nthree\nfour\n');
    expectIntact();
    await writeFile(join(d, 'README.md'), '# Alpha\n\none\nTWO from the branch, again\nthree\nfour\n');
    git(d, 'commit', '-qam', 'Again');
    ok(await cli(['push', '--dir', d]));
    expectIntact();
  });

  it('syncs, and mirrors the organization', async () => {
    git(dir(), 'checkout', '-q', 'main');
    const synced = await cli(['sync', '--dir', dir()]);
    ok(synced);
    expectIntact();
    const mirror = join(home, 'mirror');
    ok(await cli(['mirror', mirror, '--org', s.orgId]));
    expect(await readFile(join(mirror, 'scenario', 'new.md'), 'utf8')).toContain('A new page with a logo.');
    expectIntact(join(mirror, 'scenario'));
  });

  it('watch pushes a save', async () => {
    const d = dir();
    const watch = spawnWatch(d, env);
    try {
      await watch.waitFor((e) => e.type === 'started');
      await writeFile(join(d, 'beta.md'), '# Beta\n\nsaved while watched\n');
      const pushed = await watch.waitFor((e) => e.type === 'pushed');
      expect(pushed.branch).toBe('main');
      const crs = (await remote('/change-requests')).items as { id: string; number: number }[];
      const cr = crs.find((c) => c.number === pushed.changeRequest.number)!;
      expect((await remote(`/change-requests/${cr.id}/content/page/${ids.get('beta')}?format=markdown`)).markdown).toContain(
        'saved while watched',
      );

      // The daemon runs push's code: a link the server cannot take is named, and the file kept.
      const from = watch.events().length;
      const summary = `${(await readFile(join(d, 'SUMMARY.md'), 'utf8')).trimEnd()}\n* [Docs site](https://docs.example.com/)\n`;
      await writeFile(join(d, 'SUMMARY.md'), summary);
      const linked = await watch.waitFor((e) => e.type === 'pushed', EVENT_WAIT_MS, from);
      if (mode === 'direct') expect(linked.skipped).toEqual([]);
      else
        expect(linked.skipped).toEqual([
          expect.objectContaining({ path: 'SUMMARY.md', reason: expect.stringContaining('cannot create link pages') }),
        ]);
      expect(await readFile(join(d, 'SUMMARY.md'), 'utf8')).toBe(summary);
      expect(git(d, 'show', 'HEAD:SUMMARY.md')).toBe(summary);
    } finally {
      await expectExitOk(watch);
    }
    expectIntact();
    if (proxy) expect(proxy.statuses.filter((status) => status >= 500)).toEqual([]);
  });
});
