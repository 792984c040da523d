// Issue 5: time to push a one-page edit from a workspace of a 5,000-page space against the same
// edit in a 10-page space, in the same run (target: cost independent of size, ratio ≤ 1.5), and
// the HTTP requests one push makes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RunningServer } from '../../src/server/serve.js';
import { createClient } from '../../src/client/index.js';
import { clone, push } from '../../src/sync/index.js';

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', ...args], { cwd: dir, encoding: 'utf8' });

/** Median push time of `rounds` one-page edits on a branch of a fresh clone, and requests per push. */
async function onePagePushes(server: RunningServer, token: string, spaceId: string, rounds: number) {
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-push-'));
  const client = createClient({ baseUrl: server.url, token });
  try {
    const dir = join(work, 'ws');
    await clone({ client, apiUrl: server.url, spaceId, dir });
    git(dir, 'checkout', '-qb', 'edits');
    // The first push opens the change request: not what is measured.
    const page =
      git(dir, 'ls-files', '*.md')
        .split('\n')
        .filter((p) => p.includes('/') && !p.endsWith('README.md'))[0] ?? 'README.md';
    const edit = (i: number) => {
      writeFileSync(join(dir, page), `${readFileSync(join(dir, page), 'utf8')}\nEdit ${i}.\n`);
      git(dir, 'commit', '-qam', `edit ${i}`);
    };
    edit(0);
    await push(client, dir);
    const times: number[] = [];
    let requests = 0;
    for (let i = 1; i <= rounds; i += 1) {
      edit(i);
      const before = client.stats.requests;
      const start = performance.now();
      const result = await push(client, dir);
      times.push(performance.now() - start);
      requests += client.stats.requests - before;
      if (result.changes.length !== 1) throw new Error(`a one-page edit planned ${result.changes.length} operations`);
    }
    times.sort((a, b) => a - b);
    return { median: times[Math.floor(times.length / 2)]!, requests: requests / rounds };
  } finally {
    await client.close();
    rmSync(work, { recursive: true, force: true });
  }
}

export async function benchPush(
  server: RunningServer,
  token: string,
  big: { spaceId: string; pages: number },
  small: { spaceId: string; pages: number },
): Promise<void> {
  const rounds = 9;
  const smallRun = await onePagePushes(server, token, small.spaceId, rounds);
  const bigRun = await onePagePushes(server, token, big.spaceId, rounds);
  console.log(`\npush of a one-page edit (median of ${rounds})`);
  console.log(`  ${big.pages}-page workspace   ${bigRun.median.toFixed(0)} ms, ${bigRun.requests.toFixed(1)} HTTP requests`);
  console.log(`  ${small.pages}-page workspace     ${smallRun.median.toFixed(0)} ms, ${smallRun.requests.toFixed(1)} HTTP requests`);
  console.log(`  ratio ${(bigRun.median / smallRun.median).toFixed(2)}x (target ≤ 1.5)`);
}
