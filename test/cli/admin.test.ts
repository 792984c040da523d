import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type RunningServer } from '../../src/server/serve.js';
import { dropPostgresSchema, type StoreOptions } from '../../src/server/store/db.js';
import { testDialects } from '../helpers/server.js';
import { jsonOf, runCli, type CliResult } from './run-cli.js';

let schemas = 0;

describe.each(testDialects())('docsync admin (%s)', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'docsync-admin-'));
  const pgUrl = process.env.DOCSYNC_TEST_DATABASE_URL;
  const schema = `cli_${process.pid}_${Date.now().toString(36)}_${(schemas += 1)}`;
  // The CLI finds PostgreSQL the way a user's shell tells it to: through the environment.
  const env: Record<string, string | undefined> =
    dialect === 'postgres'
      ? { DOCSYNC_DATABASE_URL: pgUrl, DOCSYNC_DATABASE_SCHEMA: schema }
      : { DOCSYNC_DATABASE_URL: undefined, DOCSYNC_DATABASE_SCHEMA: undefined };
  const store: StoreOptions = dialect === 'postgres' ? { databaseUrl: pgUrl!, schema } : { dataDir };
  const admin = (...args: string[]): Promise<CliResult> => runCli(['admin', ...args, '--data', dataDir], env);

  let server: RunningServer;
  const get = async (path: string, token: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    // The server runs on the same store all along, as it would while an operator uses the shell.
    server = await serve({ host: '127.0.0.1', port: 0, jobIntervalMs: 3_600_000, ...store });
  });
  afterAll(async () => {
    await server?.close();
    if (dialect === 'postgres') await dropPostgresSchema(pgUrl!, schema);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('user create prints the new user in one line, or as JSON', async () => {
    const human = await admin('user', 'create', '--email', 'Ada@Example.test', '--name', 'Ada Lovelace');
    expect(human).toMatchObject({ code: 0, stderr: '' });
    expect(human.stdout).toMatch(/^created user \S+ ada@example\.test "Ada Lovelace"\n$/);

    const user = jsonOf(await admin('user', 'create', '--email', 'grace@example.test', '--name', 'Grace', '--json'));
    expect(user).toMatchObject({ email: 'grace@example.test', name: 'Grace' });
    expect(user.id).toEqual(expect.any(String));
  });

  it('user create refuses a duplicate e-mail address, whatever its case', async () => {
    const result = await admin('user', 'create', '--email', 'ADA@example.test', '--name', 'Ada again');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'docsync: --email: a user with e-mail ADA@example.test already exists\n' });
  });

  it('user create refuses a malformed e-mail address and an empty name', async () => {
    const email = await admin('user', 'create', '--email', 'not-an-address', '--name', 'X');
    expect(email.code).toBe(2);
    expect(email.stderr).toBe('docsync: --email must be an e-mail address like name@example.com, got "not-an-address"\n');
    const name = await admin('user', 'create', '--email', 'x@example.test', '--name', '  ');
    expect(name.code).toBe(2);
    expect(name.stderr).toMatch(/^docsync: --name must be 1 to 255 characters long/);
  });

  it('a missing required option is a usage error naming the option', async () => {
    const result = await admin('user', 'create', '--name', 'Nobody');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/required option '--email <email>' not specified/);
  });

  it('org create makes the owner its admin', async () => {
    const org = jsonOf(await admin('org', 'create', '--title', 'Acme Docs', '--owner', 'ada@example.test', '--json'));
    expect(org).toMatchObject({ title: 'Acme Docs', ownerEmail: 'ada@example.test' });

    const token = jsonOf(await admin('token', 'create', '--email', 'ada@example.test', '--json')).token;
    const orgs = await get('/v1/orgs', token);
    expect(orgs.status).toBe(200);
    expect(orgs.body.items).toEqual([expect.objectContaining({ id: org.id, title: 'Acme Docs' })]);
    expect(orgs.body.items[0].permissions.admin).toBe(true);

    const human = await admin('org', 'create', '--title', 'Second', '--owner', 'ada@example.test');
    expect(human.stdout).toMatch(/^created organization \S+ "Second" with ada@example\.test as admin\n$/);
  });

  it('org create checks the title bounds and the owner', async () => {
    const short = await admin('org', 'create', '--title', 'A', '--owner', 'ada@example.test');
    expect(short).toEqual({ code: 2, stdout: '', stderr: 'docsync: --title must be 2 to 255 characters long, got 1\n' });
    const long = await admin('org', 'create', '--title', 'x'.repeat(256), '--owner', 'ada@example.test');
    expect(long.code).toBe(2);
    expect(long.stderr).toBe('docsync: --title must be 2 to 255 characters long, got 256\n');
    expect((await admin('org', 'create', '--title', 'x'.repeat(255), '--owner', 'ada@example.test')).code).toBe(0);
    const owner = await admin('org', 'create', '--title', 'Nobody Inc', '--owner', 'x@y.test');
    expect(owner).toEqual({ code: 1, stdout: '', stderr: 'docsync: --owner: no user with e-mail x@y.test\n' });
  });

  it('member add adds a user with a role, changes it, and takes guest', async () => {
    const org = jsonOf(await admin('org', 'create', '--title', 'Members', '--owner', 'ada@example.test', '--json'));
    const added = await admin('member', 'add', '--org', org.id, '--email', 'grace@example.test', '--role', 'edit');
    expect(added).toEqual({ code: 0, stderr: '', stdout: `added grace@example.test to organization ${org.id} as edit\n` });

    const changed = jsonOf(await admin('member', 'add', '--org', org.id, '--email', 'grace@example.test', '--role', 'guest', '--json'));
    expect(changed).toMatchObject({ orgId: org.id, email: 'grace@example.test', role: 'guest', created: false, previousRole: 'edit' });

    const token = jsonOf(await admin('token', 'create', '--email', 'grace@example.test', '--json')).token;
    const orgs = await get('/v1/orgs', token);
    expect(orgs.body.items.map((item: any) => item.id)).toContain(org.id);
  });

  it('member add refuses an unknown role, organization or user', async () => {
    const org = jsonOf(await admin('org', 'create', '--title', 'Checks', '--owner', 'ada@example.test', '--json'));
    const role = await admin('member', 'add', '--org', org.id, '--email', 'grace@example.test', '--role', 'owner');
    expect(role).toEqual({
      code: 2,
      stdout: '',
      stderr: 'docsync: --role must be one of admin, create, review, edit, comment, read, guest, got "owner"\n',
    });
    const unknownOrg = await admin('member', 'add', '--org', 'no-such-org', '--email', 'grace@example.test', '--role', 'read');
    expect(unknownOrg).toEqual({ code: 1, stdout: '', stderr: 'docsync: --org: no organization with id no-such-org\n' });
    const unknownUser = await admin('member', 'add', '--org', org.id, '--email', 'x@y.test', '--role', 'read');
    expect(unknownUser).toEqual({ code: 1, stdout: '', stderr: 'docsync: --email: no user with e-mail x@y.test\n' });
  });

  it('a created token works against the running server until it is revoked', async () => {
    const created = await admin('token', 'create', '--email', 'grace@example.test', '--label', 'laptop');
    expect(created.code).toBe(0);
    const match = /^created token (\S+) for grace@example\.test: (ds_\S+)\n$/.exec(created.stdout);
    expect(match).not.toBeNull();
    const [, id, secret] = match!;

    const me = await get('/v1/user', secret!);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'grace@example.test', displayName: 'Grace' });

    const revoked = await admin('token', 'revoke', secret!);
    expect(revoked).toEqual({ code: 0, stderr: '', stdout: `revoked token ${id} of grace@example.test\n` });
    expect((await get('/v1/user', secret!)).status).toBe(401);

    const again = await admin('token', 'revoke', id!);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^docsync: TOKEN_OR_ID: token ${id} of grace@example\\.test was already revoked at `));
  });

  it('token revoke takes the id too, and never echoes an unknown argument', async () => {
    const token = jsonOf(await admin('token', 'create', '--email', 'ada@example.test', '--label', 'ci', '--json'));
    expect(token).toMatchObject({ email: 'ada@example.test', label: 'ci', token: expect.stringMatching(/^ds_/) });
    expect((await get('/v1/user', token.token)).status).toBe(200);
    expect(jsonOf(await admin('token', 'revoke', token.id, '--json'))).toMatchObject({ id: token.id, label: 'ci' });
    expect((await get('/v1/user', token.token)).status).toBe(401);

    const unknown = await admin('token', 'revoke', 'ds_secret-looking-value');
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'docsync: TOKEN_OR_ID: no token with that id or secret\n' });
  });

  it('token revoke takes an id that starts with "-", and still rejects a mistyped long option', async () => {
    // Ids are base64url, so some start with "-"; this one is simply unknown.
    const dashed = await admin('token', 'revoke', '-x8Cof4rYX8Hg5Udxq4r');
    expect(dashed).toEqual({ code: 1, stdout: '', stderr: 'docsync: TOKEN_OR_ID: no token with that id or secret\n' });
    const typo = await admin('token', 'revoke', '--jsno');
    expect(typo).toEqual({ code: 2, stdout: '', stderr: "docsync: unknown option '--jsno'\n" });
  });

  it('token list shows ids, labels and dates, never a secret', async () => {
    jsonOf(await admin('user', 'create', '--email', 'lin@example.test', '--name', 'Lin', '--json'));
    expect((await admin('token', 'list', '--email', 'lin@example.test')).stdout).toBe('no tokens for lin@example.test\n');

    const live = jsonOf(await admin('token', 'create', '--email', 'lin@example.test', '--label', 'build bot', '--json'));
    const gone = jsonOf(await admin('token', 'create', '--email', 'lin@example.test', '--json'));
    expect((await admin('token', 'revoke', gone.id)).code).toBe(0);

    const human = await admin('token', 'list', '--email', 'lin@example.test');
    expect(human.code).toBe(0);
    const lines = human.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.find((line) => line.startsWith(live.id))).toMatch(/ {2}build bot {2}created \S+ {2}active$/);
    expect(lines.find((line) => line.startsWith(gone.id))).toMatch(/ {2}- {2}created \S+ {2}revoked \S+$/);
    expect(human.stdout).not.toContain(live.token);
    expect(human.stdout).not.toContain(gone.token);

    const json = jsonOf(await admin('token', 'list', '--email', 'lin@example.test', '--json'));
    expect(json).toHaveLength(2);
    expect(json.find((t: any) => t.id === live.id)).toEqual({
      id: live.id,
      label: 'build bot',
      createdAt: expect.any(String),
      revokedAt: null,
    });
    expect(JSON.stringify(json)).not.toContain(live.token);

    const unknown = await admin('token', 'list', '--email', 'x@y.test');
    expect(unknown).toEqual({ code: 1, stdout: '', stderr: 'docsync: --email: no user with e-mail x@y.test\n' });
  });
});
