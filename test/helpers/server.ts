import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { dropPostgresSchema } from '../../src/server/store/db.js';
import { createToken, createUser } from '../../src/server/store/users.js';
import { createOrganization, upsertMember } from '../../src/server/store/organizations.js';
import type { Role } from '../../src/model/index.js';
import { TestClock } from './clock.js';
import type { LogOptions } from '../../src/server/log.js';
import type { EventRouteOptions } from '../../src/server/routes/events.js';
import type { RateLimitOptions } from '../../src/server/rate-limit/index.js';

export type TestDialect = 'sqlite' | 'postgres';

/** The databases every server test runs on: SQLite always, PostgreSQL when configured. */
export function testDialects(): TestDialect[] {
  return process.env.DOCSYNC_TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A route as the server registered it (fastify's `onRoute`): one method each. */
export interface RegisteredRoute {
  method: string;
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
}

export interface TestServer {
  url: string;
  /** Every route the server registered, one entry per method, `/v1`, `/app` and `/sites` alike. */
  routes: RegisteredRoute[];
  /** Bearer token of the bootstrap admin. */
  token: string;
  orgId: string;
  clock: TestClock;
  server: RunningServer;
  request<T = any>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string | null; raw?: string; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
  /** Creates a user with a token; with `org`, also a member of it with `role` (null: guest). */
  user(options?: { org?: string; role?: Role | null; name?: string }): Promise<{ id: string; token: string; email: string }>;
  /** Creates another organization whose admin is a new user. */
  organization(title?: string): Promise<{ id: string; adminToken: string; adminId: string }>;
  /** Another server process on the same database (as several processes share one PostgreSQL); closed by `close`. */
  peer(options?: { events?: EventRouteOptions; port?: number }): Promise<RunningServer>;
  close(): Promise<void>;
}

let counter = 0;

/** A real server over HTTP on port 0, on a fresh SQLite directory or PostgreSQL schema. */
export async function startServer(
  dialect: TestDialect = 'sqlite',
  options: { allowPrivateFetch?: boolean; log?: LogOptions; events?: EventRouteOptions; rateLimit?: RateLimitOptions } = {},
): Promise<TestServer> {
  const clock = new TestClock();
  const token = `test_${randomBytes(16).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'docsync-test-'));
  const pgUrl = process.env.DOCSYNC_TEST_DATABASE_URL;
  const schema = `t_${process.pid}_${Date.now().toString(36)}_${(counter += 1)}`;
  const routes: RegisteredRoute[] = [];
  const server = await serve({
    onRoute(route) {
      for (const method of [route.method].flat())
        routes.push({ method, url: route.url, ...(route.schema ? { schema: route.schema as RegisteredRoute['schema'] } : {}) });
    },
    host: '127.0.0.1',
    port: 0,
    clock,
    bootstrapToken: token,
    jobIntervalMs: 3_600_000,
    allowPrivateFetch: options.allowPrivateFetch ?? false,
    ...(options.log ? { log: options.log } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    ...(dialect === 'postgres' ? { databaseUrl: pgUrl!, schema } : { dataDir }),
  });
  const peers: RunningServer[] = [];
  const peer: TestServer['peer'] = async (peerOptions = {}) => {
    const started = await serve({
      host: '127.0.0.1',
      port: peerOptions.port ?? 0,
      clock,
      jobIntervalMs: 3_600_000,
      ...(peerOptions.events ? { events: peerOptions.events } : {}),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(dialect === 'postgres' ? { databaseUrl: pgUrl!, schema } : { dataDir }),
    });
    peers.push(started);
    return started;
  };
  const db = server.db.kysely;
  const orgs = await db.selectFrom('organizations').select('id').execute();
  const orgId = orgs[0]!.id;

  const request: TestServer['request'] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const auth = options.token === undefined ? token : options.token;
    if (auth !== null) headers.authorization = `Bearer ${auth}`;
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = undefined;
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  };

  let users = 0;
  const user: TestServer['user'] = async (options = {}) => {
    users += 1;
    const now = clock.now().toISOString();
    const email = `user${users}-${randomBytes(3).toString('hex')}@example.test`;
    const row = await createUser(db, { email, displayName: options.name ?? `User ${users}` }, now);
    const secret = `tok_${randomBytes(16).toString('hex')}`;
    await createToken(db, { userId: row.id, token: secret }, now);
    if (options.org)
      await upsertMember(db, { orgId: options.org, userId: row.id, role: options.role === undefined ? 'read' : options.role }, now);
    return { id: row.id, token: secret, email };
  };

  const organization: TestServer['organization'] = async (title = 'Other org') => {
    const admin = await user();
    const org = await createOrganization(db, { title, ownerId: admin.id }, clock.now().toISOString());
    return { id: org.id, adminToken: admin.token, adminId: admin.id };
  };

  return {
    url: server.url,
    routes,
    token,
    orgId,
    clock,
    server,
    request,
    user,
    organization,
    peer,
    async close() {
      for (const p of peers) await p.close();
      await server.close();
      if (dialect === 'postgres') await dropPostgresSchema(pgUrl!, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
