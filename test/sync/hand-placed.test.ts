import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createClient, type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import { pull } from '../../src/sync/pull/pull.js';
import { readState } from '../../src/sync/state/state.js';
import { clonedSpace, editMain, git, remoteMarkdown } from './fixture.js';

// Issue 13, item 1: a page file kept outside GitBook's standard path stays where the writer put
// it through push, read-back and pull; it is never moved, deleted or re-created empty.
describe.each(testDialects())('hand-placed pages (%s)', (dialect) => {
  let s: TestServer;
  let work: string;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    work = await mkdtemp(join(tmpdir(), 'docsync-hand-placed-'));
    client = createClient({ baseUrl: s.url, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  const summary =
    '# Table of contents\n\n* [Alpha](README.md)\n* [Beta](beta.md)\n* [Note](misc/note.md)\n* [Tutorials](tutorials.md)\n  * [One](tutorials/one.md)\n';

  it('keeps misc/note.md and tutorials.md beside tutorials/ through push, read-back, edits and pull', async () => {
    const t = await clonedSpace(s, client, work, 'hand-placed');
    await mkdir(join(t.dir, 'misc'));
    await mkdir(join(t.dir, 'tutorials'));
    await writeFile(join(t.dir, 'misc', 'note.md'), '# Note\n\nmy note\n');
    await writeFile(join(t.dir, 'tutorials.md'), '# Tutorials\n\nall tutorials\n');
    await writeFile(join(t.dir, 'tutorials', 'one.md'), '# One\n\nfirst tutorial\n');
    await writeFile(join(t.dir, 'SUMMARY.md'), summary);
    git(t.dir, 'add', '-A');
    git(t.dir, 'commit', '-qm', 'Hand-placed pages');

    const first = await push(client, t.dir);
    expect(first.counts).toMatchObject({ inserted: 3, deleted: 0 });
    const crId = first.changeRequest!.id;
    // The read-back moved nothing: the writer's files are where they were, nothing new appeared.
    expect(existsSync(join(t.dir, 'note.md'))).toBe(false);
    expect(existsSync(join(t.dir, 'tutorials', 'README.md'))).toBe(false);
    expect(await readFile(join(t.dir, 'misc', 'note.md'), 'utf8')).toBe('# Note\n\nmy note\n');
    expect(await readFile(join(t.dir, 'tutorials.md'), 'utf8')).toBe('# Tutorials\n\nall tutorials\n');
    expect(await readFile(join(t.dir, 'SUMMARY.md'), 'utf8')).toBe(summary);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
    const pages = (await readState(t.dir)).branches.main!.outbox!.index.pages;
    const note = pages['misc/note.md']!;
    const tutorials = pages['tutorials.md']!;
    expect(note).toBeDefined();
    expect(tutorials).toBeDefined();

    // Edits to both are updates of the same pages, twice over; never a delete and an empty insert.
    for (const round of [1, 2]) {
      await writeFile(join(t.dir, 'misc', 'note.md'), `# Note\n\nmy note, round ${round}\n`);
      await writeFile(join(t.dir, 'tutorials.md'), `# Tutorials\n\nall tutorials, round ${round}\n`);
      git(t.dir, 'commit', '-qam', `Round ${round}`);
      const again = await push(client, t.dir);
      expect(again.changes.map((c) => c.operation).sort()).toEqual(['update_page', 'update_page']);
      expect(await remoteMarkdown(s, t.spaceId, note, crId)).toContain(`my note, round ${round}`);
      expect(await remoteMarkdown(s, t.spaceId, tutorials, crId)).toContain(`all tutorials, round ${round}`);
      expect(existsSync(join(t.dir, 'misc', 'note.md'))).toBe(true);
      expect(git(t.dir, 'status', '--porcelain')).toBe('');
      expect((await push(client, t.dir)).changes).toEqual([]);
    }

    // The change request merged and a platform edit pulled: it lands in the writer's file.
    expect((await s.request('POST', `/v1/spaces/${t.spaceId}/change-requests/${crId}/merge`)).status).toBe(200);
    await editMain(s, t.spaceId, [
      { operation: 'update_page', page: note, document: { markdown: '# Note\n\nmy note, edited on the platform\n' } },
    ]);
    const pulled = await pull(client, t.dir);
    expect(pulled.flatMap((p) => p.conflicts)).toEqual([]);
    expect(await readFile(join(t.dir, 'misc', 'note.md'), 'utf8')).toBe('# Note\n\nmy note, edited on the platform\n');
    expect(existsSync(join(t.dir, 'note.md'))).toBe(false);
    expect(await readFile(join(t.dir, 'tutorials.md'), 'utf8')).toBe('# Tutorials\n\nall tutorials, round 2\n');
    expect(existsSync(join(t.dir, 'tutorials', 'README.md'))).toBe(false);
    expect(git(t.dir, 'status', '--porcelain')).toBe('');
  });
});
