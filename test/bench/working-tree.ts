// Micro benchmark, run by hand (not part of `npm run bench`):
//   node --import tsx test/bench/working-tree.ts [files]
// workingTreeChanges on a workspace of 5,000 files (50 folders of 100) against what it cost
// before, isomorphic-git's statusMatrix, in the states a push meets it in. Then the daemon's
// save: one file changed and committed (workingTreeChanges, then commitWorkingTree) on 5,000
// files and on 10, against the commit it made before (isomorphic-git's add and commit), and
// with the change found at the saved path alone (workingTreeChangesAt, as the file watcher
// knows it) instead of by the full walk.
import { execFileSync } from 'node:child_process';
import fs, { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as git from 'isomorphic-git';
import {
  commitFiles,
  commitWorkingTree,
  initRepo,
  type WorkingTreeChange,
  workingTreeChanges,
  workingTreeChangesAt,
} from '../../src/git/index.js';
import { repo } from '../../src/git/repo.js';
import { statusRows } from '../../src/git/working-tree/status-matrix.js';

const count = Number(process.argv[2] ?? 5000);
const rounds = 7;
const saveRounds = 15;

/** The previous workingTreeChanges: statusMatrix and the same mapping. */
async function before(dir: string): Promise<number> {
  const rows = await git.statusMatrix({ fs, dir, cache: {} });
  return rows.filter(([, head, workdir]) => (head === 1 && workdir !== 1) || (head === 0 && workdir === 2)).length;
}

const author = { name: 'Bench', email: 'bench@example.test' };

/** The previous commitWorkingTree: the same status rows, then isomorphic-git's add and commit of the whole index. */
async function commitBefore(dir: string): Promise<string> {
  const r = await repo(dir);
  const rows = await statusRows(r);
  const toAdd = rows.filter(([, , workdir, stage]) => workdir !== 0 && workdir !== stage).map(([path]) => path);
  if (toAdd.length > 0) await git.add({ fs, dir, filepath: toAdd, cache: r.cache });
  for (const [path] of rows.filter(([, , workdir, stage]) => workdir === 0 && stage !== 0))
    await git.remove({ fs, dir, filepath: path, cache: r.cache });
  const person = { ...author, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  return git.commit({ fs, dir, message: 'save', author: person, committer: person, cache: r.cache });
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
  files.set(
    `section-${Math.floor(i / 100)}/page-${i % 100}.md`,
    `## About ${i}\n\nSome text for page ${i}, long enough to look like documentation.\n`,
  );
}

async function clone(dir: string, content = files): Promise<string> {
  await initRepo(dir);
  await commitFiles(dir, { branch: 'main', parent: null, files: content, message: 'clone', author, checkout: true });
  return dir;
}

const middle = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

type Detect = (dir: string, path: string) => Promise<WorkingTreeChange[]>;

const fullWalk: Detect = (dir) => workingTreeChanges(dir);
const atPath: Detect = async (dir, path) => (await workingTreeChangesAt(dir, [path]))!;

/**
 * A save as the daemon makes it: one file written, its change found (`detect`), then `commit`
 * given what it found. Medians of the commit alone and of the whole save, over `saveRounds` saves.
 */
async function saves(
  dir: string,
  commit: (dir: string, changes: WorkingTreeChange[]) => Promise<unknown>,
  detect = fullWalk,
): Promise<[number, number]> {
  const path = [...files.keys()].find((name) => fs.existsSync(join(dir, name)))!;
  const commits: number[] = [];
  const totals: number[] = [];
  for (let i = 0; i < saveRounds; i += 1) {
    writeFileSync(join(dir, path), `save ${i} at ${Date.now()}\n`);
    const start = performance.now();
    const changes = await detect(dir, path);
    const walked = performance.now();
    await commit(dir, changes);
    commits.push(performance.now() - walked);
    totals.push(performance.now() - start);
  }
  execFileSync('git', ['diff', '--quiet', 'HEAD'], { cwd: dir }); // every save was committed
  return [middle(commits), middle(totals)];
}

async function once(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function benchSaves(work: string): Promise<void> {
  const small = new Map([...files].slice(0, 10));
  const givenChanges = (dir: string, changes: WorkingTreeChange[]) => commitWorkingTree(dir, { message: 'save', author, changes });
  const ways: [string, (dir: string, changes: WorkingTreeChange[]) => Promise<unknown>, Detect][] = [
    ['before: isomorphic-git add and commit', (dir) => commitBefore(dir), fullWalk],
    ['now: commitWorkingTree (its own status walk)', (dir) => commitWorkingTree(dir, { message: 'save', author }), fullWalk],
    ['now: commitWorkingTree given the changes', givenChanges, fullWalk],
    ['now: changes at the saved path, commit given them', givenChanges, atPath],
  ];
  console.log(`one save (median of ${saveRounds}): the commit, then the whole save with the change detection before it`);
  console.log(`  ${''.padEnd(58)} ${'10 files'.padStart(9)} ${`${count} files`.padStart(11)}  ratio`);
  for (const [i, [label, commit, detect]] of ways.entries()) {
    const [fewCommit, fewSave] = await saves(await clone(join(work, `small-${i}`), small), commit, detect);
    const [manyCommit, manySave] = await saves(await clone(join(work, `big-${i}`)), commit, detect);
    const row = (what: string, few: number, many: number) =>
      console.log(
        `  ${`${label}, ${what}`.padEnd(58)} ${few.toFixed(1).padStart(6)} ms ${many.toFixed(1).padStart(7)} ms ${(many / few).toFixed(1).padStart(5)}x`,
      );
    row('commit', fewCommit, manyCommit);
    row('save', fewSave, manySave);
  }
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
  const full = await median(() => workingTreeChanges(dir));
  const at = await median(() => workingTreeChangesAt(dir, ['section-3/page-7.md']));
  const folder = await median(() => workingTreeChangesAt(dir, ['section-3']));
  console.log(
    `  ${'one file edited, full walk -> at its path'.padEnd(46)} ${full.toFixed(1).padStart(5)} ms -> ${at.toFixed(1).padStart(5)} ms`,
  );
  console.log(
    `  ${'one file edited, full walk -> at its folder'.padEnd(46)} ${full.toFixed(1).padStart(5)} ms -> ${folder.toFixed(1).padStart(5)} ms`,
  );
  execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.test', 'commit', '-qam', 'edit'], { cwd: dir });
  await compare('clean, index from git commit -a', dir);
  const past = Date.now() / 1000 - 3600;
  for (const path of files.keys()) utimesSync(join(dir, path), past, past);
  const first = await once(() => workingTreeChanges(dir));
  console.log(
    `  ${'every file touched: first call (hash, refresh)'.padEnd(46)} ${''.padStart(5)}    -> ${first.toFixed(1).padStart(5)} ms`,
  );
  await compare('every file touched, index refreshed', dir);
  await benchSaves(work);
} finally {
  rmSync(work, { recursive: true, force: true });
}
