// Issues 5 and 23: what a one-page change costs the sync tool in a workspace of a 5,000-page space
// against the same change in a 10-page space, in the same run (target: cost that follows the
// change, not the space: push ≤ 1.2x, pull ≤ 1.5x), run as users run it: the built CLI
// (dist/cli/bin.js) in a child process. Push: a one-page edit committed on a branch, then
// `docsync push`. Pull: a one-page edit made on the platform (change request written and
// merged through the API), then `docsync pull`. The two workspaces take turns, so that load
// from elsewhere on the machine falls on both alike. A process start (`docsync --version`) is
// measured in the same turns; the figures are given whole and with that start taken off.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { PARSE_LIMITS } from '../../src/server/parse/limits.js';
import { buildSpace } from './content.js';
import { recordFigure } from './issue-table.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', ...args], { cwd: dir, encoding: 'utf8' });

/**
 * `BENCH_PUSH_BEFORE=<path of another build's cli/bin.js>`: pushes are also run with that build,
 * in the same turns on the same workspaces, so that a change's before and after come from one
 * run (the build must be able to run from where it is, e.g. a copy of dist/ beside package.json
 * and a node_modules link).
 */
const BEFORE = process.env.BENCH_PUSH_BEFORE;

/**
 * `BENCH_PUSH_CPU_PROF=<folder>`: each measured push writes a CPU profile (node --cpu-prof) into
 * `<folder>/<pages>`, to compare where the time of the two workspaces goes (the times then
 * include the profiler's cost).
 */
const CPU_PROF = process.env.BENCH_PUSH_CPU_PROF;

/** Runs the built CLI; resolves with its wall time in ms. */
function docsync(args: string[], env: Record<string, string>, bin = BIN, nodeArgs: string[] = []): Promise<number> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('DOCSYNC_')));
  const start = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...nodeArgs, bin, ...args], { env: { ...base, ...env } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`docsync ${args.join(' ')}: ${stderr || stdout || error.message}`));
      else resolve(performance.now() - start);
    });
  });
}

interface Side {
  pages: number;
  spaceId: string;
  dir: string;
  /** A page file edited on the branch (push). */
  pushFile: string;
  /** The page edited on the platform (pull), and its file. */
  pullPage: string;
  pullFile: string;
  push: number[];
  /** The same pushes with the BENCH_PUSH_BEFORE build. */
  pushBefore: number[];
  pull: number[];
}

async function api(server: RunningServer, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Clones the space twice with the CLI: one clone pushes from a branch, the other pulls main. */
async function prepare(
  server: RunningServer,
  token: string,
  env: Record<string, string>,
  work: string,
  space: { spaceId: string; pages: number },
) {
  const dir = join(work, `push-${space.pages}`);
  const pullDir = join(work, `pull-${space.pages}`);
  await docsync(['clone', space.spaceId, dir], env);
  await docsync(['clone', space.spaceId, pullDir], env);
  git(dir, 'checkout', '-qb', 'edits');
  const pages = git(dir, 'ls-files', '*.md')
    .split('\n')
    .filter((p) => p.includes('/') && !p.endsWith('README.md'));
  const pushFile = pages[0] ?? 'README.md';
  const pullFile = pages[1] ?? pages[0] ?? 'README.md';
  const listed = await api(server, token, 'GET', `/v1/spaces/${space.spaceId}/content/path/${pullFile.replace(/\.md$/, '')}`);
  const side: Side = {
    ...space,
    dir: pullDir,
    pushFile: join(dir, pushFile),
    pullPage: listed.id,
    pullFile: join(pullDir, pullFile),
    push: [],
    pushBefore: [],
    pull: [],
  };
  // The first push opens the change request, and the first pull and push load what later ones find ready: not measured.
  await onePush(side, 0, env, dir);
  await onePull(server, token, side, 0, env);
  return { side, pushDir: dir };
}

async function onePush(side: Side, i: number | string, env: Record<string, string>, dir: string, bin = BIN): Promise<number> {
  writeFileSync(side.pushFile, `${readFileSync(side.pushFile, 'utf8')}\nEdit ${i}.\n`);
  git(dir, 'commit', '-qam', `edit ${i}`);
  const profile = CPU_PROF && i !== 0 ? ['--cpu-prof', `--cpu-prof-dir=${join(CPU_PROF, String(side.pages))}`] : [];
  const ms = await docsync(['push', '--dir', dir, '--json'], env, bin, profile);
  const sent = git(dir, 'log', '-1', '--format=%s');
  if (!sent.startsWith(`edit ${i}`)) throw new Error(`the push of edit ${i} committed something after it: ${sent}`);
  return ms;
}

async function onePull(server: RunningServer, token: string, side: Side, i: number, env: Record<string, string>): Promise<number> {
  const marker = `Edited on the platform ${i} (${process.pid}).`;
  const cr = await api(server, token, 'POST', `/v1/spaces/${side.spaceId}/change-requests`, { subject: `remote ${i}` });
  await api(server, token, 'POST', `/v1/spaces/${side.spaceId}/change-requests/${cr.id}/content`, {
    changes: [{ operation: 'update_page', page: side.pullPage, document: { markdown: `## Edited\n\n${marker}\n` } }],
  });
  await api(server, token, 'POST', `/v1/spaces/${side.spaceId}/change-requests/${cr.id}/merge`);
  const ms = await docsync(['pull', '--dir', side.dir, '--json'], env);
  if (!readFileSync(side.pullFile, 'utf8').includes(marker)) throw new Error(`the pull did not bring ${marker} into ${side.pullFile}`);
  return ms;
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

export async function benchPush(
  server: RunningServer,
  token: string,
  big: { spaceId: string; pages: number },
  small: { spaceId: string; pages: number },
): Promise<void> {
  if (process.env.BENCH_PUSH === '0') return;
  const rounds = Number(process.env.BENCH_PUSH_ROUNDS ?? 15);
  // Built each time: figures of a stale dist/ would describe other code.
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-push-'));
  const env = { XDG_CONFIG_HOME: join(work, 'config'), DOCSYNC_API_URL: server.url, DOCSYNC_TOKEN: token };
  try {
    const sides = [await prepare(server, token, env, work, small), await prepare(server, token, env, work, big)];
    const starts: number[] = [];
    const load = loadavg()[0]!;
    for (let i = 1; i <= rounds; i += 1) {
      starts.push(await docsync(['--version'], env));
      for (const { side, pushDir } of sides) {
        // The two builds take turns at going first: the first push of a workspace in a round
        // finds its 5,000 files' metadata less often in the kernel's caches.
        const after = async () => side.push.push(await onePush(side, i, env, pushDir));
        const before = async () => BEFORE && side.pushBefore.push(await onePush(side, `${i} before`, env, pushDir, BEFORE));
        if (i % 2 === 0) await before();
        await after();
        if (i % 2 === 1) await before();
      }
      for (const { side } of sides) side.pull.push(await onePull(server, token, side, i, env));
    }
    const start = median(starts);
    const [s, b] = sides.map((x) => x.side) as [Side, Side];
    const row = (what: 'push' | 'pushBefore' | 'pull', target: string) => {
      const [sm, bm] = [median(s[what]), median(b[what])];
      const name = `one-page ${what === 'pushBefore' ? 'push, other build' : what} (median of ${rounds})`;
      const figure = (label: string, small: number, big: number) =>
        recordFigure(23, {
          figure: `${name}${label}`,
          baseline: `${small.toFixed(0)} ms (${s.pages} pages)`,
          measured: `${big.toFixed(0)} ms (${b.pages} pages)`,
          ratio: `${(big / small).toFixed(2)}x`,
          target,
        });
      figure(', whole command', sm, bm);
      figure(', less the process start', sm - start, bm - start);
      console.log(
        `  ${what} ${`${bm.toFixed(0)} ms`.padStart(8)} vs ${`${sm.toFixed(0)} ms`.padStart(7)}: ${(bm / sm).toFixed(2)}x whole; ` +
          `less the process start ${(bm - start).toFixed(0)} vs ${(sm - start).toFixed(0)} ms: ${((bm - start) / (sm - start)).toFixed(2)}x (target ${target})`,
      );
    };
    console.log(
      `\none-page change, docsync push / pull from dist/ (child process), ${b.pages}-page workspace vs ${s.pages}-page workspace, median of ${rounds} taking turns; ` +
        `process start (docsync --version) median ${start.toFixed(0)} ms; load average ${load.toFixed(1)} -> ${loadavg()[0]!.toFixed(1)}`,
    );
    row('push', '≤ 1.2x');
    if (BEFORE) row('pushBefore', `≤ 1.2x; the same pushes with ${BEFORE}`);
    row('pull', '≤ 1.5x');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * `npm run bench -- push`: this figure alone, on a server of its own (SQLite in a temporary
 * folder) holding a 5,000-page and a 10-page space built as benchContent builds them.
 */
export async function benchPushAlone(): Promise<void> {
  // As in run.ts: building the 5,000-page space is not measured and must not meet the parse budget.
  PARSE_LIMITS.budgetMs = Number(process.env.BENCH_PARSE_BUDGET_MS ?? 120_000);
  const token = 'bench-token-0123456789';
  const dataDir = mkdtempSync(join(tmpdir(), 'docsync-bench-push-server-'));
  const server = await serve({ host: '127.0.0.1', port: 0, bootstrapToken: token, dataDir });
  try {
    const orgs = await api(server, token, 'GET', '/v1/orgs');
    const org = orgs.items[0].id as string;
    const big = await buildSpace(server, org, 50, 100);
    const small = await buildSpace(server, org, 2, 5);
    await benchPush(server, token, { spaceId: big.spaceId, pages: 5000 }, { spaceId: small.spaceId, pages: 10 });
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
