import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { privatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';

/*
 * Issue 24, "PostgreSQL restarted under a write load": a server on a PostgreSQL of the test's own
 * (helpers/private-postgres.ts; the shared one must not be restarted) while writers fill change
 * requests; PostgreSQL is restarted three times (a fast shutdown, a crash, a fast shutdown). The
 * server must stay up (node-postgres reports a connection lost while idle as an 'error' event,
 * which unheard ends the process), answer every request it cannot serve with 503 and
 * `Retry-After` (never a 500), lose no acknowledged write, serve again once the database is
 * back, and finish a background job that was running across a restart.
 * Runs with the PostgreSQL suite (DOCSYNC_TEST_DATABASE_URL set, as in .ci/run), which installs
 * the binaries it uses.
 */
const TOKEN = 'restart-token-0123456789abcdef';
const WRITERS = 3;
const log: string[] = [];

describe.runIf(process.env.DOCSYNC_TEST_DATABASE_URL !== undefined)('PostgreSQL restarted under a write load (postgres)', () => {
  let pg: PrivatePostgres;
  let server: RunningServer;
  let specs: Server;
  let specUrl: string;
  let releaseSpec: () => void = () => {};
  const specAsked = new Promise<void>((resolve) => {
    specs = createServer((req, res) => {
      resolve();
      // Held until the test lets it go: the job is mid-way when PostgreSQL goes down.
      releaseSpec = () => {
        if (res.writableEnded) return;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ openapi: '3.0.3', info: { title: 'Held', version: '1.0.0' }, paths: {} }));
      };
      void req;
    });
  });

  beforeAll(async () => {
    pg = await privatePostgres();
    await pg.start();
    server = await serve({
      host: '127.0.0.1',
      port: 0,
      bootstrapToken: TOKEN,
      databaseUrl: pg.url,
      allowPrivateFetch: true,
      jobIntervalMs: 100,
      log: { level: 'warn', stream: { write: (line: string) => log.push(line) } },
    });
    await new Promise<void>((resolve) => specs.listen(0, '127.0.0.1', resolve));
    specUrl = `http://127.0.0.1:${(specs.address() as { port: number }).port}/spec.json`;
  }, 120_000);
  afterAll(async () => {
    releaseSpec();
    specs?.close();
    await server?.close();
    await pg?.destroy();
  });

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; retryAfter: string | null }> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: res.headers.get('retry-after') };
  }

  /** A request sent until it is answered, each refusal a 503 with Retry-After while the database is away. */
  async function until2xx(method: string, path: string, body?: unknown): Promise<any> {
    for (let attempt = 0; ; attempt += 1) {
      const res = await call(method, path, body);
      if (res.status < 300) return res.body;
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(503);
      expect(res.retryAfter).toBe('1');
      if (attempt > 600) throw new Error(`${method} ${path}: still 503 after a minute`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('keeps every acknowledged write, answers 503 while the database is away, and finishes a job across a restart', async () => {
    const org = (await until2xx('GET', '/v1/orgs')).items[0].id as string;
    const space = await until2xx('POST', `/v1/orgs/${org}/spaces`, { title: 'Restarted', empty: true });
    const crs = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) => until2xx('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `writer ${w}` })),
    );

    const acknowledged: string[][] = crs.map(() => []);
    const refused: number[] = crs.map(() => 0);
    const afterLastRestart: number[] = crs.map(() => 0);
    let restarts = 0;
    let stopping = false;
    const writers = crs.map(async (cr, w) => {
      for (let n = 0; !stopping || afterLastRestart[w]! < 2; n += 1) {
        // A new title each attempt: a write whose answer was lost may or may not be there.
        const title = `Writer ${w} write ${n}`;
        const res = await call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
          changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n\nWritten under restarts.\n` } }],
        });
        if (res.status < 300) {
          acknowledged[w]!.push(title);
          if (restarts === 3) afterLastRestart[w]! += 1;
        } else {
          expect(res.status, `${title}: ${JSON.stringify(res.body)}\n${log.filter((l) => l.includes('"level":50')).join('')}`).toBe(503);
          expect(res.body.error.message).toContain('database');
          refused[w]! += 1;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });

    const someWrites = async () => {
      const before = acknowledged.flat().length;
      while (acknowledged.flat().length < before + WRITERS) await new Promise((r) => setTimeout(r, 20));
    };
    await someWrites();
    // A job mid-way (its fetch held) while PostgreSQL goes down and comes back.
    await until2xx('POST', `/v1/orgs/${org}/openapi`, { slug: 'held', source: { url: specUrl } });
    await specAsked;

    for (const how of ['fast', 'kill', 'fast'] as const) {
      await pg.stop(how);
      // While it is down: a read is a 503 (the server is still there to say so).
      const down = await call('GET', `/v1/spaces/${space.id}`);
      expect(down.status, JSON.stringify(down.body)).toBe(503);
      // And a page for people says so as a page.
      const page = await fetch(`${server.url}/sites/any-site`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('cannot reach its database');
      await pg.start();
      restarts += 1;
      await someWrites();
    }
    releaseSpec();
    stopping = true;
    await Promise.all(writers);

    // Every acknowledged write is in its change request, then in main after the merges.
    for (const [w, cr] of crs.entries()) {
      const content = await until2xx('GET', `/v1/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
      const titles = new Set((content.pages as { title: string }[]).map((p) => p.title));
      for (const title of acknowledged[w]!) expect(titles.has(title), `${title} acknowledged, not in the change request`).toBe(true);
      await until2xx('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`);
    }
    const main = await until2xx('GET', `/v1/spaces/${space.id}/content/pages`);
    const titles = new Set((main.pages as { title: string }[]).map((p) => p.title));
    for (const title of acknowledged.flat()) expect(titles.has(title), `${title} acknowledged, not in main`).toBe(true);
    expect(acknowledged.flat().length).toBeGreaterThanOrEqual(WRITERS * 4);

    // The job that was running across the restarts finished.
    for (const until = Date.now() + 60_000; ;) {
      const spec = await until2xx('GET', `/v1/orgs/${org}/openapi/held`);
      if (spec.processingState === 'complete') {
        expect(spec.lastProcessErrorCode ?? null).toBeNull();
        break;
      }
      if (Date.now() > until) throw new Error(`the held job did not finish: ${JSON.stringify(spec)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // The figures docs/reliability.md quotes.
    process.stdout.write(
      `pg-restart: 3 restarts, ${acknowledged.flat().length} writes acknowledged, ${refused.reduce((a, b) => a + b, 0)} answered 503\n`,
    );
  }, 240_000);
});
