import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESS_TEST_MS } from '../helpers/patience.js';
import { startPreview } from '../../src/preview/index.js';
import { spawnCli, type CliProcess } from '../cli/spawn-cli.js';

// A stop while a large folder is still being read and indexed in the background: the preview
// used to stay alive until every page was read and indexed (seconds on 5,000 pages), and a
// signal during its start killed it instead of stopping it.

const PAGES = 2000;
const dirs: string[] = [];
const children: CliProcess[] = [];

/** A folder of `pages` pages in sections of 100, listed in SUMMARY.md. */
function largeFolder(pages: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'docsync-preview-stop-'));
  dirs.push(dir);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const summary = ['# Table of contents', '', '* [Home](README.md)'];
  write('README.md', '# Home\n');
  for (let made = 1, s = 0; made < pages; s += 1) {
    summary.push(`* [Section ${s}](s${s}/README.md)`);
    write(`s${s}/README.md`, `# Section ${s}\n`);
    made += 1;
    for (let p = 0; p < 99 && made < pages; p += 1, made += 1) {
      summary.push(`  * [Page ${p}](s${s}/p${p}.md)`);
      write(`s${s}/p${p}.md`, `# Page ${p}\n\n{% hint style="info" %}\nText of page ${made}.\n{% endhint %}\n`);
    }
  }
  write('SUMMARY.md', `${summary.join('\n')}\n`);
  return dir;
}

afterAll(async () => {
  for (const proc of children.splice(0)) {
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await proc.exited;
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('stopping docsync preview', () => {
  const dir = largeFolder(PAGES);

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'exits 0 on %s sent as soon as it listens, the folder still being read',
    { timeout: PROCESS_TEST_MS },
    async (signal) => {
      const proc = spawnCli(['preview', dir, '--port', '0']);
      children.push(proc);
      expect(await proc.firstLine).toMatch(/^preview of .* on http:\/\/127\.0\.0\.1:\d+ \(Ctrl-C to stop\)$/);
      proc.child.kill(signal);
      expect(await proc.exited).toBe(0);
    },
  );

  it('close() stops the background reading: `indexed` settles, nothing is left listening', async () => {
    const preview = await startPreview({ dir, port: 0 });
    await preview.close();
    await preview.indexed;
    await expect(fetch(preview.url)).rejects.toThrow();
  });

  it('a start stopped by its signal closes what it opened and rejects with the reason', async () => {
    const stopping = new AbortController();
    const started = startPreview({ dir, port: 0, signal: stopping.signal });
    stopping.abort();
    await expect(started).rejects.toMatchObject({ name: 'AbortError' });
  });
});
