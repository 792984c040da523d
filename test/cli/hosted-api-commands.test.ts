import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeRequestWith, git } from '../sync/fixture.js';
import { hostedFixture } from './hosted-fixture.js';
import { runCli } from './run-cli.js';

/** Commands that must use published operations only, through a proxy answering as the hosted API. */
describe('docsync against the hosted API', () => {
  const h = hostedFixture();

  it('cr open and cr archive by number address the change request by its id', async () => {
    const { s, proxy } = h;
    const t = await h.clone('by-number');
    const cr = await changeRequestWith(s, t.spaceId, 'Forgotten', [
      { operation: 'insert_page', title: 'Later', document: { markdown: '# Later\n\nx\n' } },
    ]);
    expect((await s.request('PATCH', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`, { body: { status: 'archived' } })).status).toBe(
      200,
    );

    const opened = await runCli(['cr', 'open', `#${cr.number}`, '--dir', t.dir], t.env);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toContain(`opened change request #${cr.number}`);
    expect((await s.request('GET', `/v1/spaces/${t.spaceId}/change-requests/${cr.id}`)).body.status).toBe('open');
    expect(proxy.seen.filter((r) => new RegExp(`/change-requests/${cr.number}(/|\\?|$)`).test(r))).toEqual([]);

    const unknown = await runCli(['cr', 'archive', '#999', '--dir', t.dir], t.env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no change request #999');
  });

  it('DOCSYNC_API_URL overrides the API URL a workspace stored', async () => {
    const { s, proxy } = h;
    const t = await h.clone('override', { apiUrl: s.url });
    const before = proxy.seen.length;
    const listed = await runCli(['cr', 'list', '--dir', t.dir], { ...t.env, DOCSYNC_API_URL: proxy.url });
    expect(listed.code, listed.stderr).toBe(0);
    expect(proxy.seen.slice(before).some((r) => r.startsWith(`GET /v1/spaces/${t.spaceId}/change-requests`))).toBe(true);
  });
});

describe('docsync push to a server answering content writes with the change request alone', () => {
  const h = hostedFixture({ compatContentWrites: true });

  it('pushes a new parent page with a new child: the child goes under the page the first batch created', async () => {
    const { s } = h;
    const { spaceId, dir, env } = await h.clone('compat');
    git(dir, 'checkout', '-q', '-b', 'guides');
    await mkdir(join(dir, 'guides'));
    await writeFile(join(dir, 'guides', 'README.md'), '# Guides\n\nAll the guides.\n');
    await writeFile(join(dir, 'guides', 'install.md'), '# Install\n\nRun it.\n');
    const summary = await readFile(join(dir, 'SUMMARY.md'), 'utf8');
    await writeFile(join(dir, 'SUMMARY.md'), `${summary.trimEnd()}\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n`);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'Add guides');

    const pushed = await runCli(['push', '--dir', dir], env);
    expect(pushed.code, pushed.stdout + pushed.stderr).toBe(0);
    expect(pushed.stderr).not.toContain('internal error');
    const crs = (await s.request('GET', `/v1/spaces/${spaceId}/change-requests`)).body.items as { id: string }[];
    const pages = (await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crs[0]!.id}/content`)).body.pages as {
      title: string;
      pages?: { title: string }[];
    }[];
    const guides = pages.find((p) => p.title === 'Guides');
    expect(guides?.pages?.map((p) => p.title)).toEqual(['Install']);
    expect(pages.filter((p) => p.title === 'Install')).toEqual([]);
  });
});

describe('docsync push of what a server without extensions cannot take', () => {
  const h = hostedFixture();

  it("keeps the writer's SUMMARY.md (no conflict markers) and can push again", async () => {
    const { dir, env } = await h.clone('partial');
    git(dir, 'checkout', '-q', '-b', 'more');
    await writeFile(join(dir, 'new.md'), '# New\n\nA new page.\n');
    const summary = `${(await readFile(join(dir, 'SUMMARY.md'), 'utf8')).trimEnd()}\n* [New](new.md)\n* [Website](https://example.com/)\n`;
    await writeFile(join(dir, 'SUMMARY.md'), summary);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'A page and a link');

    const first = await runCli(['push', '--dir', dir], env);
    expect(first.code, first.stdout + first.stderr).toBe(4);
    expect(first.stdout + first.stderr).toContain('SUMMARY.md');
    expect(await readFile(join(dir, 'SUMMARY.md'), 'utf8')).toBe(summary);
    expect(git(dir, 'show', 'HEAD:SUMMARY.md')).toBe(summary);
    expect(git(dir, 'status', '--porcelain')).toBe('');

    // Pushing again reports the link again; the branch is never stuck (exit 5) on its own file.
    const again = await runCli(['push', '--dir', dir], env);
    expect(again.code, again.stdout + again.stderr).toBe(4);
    expect(await readFile(join(dir, 'SUMMARY.md'), 'utf8')).toBe(summary);
  });
});

describe('docsync push of a link title to a server that cannot set one', () => {
  const h = hostedFixture();

  it('reports the link title as not sent (exit 4) and keeps it in SUMMARY.md, alone or with another change', async () => {
    const { dir, env } = await h.clone('labels', {
      pages: [
        { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\none\n' } },
        { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\ntwo\n' } },
      ],
    });
    git(dir, 'checkout', '-q', '-b', 'label');
    const summary = (await readFile(join(dir, 'SUMMARY.md'), 'utf8')).replace('(beta.md)', '(beta.md "Second")');
    await writeFile(join(dir, 'SUMMARY.md'), summary);
    expect(summary).toContain('* [Beta](beta.md "Second")');
    git(dir, 'commit', '-qam', 'Label Beta');

    const alone = await runCli(['push', '--dir', dir], env);
    expect(alone.code, alone.stdout + alone.stderr).toBe(4);
    expect(alone.stdout + alone.stderr).toMatch(
      /SUMMARY\.md: this server cannot set a link title, the quoted label of a SUMMARY\.md entry \("Second"/,
    );
    expect(await readFile(join(dir, 'SUMMARY.md'), 'utf8')).toBe(summary);

    await writeFile(join(dir, 'README.md'), '# Alpha\n\none, edited\n');
    git(dir, 'commit', '-qam', 'Edit Alpha');
    const withOther = await runCli(['push', '--dir', dir], env);
    expect(withOther.code, withOther.stdout + withOther.stderr).toBe(4);
    expect(await readFile(join(dir, 'SUMMARY.md'), 'utf8')).toBe(summary);
    expect(git(dir, 'show', 'HEAD:SUMMARY.md')).toBe(summary);
  });
});
