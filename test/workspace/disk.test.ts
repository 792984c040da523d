import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFolder, saveFolder } from '../../src/workspace/index.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docsync-ws-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('loadFolder and saveFolder', () => {
  it('save then load gives the same map: text for markdown and YAML, bytes for the rest; .git is skipped', async () => {
    const files = new Map<string, string | Uint8Array>([
      ['README.md', '# Home\n\n'],
      ['guides/deep/page.md', '# Deep — ünïcode\n'],
      ['.gitbook.yaml', 'root: ./\n'],
      ['.gitbook/assets/a (1).png', new Uint8Array([0, 255, 7])],
    ]);
    await saveFolder(dir, files);
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(await loadFolder(dir)).toEqual(files);
  });

  it('replaces files by rename, leaving no temporary files and other files alone', async () => {
    await writeFile(join(dir, 'keep.md'), 'mine\n');
    await saveFolder(dir, new Map([['README.md', 'one\n']]));
    await saveFolder(dir, new Map([['README.md', 'two\n']]));
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('two\n');
    expect((await readdir(dir)).sort()).toEqual(['README.md', 'keep.md']);
  });

  it('refuses paths that leave the folder', async () => {
    await expect(saveFolder(dir, new Map([['../escape.md', 'x']]))).rejects.toMatchObject({
      code: 'path-outside-folder',
      message: expect.stringContaining('leaves the folder'),
    });
  });
});
