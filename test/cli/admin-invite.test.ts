import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { dropPostgresSchema, type StoreOptions } from '../../src/server/store/db.js';
import { testDialects } from '../helpers/server.js';
import { jsonOf, runCli, type CliResult } from './run-cli.js';

let schemas = 0;

describe.each(testDialects())('docsync admin invite create (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docsync-invite-'));
  const pgUrl = process.env.DOCSYNC_TEST_DATABASE_URL;
  const schema = `cli_inv_${process.pid}_${Date.now().toString(36)}_${(schemas += 1)}`;
  const env: Record<string, string | undefined> =
    dialect === 'postgres'
      ? { DOCSYNC_DATABASE_URL: pgUrl, DOCSYNC_DATABASE_SCHEMA: schema }
      : { DOCSYNC_DATABASE_URL: undefined, DOCSYNC_DATABASE_SCHEMA: undefined };
  const store: StoreOptions = dialect === 'postgres' ? { databaseUrl: pgUrl!, schema } : { dataDir };
  const admin = (...args: string[]): Promise<CliResult> => runCli(['admin', ...args, '--data', dataDir], env);

  let server: RunningServer;
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
  };

  beforeAll(async () => {
    server = await serve({ host: '127.0.0.1', port: 0, jobIntervalMs: 3_600_000, ...store });
  });
  afterAll(async () => {
    await server?.close();
    if (dialect === 'postgres') await dropPostgresSchema(pgUrl!, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('makes a link someone joins with, which an admin deletes with 205; refuses while invite links are off', async () => {
    jsonOf(await admin('user', 'create', '--email', 'owner@example.test', '--name', 'Owner', '--json'));
    jsonOf(await admin('user', 'create', '--email', 'joiner@example.test', '--name', 'Joiner', '--json'));
    const org = jsonOf(await admin('org', 'create', '--title', 'Invites', '--owner', 'owner@example.test', '--json'));
    const ownerToken = jsonOf(await admin('token', 'create', '--email', 'owner@example.test', '--json')).token as string;
    const joinerToken = jsonOf(await admin('token', 'create', '--email', 'joiner@example.test', '--json')).token as string;

    const off = await admin('invite', 'create', '--org', org.id, '--role', 'edit');
    expect(off.code).toBe(1);
    expect(off.stderr).toMatch(/invite links turned off/);

    expect((await call('PATCH', `/v1/orgs/${org.id}`, ownerToken, { inviteLinks: true })).status).toBe(200);
    const human = await admin('invite', 'create', '--org', org.id, '--role', 'guest');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(`^created invite link \\S+ to organization ${org.id} as guest; join with POST /v1/orgs/${org.id}/invites/\\S+\\n$`),
    );
    const invite = jsonOf(await admin('invite', 'create', '--org', org.id, '--role', 'edit', '--json'));
    expect(invite).toMatchObject({ orgId: org.id, role: 'edit', joinPath: `/v1/orgs/${org.id}/invites/${invite.id}` });

    expect((await call('POST', invite.joinPath, joinerToken)).status).toBe(200);
    const orgs = await call('GET', '/v1/orgs', joinerToken);
    expect(orgs.body.items.map((o: { id: string }) => o.id)).toEqual([org.id]);
    const me = await call('GET', `/v1/orgs/${org.id}/members`, ownerToken);
    expect(me.body.items.find((m: { user: { email: string } }) => m.user.email === 'joiner@example.test').role).toBe('edit');

    expect((await call('DELETE', `/v1/orgs/${org.id}/link-invites/${invite.id}`, ownerToken)).status).toBe(205);
    expect((await call('GET', `/v1/orgs/${org.id}/link-invites/${invite.id}`, ownerToken)).status).toBe(404);

    const bad = await admin('invite', 'create', '--org', org.id, '--role', 'owner');
    expect(bad.code).toBe(2);
    const unknown = await admin('invite', 'create', '--org', 'nope', '--role', 'read');
    expect(unknown).toMatchObject({ code: 1, stderr: 'docsync: --org: no organization with id nope\n' });
  });
});
