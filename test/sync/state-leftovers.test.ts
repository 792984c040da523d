import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Client } from '../../src/client/index.js';
import { push } from '../../src/sync/push/push.js';
import type { TestServer } from '../helpers/server.js';
import { serverForTests } from './server-for-tests.js';
import { clonedSpace, git } from './fixture.js';

/**
 * A push killed while writing its journal leaves the write's temporary file beside it
 * (`<branch>.json.<pid>-<hex>.tmp`, seen in test/cli/kill-commands.test.ts): the push that ends
 * the journal removes it too, and leaves another branch's journal alone.
 */
describe('temporary files a kill left in .git/docsync', () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-state-leftovers-', (t) => ({ s, client, work } = t));

  it("are removed with the push's journal", async () => {
    const t = await clonedSpace(s, client, work, 'journal');
    git(t.dir, 'checkout', '-qb', 'topic');
    await writeFile(join(t.dir, 'beta.md'), '# Beta\n\ntopic text\n');
    git(t.dir, 'commit', '-qam', 'topic');
    const journal = join(t.dir, '.git', 'docsync', 'journal');
    await mkdir(journal, { recursive: true });
    await writeFile(join(journal, 'topic.json.4242-0123456789ab.tmp'), '{"version":1,"bra');
    await writeFile(join(journal, 'other.json.4242-0123456789ab.tmp'), '{"version":1,"bra');
    await push(client, t.dir);
    expect(await readdir(journal)).toEqual(['other.json.4242-0123456789ab.tmp']);
    expect(git(t.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});
