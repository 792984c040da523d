// Micro benchmark, run by hand (not part of `npm run bench`):
//   node --import tsx test/bench/working-tree.ts [files]
// workingTreeChanges on a workspace of 5,000 files (50 folders of 100) against what it cost
// before, isomorphic-git's statusMatrix, in the states a push meets it in.
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as git from 'isomorphic-git';
import { commitFiles, initRepo, workingTreeChanges } from '../../src/git/index.js';

const count = Number(process.argv[2] ?? 5000);
const rounds = 7;

/** The previous workingTreeChanges: statusMatrix and the same mapping. */
async function before(dir: string): Promise<number> {
  const rows = await git.statusMatrix({ fs, dir, cache: {} });
  return rows.filter(([, head, workdir]) => (head === 1 && workdir !== 1) || (head === 0 && workdir === 2)).length;
}

async function median(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

async function compare(label: string, dir: string): Promise<void> {
  const ours = await median(() => workingTreeChanges(dir));
  const theirs = await median(() => before(dir));
  console.log(`  ${label.padEnd(46)} ${theirs.toFixed(0).padStart(5)} ms -> ${ours.toFixed(1).padStart(5)} ms`);
}

const files = new Map<string, string>();
for (let i = 0; i < count; i += 1) {
  files.set(`section-${Math.floor(i / 100)}/page-${i % 100}.md`, `## About ${i}\n\nSome text for page ${i}, long enough to look like documentation.\n`);
}

async function clone(dir: string): Promise<string> {
  await initRepo(dir);
  await commitFiles(dir, { branch: 'main', parent: null, files, message: 'clone', author: { name: 'Bench', email: 'bench@example.test' }, checkout: true });
  return dir;
}

async function once(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const work = mkdtempSync(join(tmpdir(), 'docsync-bench-wt-'));
try {
  const dir = await clone(join(work, 'ws'));
  const other = await clone(join(work, 'other'));
  console.log(`workingTreeChanges, ${count} files (median of ${rounds}; before: statusMatrix -> now)`);
  const [theirs, ours] = [await once(() => before(other)), await once(() => workingTreeChanges(dir))];
  console.log(`  ${'first call after the clone'.padEnd(46)} ${theirs.toFixed(0).padStart(5)} ms -> ${ours.toFixed(1).padStart(5)} ms`);
  await compare('clean, index from the fresh checkout', dir);
  writeFileSync(join(dir, 'section-3/page-7.md'), 'edited\n');
  await compare('one file edited', dir);
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.test', 'commit', '-qam', 'edit'], { cwd: dir });
  await compare('clean, index from git commit -a', dir);
  const past = Date.now() / 1000 - 3600;
  for (const path of files.keys()) utimesSync(join(dir, path), past, past);
  const first = await once(() => workingTreeChanges(dir));
  console.log(`  ${'every file touched: first call (hash, refresh)'.padEnd(46)} ${''.padStart(5)}    -> ${first.toFixed(1).padStart(5)} ms`);
  await compare('every file touched, index refreshed', dir);
} finally {
  rmSync(work, { recursive: true, force: true });
}
