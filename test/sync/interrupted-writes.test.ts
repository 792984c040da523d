import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Client } from '../../src/client/index.js';
import { runCli } from '../cli/run-cli.js';
import type { TestServer } from '../helpers/server.js';
import { serverForTests } from './server-for-tests.js';
import { clonedSpace, editMain, git } from './fixture.js';

/**
 * A pull killed in the middle of writing a file into the working tree (SIGKILL from inside the
 * write, see test/helpers/kill-mid-write.ts), then run again: the file at its path is never half
 * written (the next run would keep half a page as the writer's edit), and no temporary file of
 * the write is left where git or docsync would take it for an untracked file.
 */
const BIN = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
const HOOK = fileURLToPath(new URL('../helpers/kill-mid-write.ts', import.meta.url));
const MARK = 'KILL-MID-WRITE';

/** Every name under `dir` outside `.git`, dot files included. */
async function names(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.filter((name) => !name.startsWith('.git/') && name !== '.git').sort();
}

describe('working-tree writes interrupted by a kill', () => {
  let s: TestServer;
  let client: Client;
  let work: string;
  serverForTests('docsync-interrupted-', (t) => ({ s, client, work } = t));
  const env = () => ({ DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token });

  function killedPull(dir: string): Promise<number | string> {
    const base = { ...process.env };
    for (const key of Object.keys(base)) if (key.startsWith('DOCSYNC_')) delete base[key];
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', HOOK, BIN, 'pull', '--dir', dir], {
      env: { ...base, ...env(), DOCSYNC_TEST_KILL_MARK: MARK },
      stdio: 'ignore',
    });
    return new Promise((resolve) => child.once('close', (code, signal) => resolve(signal ?? code ?? -1)));
  }

  // A page body of some 200 KB, the mark in its middle.
  const big = (name: string) => `# ${name}\n\n${'A line of the page.\n'.repeat(5000)}${MARK}\n${'Another line.\n'.repeat(5000)}`;

  async function expectKillThenRecovery(name: string, changes: (t: Awaited<ReturnType<typeof clonedSpace>>) => unknown[]) {
    const t = await clonedSpace(s, client, work, name);
    const before = await readFile(join(t.dir, 'beta.md'), 'utf8');
    await editMain(s, t.spaceId, changes(t));

    expect(await killedPull(t.dir)).toBe('SIGKILL');
    // Killed while writing beta.md: it is as it was, or as pulled, never half of either.
    const killed = await readFile(join(t.dir, 'beta.md'), 'utf8');
    if (killed !== before) expect(killed).toContain('Another line.\n'.repeat(5000));

    const again = await runCli(['pull', '--dir', t.dir], env());
    expect(again.code, again.stderr).toBe(0);
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toBe(git(t.dir, 'show', 'HEAD:beta.md'));
    expect(await readFile(join(t.dir, 'beta.md'), 'utf8')).toContain(MARK);
    expect(git(t.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect((await names(t.dir)).filter((n) => n.includes('docsync-tmp'))).toEqual([]);
  }

  it('a pull of a few pages (written path by path) killed mid-write', { timeout: 240_000 }, async () => {
    await expectKillThenRecovery('few', (t) => [{ operation: 'update_page', page: t.beta, document: { markdown: big('Beta') } }]);
  });

  it('a pull of many pages (a checkout of the branch) killed mid-write', { timeout: 240_000 }, async () => {
    await expectKillThenRecovery('many', (t) => [
      ...Array.from({ length: 30 }, (_, i) => ({
        operation: 'insert_page',
        title: `Page ${i}`,
        document: { markdown: `# Page ${i}\n\ntext ${i}\n` },
      })),
      { operation: 'update_page', page: t.beta, document: { markdown: big('Beta') } },
    ]);
  });
});
