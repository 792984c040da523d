import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonFile } from '../../src/sync/index.js';
import { writeFileAtomic } from '../../src/workspace/index.js';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'docsync-atomic-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  // A fixed temporary name (`path.tmp`, as mirror's index once had) fails here: one writer's
  // rename takes the file another is still writing, and that one's rename finds nothing.
  it('lets many writers of one path write at once: every write succeeds and the file is one of them, whole', async () => {
    const path = join(dir, 'index.json');
    const texts = Array.from({ length: 24 }, (_, i) => `${String(i).repeat(20_000)}\n`);
    await Promise.all(texts.map((text) => writeFileAtomic(path, text)));
    expect(texts).toContain(await readFile(path, 'utf8'));
    expect(await readdir(dir)).toEqual(['index.json']);
  });

  it('does the same for JSON state files (the mirror index, the sync state)', async () => {
    const path = join(dir, 'state.json');
    const values = Array.from({ length: 16 }, (_, i) => ({ version: 1, folders: { [`s${i}`]: 'x'.repeat(10_000) } }));
    await Promise.all(values.map((value) => writeJsonFile(path, value)));
    expect(values).toContainEqual(JSON.parse(await readFile(path, 'utf8')));
    expect((await readdir(dir)).filter((name) => name.includes('.tmp'))).toEqual([]);
  });

  it('applies the mode whatever the umask, and leaves no temporary file when the write fails', async () => {
    const path = join(dir, 'secret.json');
    await writeFileAtomic(path, '{}\n', { mode: 0o600, flush: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await expect(writeFileAtomic(join(dir, 'missing', 'x.json'), '{}')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(dir)).filter((name) => name.includes('.tmp'))).toEqual([]);
  });
});
