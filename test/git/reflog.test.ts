import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutBranch, commitEdits, commitFiles, commitWorkingTree, createBranch, initRepo } from '../../src/git/index.js';
import { reflogLine } from '../../src/git/format/reflog-line.js';
import { author, gitCli, tempDir } from './helpers.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('reflogLine', () => {
  it('writes the line git writes: zeros for a new ref, the zone in git form, the first line of the message', () => {
    const who = { name: 'Ada Writer', email: 'ada@example.com', timestamp: 1_700_000_000 };
    expect(reflogLine(null, 'b'.repeat(40), who, 'commit (initial): Start\n\nbody')).toBe(
      `${'0'.repeat(40)} ${'b'.repeat(40)} Ada Writer <ada@example.com> 1700000000 +0000\tcommit (initial): Start\n`,
    );
    expect(reflogLine('a'.repeat(40), 'b'.repeat(40), { ...who, timezoneOffset: -330 }, 'x')).toContain(' 1700000000 +0530\tx\n');
    expect(reflogLine('a'.repeat(40), 'b'.repeat(40), { ...who, timezoneOffset: 60 }, 'x')).toContain(' 1700000000 -0100\tx\n');
  });
});

/** Refs docsync moves get reflog entries as git writes them, so `git reflog` can undo what docsync did (issue 12, part 5). */
describe('reflog entries of the refs docsync moves', () => {
  it('commits, branch creation and checkout are in the branch logs and HEAD log that git reads', async () => {
    const dir = await tempDir();
    await initRepo(dir);
    const first = await commitFiles(dir, {
      branch: 'main',
      parent: null,
      files: new Map([['a.md', bytes('one\n')]]),
      message: 'Start',
      author,
      checkout: true,
    });
    await writeFile(join(dir, 'a.md'), 'two\n');
    const second = (await commitWorkingTree(dir, { message: 'Edit a\n\nwith a body', author }))!;
    const third = await commitEdits(dir, {
      branch: 'main',
      parent: second,
      from: second,
      edits: new Map([['b.md', bytes('b\n')]]),
      message: 'docsync: pull',
      author,
    });
    await createBranch(dir, 'fix', third);
    await checkoutBranch(dir, 'fix');

    expect(await gitCli(dir, 'reflog', 'show', '--format=%H %gs', 'main')).toBe(
      [`${third} commit: docsync: pull`, `${second} commit: Edit a`, `${first} commit (initial): Start`].join('\n') + '\n',
    );
    expect(await gitCli(dir, 'rev-parse', 'main@{1}')).toBe(`${second}\n`);
    expect(await gitCli(dir, 'reflog', 'show', '--format=%H %gs', 'fix')).toBe(`${third} branch: Created from ${third}\n`);
    // HEAD's log: the commits made while HEAD named main, then the switch.
    const head = (await gitCli(dir, 'reflog', 'show', '--format=%gs', 'HEAD')).trim().split('\n');
    expect(head[0]).toBe('checkout: moving from main to fix');
    expect(head).toContain('commit: Edit a');
    expect(head).toContain('commit: docsync: pull');
    expect(await gitCli(dir, 'reflog', 'show', '--format=%gn <%ge>', '-1', 'main')).toBe(`${author.name} <${author.email}>\n`);
    // git itself finds nothing wrong with the logs.
    expect(await gitCli(dir, 'fsck', '--no-progress')).toBe('');
  });

  it('writes no log where git would not: core.logAllRefUpdates false', async () => {
    const dir = await tempDir();
    await initRepo(dir);
    await gitCli(dir, 'config', 'core.logAllRefUpdates', 'false');
    const first = await commitFiles(dir, {
      branch: 'main',
      parent: null,
      files: new Map([['a.md', bytes('one\n')]]),
      message: 'Start',
      author,
      checkout: true,
    });
    await createBranch(dir, 'fix', first);
    expect(await gitCli(dir, 'reflog', 'show', 'fix')).toBe('');
  });
});
