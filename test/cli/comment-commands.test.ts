import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { changeRequestWith, editMain, git } from '../sync/fixture.js';
import { jsonOf, runCli } from './run-cli.js';

/** Review comments in the writer's editor: a reviewer on the API, the writer with the CLI, a real clone. */
describe('docsync comments / comment', () => {
  let s: TestServer;
  let home: string;
  let env: Record<string, string | undefined>;
  let reviewer: { id: string; token: string };
  beforeAll(async () => {
    s = await startServer('sqlite');
    home = await mkdtemp(join(tmpdir(), 'docsync-cli-comments-'));
    env = { XDG_CONFIG_HOME: join(home, 'config'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
    reviewer = await s.user({ org: s.orgId, role: 'comment', name: 'Rita Reviewer' });
  });
  afterAll(async () => {
    await s?.close();
    await rm(home, { recursive: true, force: true });
  });

  const cli = (dir: string, ...args: string[]) => runCli([...args, '--dir', dir], env);

  /** A cloned space whose change request `Review` changed Alpha; the writer is on its branch. */
  async function reviewed(name: string) {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
    await s.request('PATCH', `/v1/spaces/${space.id}`, { body: { defaultLevel: 'inherit' } });
    const ids = await editMain(s, space.id, [
      { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\nOne.\n\nTwo.\n\nThree.\n' } },
      { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\nBeta text.\n' } },
    ]);
    const alpha = ids.get('a')!;
    const dir = join(home, name);
    expect((await runCli(['clone', space.id, dir], env)).code).toBe(0);
    const cr = await changeRequestWith(s, space.id, 'Review', [
      { operation: 'update_page', page: alpha, document: { markdown: '# Alpha\n\nOne.\n\nTwo, better.\n\nThree.\n' } },
    ]);
    expect((await cli(dir, 'pull')).code).toBe(0);
    const branch = `cr/${cr.number}-review`;
    git(dir, 'checkout', '-q', branch);
    return { spaceId: space.id as string, dir, alpha, cr, branch, base: `/v1/spaces/${space.id}/change-requests/${cr.id}` };
  }

  /** The reviewer's comment on the block with `text`, its id taken from the page's JSON document. */
  async function reviewerComment(t: Awaited<ReturnType<typeof reviewed>>, text: string, markdown: string) {
    const page = await s.request('GET', `${t.base}/content/page/${t.alpha}?format=document`, { token: reviewer.token });
    const block = (page.body.document.nodes as { key?: string; nodes: { leaves: { text: string }[] }[] }[]).find(
      (b) => b.nodes.map((n) => n.leaves.map((l) => l.text).join('')).join('') === text,
    )!;
    const res = await s.request('POST', `${t.base}/comments`, {
      token: reviewer.token,
      body: { body: { markdown }, page: t.alpha, node: block.key },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { id: string };
  }

  it("shows a reviewer's block comment at its line after the writer edited above it; reply, resolve, reopen; status and counts follow", async () => {
    const t = await reviewed('review-flow');
    const readme = join(t.dir, 'README.md');
    expect(await readFile(readme, 'utf8')).toBe('# Alpha\n\nOne.\n\nTwo, better.\n\nThree.\n');
    const c = await reviewerComment(t, 'Three.', 'Say why\nthree matters.');

    // The writer adds lines above the block, uncommitted: the comment follows the block's text.
    await writeFile(readme, '# Alpha\n\nA new intro.\n\nAnd more.\n\nOne.\n\nTwo, better.\n\nThree.\n');
    let out = await cli(t.dir, 'comments');
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(`README.md:11: Rita Reviewer: Say why ⏎ three matters. [${c.id}]\n`);
    expect((await cli(t.dir, 'status')).stdout).toContain(
      `${t.branch} (#${t.cr.number}): 1 uncommitted file change(s); 1 open comment(s): docsync comments ${t.branch}`,
    );

    const replied = await cli(t.dir, 'comments', 'reply', c.id, '-m', 'Done in the next push');
    expect(replied.code, replied.stderr).toBe(0);
    expect(replied.stdout).toMatch(new RegExp(`^replied to ${c.id} \\[\\S+\\]\\n$`));
    out = await cli(t.dir, 'comments', t.branch);
    expect(out.stdout).toBe(
      `README.md:11: Rita Reviewer: Say why ⏎ three matters. [${c.id}]\n    User 0: Done in the next push\n`.replace(
        'User 0',
        (await s.request('GET', '/v1/user')).body.displayName,
      ),
    );

    const resolved = await cli(t.dir, 'comments', 'resolve', c.id);
    expect(resolved.stdout).toBe(`resolved ${c.id}\n`);
    expect((await s.request('GET', t.base)).body.comments).toBe(0);
    expect((await cli(t.dir, 'comments')).stdout).toBe(`no open comments on ${t.branch}\n`);
    expect((await cli(t.dir, 'comments', '--all')).stdout).toContain(`README.md:11: Rita Reviewer: (resolved) Say why`);
    expect((await cli(t.dir, 'status')).stdout).not.toContain('open comment');

    expect((await cli(t.dir, 'comments', 'reopen', c.id)).stdout).toBe(`reopened ${c.id}\n`);
    expect((await s.request('GET', t.base)).body.comments).toBe(1);
    const json = jsonOf(await cli(t.dir, 'comments', '--json'));
    expect(json).toEqual([
      expect.objectContaining({
        id: c.id,
        place: `#${t.cr.number}`,
        path: 'README.md',
        line: 11,
        author: 'Rita Reviewer',
        status: 'open',
        preview: 'Three.',
        replies: [expect.objectContaining({ text: 'Done in the next push' })],
      }),
    ]);
  });

  it('a block since reworded is found by its preview; one removed falls back to line 1', async () => {
    const t = await reviewed('review-moved');
    const c = await reviewerComment(t, 'One.', 'About one');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\nIntro.\n\nTwo, better.\n\nThree.\n');
    expect((await cli(t.dir, 'comments')).stdout).toBe(`README.md:1: Rita Reviewer: About one [${c.id}]\n`);
    const d = await reviewerComment(t, 'Two, better.', 'About two');
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\nIntro.\n\n\n\nTwo, better. Now longer.\n\nThree.\n');
    const out = (await cli(t.dir, 'comments')).stdout.split('\n');
    expect(out).toContain(`README.md:7: Rita Reviewer: About two [${d.id}]`);
  });

  it('docsync comment posts on the block at FILE:LINE, or on the page; main comments go to the space', async () => {
    const t = await reviewed('writer-comments');
    const posted = await cli(t.dir, 'comment', 'README.md:7', '-m', 'Check this line');
    expect(posted.code, posted.stderr).toBe(0);
    expect(posted.stdout).toMatch(new RegExp(`^commented on README.md:7 in #${t.cr.number} \\[(\\S+)\\]\\n$`));
    const list = await s.request('GET', `${t.base}/comments`);
    expect(list.body.items[0].target).toMatchObject({ page: { id: t.alpha }, node: { preview: 'Three.' } });

    // A block edited locally and not pushed is not on the server: the comment goes on the page.
    await writeFile(join(t.dir, 'README.md'), '# Alpha\n\nOne.\n\nTwo, better.\n\nThree, unpushed.\n');
    const fallback = await cli(t.dir, 'comment', 'README.md:7', '-m', 'On the page');
    expect(fallback.stdout).toMatch(/^commented on README\.md:7 in #\d+ \(on the page: the block at line 7 is not pushed yet\)/);

    git(t.dir, 'checkout', '-q', '--', 'README.md');
    git(t.dir, 'checkout', '-q', 'main');
    const onMain = await cli(t.dir, 'comment', 'beta.md', '-m', 'Beta needs work', '--json');
    expect(onMain.code, onMain.stderr).toBe(0);
    expect(jsonOf(onMain)).toMatchObject({ place: 'space', comment: { target: { space: t.spaceId } } });
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}`)).body.comments).toBe(1);
    expect((await cli(t.dir, 'comments')).stdout).toMatch(/^beta\.md:1: .*: Beta needs work \[\S+\]\n$/);

    const missing = await cli(t.dir, 'comment', 'nope.md', '-m', 'x');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('nope.md is not a page of this space');
    const unknown = await cli(t.dir, 'comments', 'resolve', 'noSuchComment');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('comment noSuchComment not found on main');
  });
});
