// Issue 14: a real Git Sync folder (the visible corpus, DOCSYNC_CORPUS_DIR/currents-readme)
// pushed into an empty space and merged, then cloned back, against `git clone` (pack protocol
// over file://, no hard links) of the same folder from a local bare repository, in the same run.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '../../src/server/serve.js';
import { createClient } from '../../src/client/index.js';
import { clone, push } from '../../src/sync/index.js';

const TOKEN = 'bench-corpus-token-0123456789';
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.test', ...args], { cwd, encoding: 'utf8' });
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function benchCorpus(): Promise<void> {
  const root = process.env.DOCSYNC_CORPUS_DIR;
  const folder = root === undefined || root === '' ? undefined : join(resolve(root), 'currents-readme');
  if (folder === undefined || !existsSync(folder)) {
    console.log('\ncorpus push and clone: not run (set DOCSYNC_CORPUS_DIR to the folder of Git Sync exports, as .ci/run does)');
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'docsync-bench-corpus-'));
  const server = await serve({ host: '127.0.0.1', port: 0, bootstrapToken: TOKEN, dataDir: join(work, 'data') });
  const client = createClient({ baseUrl: server.url, token: TOKEN });
  try {
    const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const orgs = (await (await fetch(`${server.url}/v1/orgs`, { headers: auth })).json()) as { items: { id: string }[] };
    const space = (await (
      await fetch(`${server.url}/v1/orgs/${orgs.items[0]!.id}/spaces`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ title: 'Corpus', empty: true }),
      })
    ).json()) as { id: string };
    const writer = join(work, 'writer');
    await clone({ client, apiUrl: server.url, spaceId: space.id, dir: writer });
    for (const entry of readdirSync(writer)) if (entry !== '.git') rmSync(join(writer, entry), { recursive: true, force: true });
    cpSync(folder, writer, { recursive: true });
    git(writer, 'add', '-A');
    git(writer, 'commit', '-qm', 'Import the corpus');
    const files = git(writer, 'ls-files')
      .split('\n')
      .filter((l) => l !== '').length;

    const pushStart = performance.now();
    const pushed = await push(client, writer);
    await client.changeRequests.merge(space.id, pushed.changeRequest!.id);
    const pushMs = performance.now() - pushStart;

    const cloneStart = performance.now();
    const result = await clone({ client, apiUrl: server.url, spaceId: space.id, dir: join(work, 'reader') });
    const cloneMs = performance.now() - cloneStart;

    const bare = join(work, 'bare.git');
    execFileSync('git', ['clone', '--quiet', '--bare', '--no-local', writer, bare]);
    const gitStart = performance.now();
    execFileSync('git', ['clone', '--quiet', '--no-local', `file://${bare}`, join(work, 'git')]);
    const gitMs = performance.now() - gitStart;

    console.log(
      `\ncorpus currents-readme (${files} files): push into an empty space and merge, then clone back, against git clone file:// of the same folder`,
    );
    console.log(`  push + merge  ${seconds(pushMs)}, ${pushed.batches} batch(es): ${(pushMs / gitMs).toFixed(1)}x git clone`);
    console.log(`  docsync clone ${seconds(cloneMs)}, ${result.requests} HTTP requests: ${(cloneMs / gitMs).toFixed(1)}x git clone`);
    console.log(`  git clone     ${seconds(gitMs)}`);
  } finally {
    await client.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
