import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffTrees, readFileAt, readTreeFiles } from '../../src/git/index.js';
import { asText, gitCli, tempRepo, text } from './helpers.js';
import { cliCommit } from './history-script.js';

describe('readTreeFiles and readFileAt', () => {
  it('read a commit made by the git CLI: nested, unicode, binary, executable files', async () => {
    const dir = await tempRepo();
    const content = {
      'README.md': '# Home\n',
      'guides/deep/er/page.md': 'deep\n',
      'é/日本語 ページ.md': 'unicode ✓\n',
      'assets/img.png': new Uint8Array([137, 80, 78, 71, 0, 255]),
    };
    await cliCommit(dir, content, 'first');
    await writeFile(join(dir, 'run.sh'), '#!/bin/sh\n');
    await chmod(join(dir, 'run.sh'), 0o755);
    await gitCli(dir, 'add', '-A');
    await gitCli(dir, 'commit', '-qm', 'exec');
    const head = (await gitCli(dir, 'rev-parse', 'HEAD')).trim();

    const read = await readTreeFiles(dir, head);
    expect([...read.keys()].sort()).toEqual(['README.md', 'assets/img.png', 'guides/deep/er/page.md', 'run.sh', 'é/日本語 ページ.md']);
    expect(read.get('assets/img.png')).toEqual(new Uint8Array([137, 80, 78, 71, 0, 255]));
    expect(text(read.get('é/日本語 ページ.md')!)).toBe('unicode ✓\n');
    expect(text(await readFileAt(dir, head, 'guides/deep/er/page.md'))).toBe('deep\n');
    expect(text(await readFileAt(dir, head, 'run.sh'))).toBe('#!/bin/sh\n');
  });

  it('read packed objects after git gc the same as loose ones', async () => {
    const dir = await tempRepo();
    const first = await cliCommit(dir, { 'a.md': 'a\n', 'b/c.md': 'c\n' }, 'one');
    const second = await cliCommit(dir, { 'a.md': 'a2\n', 'b/d.md': 'c\n' }, 'two');
    const before = [asText(await readTreeFiles(dir, first)), asText(await readTreeFiles(dir, second)), await diffTrees(dir, first, second)];
    await gitCli(dir, 'gc', '-q', '--aggressive', '--prune=now');
    expect(await gitCli(dir, 'count-objects', '-v')).toMatch(/^count: 0$/m);
    expect([
      asText(await readTreeFiles(dir, first)),
      asText(await readTreeFiles(dir, second)),
      await diffTrees(dir, first, second),
    ]).toEqual(before);
  });

  it('throw not-found naming the path, the commit and the repository', async () => {
    const dir = await tempRepo();
    const head = await cliCommit(dir, { 'a.md': 'a\n', 'b/c.md': 'c\n' }, 'one');
    for (const path of ['missing.md', 'b/missing.md', 'b', 'a.md/x']) {
      const error = await readFileAt(dir, head, path).catch((e: unknown) => e);
      expect(error, path).toMatchObject({ code: 'not-found', data: { path, commit: head } });
      expect((error as Error).message).toContain(path);
      expect((error as Error).message).toContain(dir);
    }
    await expect(readTreeFiles(dir, 'e'.repeat(40))).rejects.toMatchObject({ code: 'not-found' });
    await expect(readFileAt(dir, head, '../etc/passwd')).rejects.toMatchObject({ code: 'invalid-path' });
  });
});
