// Issue 4: time to clone a 5,000-page space against `git clone` (pack protocol over file://, no
// hard links) of the same folder from a local bare repository, measured in the same run, and
// the number of HTTP requests the clone made. Several runs, since file creation on this kind of
// machine swings with what was deleted just before (docs/git.md).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunningServer } from '../../src/server/serve.js';
import { createClient } from '../../src/client/index.js';
import { clone } from '../../src/sync/index.js';

interface Run {
  cloneMs: number;
  /** Until main is committed and checked out: main's fetch, and the change requests' fetched alongside. */
  mainMs: number;
  branches: number;
  requests: number;
  gitMs: number;
}

async function oneRun(server: RunningServer, token: string, spaceId: string): Promise<Run> {
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-clone-'));
  try {
    const client = createClient({ baseUrl: server.url, token });
    const start = performance.now();
    // The first "change requests" event comes once main is committed and checked out.
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
    return { cloneMs, mainMs, branches: result.branches.length - 1, requests: result.requests, gitMs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function benchClone(server: RunningServer, token: string, spaceId: string, pages: number): Promise<void> {
  const runs = Number(process.env.BENCH_CLONE_RUNS ?? 3);
  console.log(`\nclone of a ${pages}-page space, ${runs} runs (target: docsync ≤ 3x git clone file:// of the same folder)`);
  const ratios: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const run = await oneRun(server, token, spaceId);
    ratios.push(run.cloneMs / run.gitMs);
    console.log(
      `  docsync clone ${seconds(run.cloneMs)} (main fetched with ${run.branches} change request(s), committed and checked out ${seconds(run.mainMs)}, ` +
        `then the change request branch(es) ${seconds(run.cloneMs - run.mainMs)}), ${run.requests} HTTP requests; ` +
        `git clone ${seconds(run.gitMs)}: ${(run.cloneMs / run.gitMs).toFixed(1)}x`,
    );
  }
  ratios.sort((a, b) => a - b);
  console.log(
    `  median ${ratios[Math.floor(ratios.length / 2)]!.toFixed(1)}x, range ${ratios[0]!.toFixed(1)}x to ${ratios.at(-1)!.toFixed(1)}x`,
  );
}
