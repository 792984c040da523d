import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli, type CliProcess } from '../cli/spawn-cli.js';
import { dropPostgresSchema, openDatabase } from '../../src/server/store/db.js';
import { testDialects } from '../helpers/server.js';

const KILLS = 4;
const WRITERS = 3;
const TOKEN = 'kill-durability-bootstrap-token';
const LISTENING = /^docsync API listening on (http:\/\/127\.0\.0\.1:\d+)$/;

/** A small deterministic generator, so a failing run can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Issue 24, faults: a server killed with SIGKILL at random points while writers merge change
 * requests. After each restart every acknowledged merge is in main, every change request's
 * content and main read whole, and nothing half-written is visible (a batch is one transaction).
 */
describe.each(testDialects())('a server killed mid-write (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docsync-kill-'));
  const schema = `kill_${process.pid}_${Date.now().toString(36)}`;
  const env: Record<string, string> = {
    DOCSYNC_BOOTSTRAP_TOKEN: TOKEN,
    ...(dialect === 'postgres' ? { DOCSYNC_DATABASE_URL: process.env.DOCSYNC_TEST_DATABASE_URL!, DOCSYNC_DATABASE_SCHEMA: schema } : {}),
  };
  let running: CliProcess | undefined;
  afterAll(async () => {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    if (running) await running.exited;
    if (dialect === 'postgres') await dropPostgresSchema(process.env.DOCSYNC_TEST_DATABASE_URL!, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    running = spawnCli(['serve', '--port', '0', '--data', dataDir, '--log-level', 'silent', '--rate-limit', '0'], env);
    const match = LISTENING.exec(await running.firstLine);
    if (!match) throw new Error('the server did not announce its address');
    return match[1]!;
  };
  const call = async (url: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: res.status === 205 ? undefined : ((await res.json()) as any) };
  };

  it(`keeps every acknowledged merge and reads whole after ${KILLS} kills at random points`, async () => {
    const seed = Number(process.env.KILL_SEED ?? Date.now() % 100_000);
    const next = random(seed);
    let url = await start();
    const orgs = await call(url, 'GET', '/v1/orgs');
    const space = await call(url, 'POST', `/v1/orgs/${orgs.body.items[0].id}/spaces`, { title: 'Killed', empty: true });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    const acknowledged: string[] = [];
    let counter = 0;

    for (let kill = 0; kill < KILLS; kill += 1) {
      let stop = false;
      // The kill comes at a random point after this run's first acknowledged merge, so every run
      // is killed mid-stream however slow the machine (a cold parse pool takes seconds).
      let progressed: (() => void) | undefined;
      const firstMerge = new Promise<void>((resolve) => (progressed = resolve));
      // Each writer: open a change request, write two pages into it, merge it; over and over.
      const writer = async () => {
        while (!stop) {
          const title = `Page ${(counter += 1)}`;
          try {
            const cr = await call(url, 'POST', `/v1/spaces/${spaceId}/change-requests`, { subject: title });
            if (cr.status !== 201) continue;
            const changes = [
              { operation: 'insert_page', title, document: { markdown: `# ${title}\n\nText of ${title}.\n` } },
              { operation: 'insert_page', title: `${title} b`, document: { markdown: `# ${title} b\n\nMore of ${title}.\n` } },
            ];
            const put = await call(url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, { changes });
            if (put.status !== 200) continue;
            const merged = await call(url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
            if (merged.status === 200 && merged.body.result === 'merge') {
              acknowledged.push(title);
              progressed?.();
            }
          } catch {
            // The connection died with the server: not acknowledged.
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, writer);
      await firstMerge;
      await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 1000)));
      running!.child.kill('SIGKILL');
      expect(await running!.exited).toBe('SIGKILL');
      stop = true;
      await Promise.all(writers);

      url = await start();
      const content = await call(url, 'GET', `/v1/spaces/${spaceId}/content`);
      expect(content.status, `seed ${seed}, kill ${kill}`).toBe(200);
      const titles = new Set((content.body.pages as { title: string }[]).map((page) => page.title));
      for (const title of acknowledged) {
        expect(titles.has(title), `seed ${seed}, kill ${kill}: acknowledged merge of "${title}" lost`).toBe(true);
        // A batch is one transaction: a merged change request brought both of its pages.
        expect(titles.has(`${title} b`), `seed ${seed}, kill ${kill}: half of "${title}"`).toBe(true);
      }
      // Every change request, merged or left open by the kill, reads whole.
      const crs = await call(url, 'GET', `/v1/spaces/${spaceId}/change-requests?limit=1000`);
      for (const cr of crs.body.items as { id: string }[]) {
        const read = await call(url, 'GET', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`);
        expect(read.status, `seed ${seed}, kill ${kill}: change request ${cr.id}`).toBe(200);
      }
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILLS);
    running!.child.kill('SIGTERM');
    expect(await running!.exited).toBe(0);

    if (dialect === 'sqlite') {
      const db = await openDatabase({ dataDir });
      try {
        const check = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(db.kysely);
        expect(check.rows).toEqual([{ integrity_check: 'ok' }]);
      } finally {
        await db.close();
      }
    }
  }, 600_000);
});
