// Issue 4: time to clone a 5,000-page space against `git clone` (pack protocol over file://, no
// hard links) of the same folder from a local bare repository, measured in the same run, and
// the number of HTTP requests the clone made.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunningServer } from '../../src/server/serve.js';
import { createClient } from '../../src/client/index.js';
import { clone } from '../../src/sync/index.js';

export async function benchClone(server: RunningServer, token: string, spaceId: string, pages: number): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-clone-'));
  try {
    const client = createClient({ baseUrl: server.url, token });
    const start = performance.now();
    // The first "change requests" event comes once main is fetched, committed and checked out.
    let mainMs = 0;
    const onProgress = (event: { stage: string }) => {
      if (event.stage === 'change requests' && mainMs === 0) mainMs = performance.now() - start;
    };
    const result = await clone({ client, apiUrl: server.url, spaceId, dir: join(work, 'docsync'), onProgress });
    const cloneMs = performance.now() - start;
    await client.close();

    const bare = join(work, 'bare.git');
    execFileSync('git', ['clone', '--quiet', '--bare', '--no-local', join(work, 'docsync'), bare]);
    const gitStart = performance.now();
    execFileSync('git', ['clone', '--quiet', '--no-local', `file://${bare}`, join(work, 'git')]);
    const gitMs = performance.now() - gitStart;

    console.log(`\nclone of a ${pages}-page space`);
    console.log(`  docsync clone    ${(cloneMs / 1000).toFixed(2)} s, ${result.requests} HTTP requests`);
    console.log(`    main (fetch, commit, checkout) ${(mainMs / 1000).toFixed(2)} s, then ${result.branches.length - 1} change request branch(es) ${((cloneMs - mainMs) / 1000).toFixed(2)} s`);
    console.log(`  git clone file:// of the same folder ${(gitMs / 1000).toFixed(2)} s: docsync is ${(cloneMs / gitMs).toFixed(1)}x (target ≤ 3x)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
