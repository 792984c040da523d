import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError, CLIENT_ERROR_CODES, ClientError, ConnectionError, type ClientErrorCode } from '../../src/client/index.js';
import { ChangeFailure } from '../../src/content/changes/types.js';
import { DAEMON_ERROR_CODES, DaemonLockedError, WorkspaceBusyError } from '../../src/daemon/index.js';
import { EXIT, EXIT_CODES, ExitError, reportFailure } from '../../src/cli/exit.js';
import { GIT_ERROR_CODES, GitError } from '../../src/git/index.js';
import { BaseError, DocsyncError, ERROR_CODES, type ErrorCode } from '../../src/model/index.js';
import { FetchError } from '../../src/server/fetch/safe-fetch.js';
import { HeadMoved } from '../../src/server/revisions/retry-on-head-moved.js';
import { SYNC_ERROR_CODES, SyncError } from '../../src/sync/index.js';
import { WORKSPACE_ERROR_CODES, WorkspaceError } from '../../src/workspace/index.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { runCli } from './run-cli.js';

// The exit-code table and docs/errors.md drift apart silently unless a test ties them, as
// fastify's test/internals/errors.test.js does for its docs/Reference/Errors.md.
const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');

/** Rows of the table in docs/errors.md: `| \`code\` | \`Class\` | exit | when |`. */
const documented = new Map(
  [...docs.matchAll(/^\| `([a-z_-]+)` \| `(\w+)` \| (\d|own) \|/gm)].map((m) => [m[1]!, { className: m[2]!, exit: m[3]! }]),
);

const holder = { pid: 1, host: 'elsewhere', startedAt: '2026-01-01T00:00:00.000Z' };

/** One real error of each code, made by its own class. */
const samples: BaseError[] = [
  ...(Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => new DocsyncError(code, `server ${code}`)),
  ...GIT_ERROR_CODES.map((code) => new GitError(code, `git ${code}`)),
  ...SYNC_ERROR_CODES.map((code) => new SyncError(code, `sync ${code}`, ['a.md: why'])),
  ...CLIENT_ERROR_CODES.map((code: ClientErrorCode) =>
    code === 'api-error'
      ? new ApiError(409, 'conflict')
      : code === 'connection-failed'
        ? new ConnectionError('GET /v1/x', 'ECONNREFUSED', 'refused', undefined)
        : new ClientError(code, `client ${code}`),
  ),
  ...WORKSPACE_ERROR_CODES.map((code) => new WorkspaceError(code, `workspace ${code}`)),
  new DaemonLockedError(holder, '/w'),
  new WorkspaceBusyError('/w/.git/docsync/sync.lock', holder, 600_000),
  new FetchError('http://x: refused'),
  new ChangeFailure('bad change', 409),
  new HeadMoved(),
  new ExitError('exit', EXIT.partial),
];

/** `reportFailure(error)`, with what it printed. */
function report(error: unknown): { exit: number; printed: string } {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void lines.push(parts.join(' ')));
  try {
    return { exit: reportFailure(error), printed: lines.join('\n') };
  } finally {
    spy.mockRestore();
  }
}

describe('error codes and exit codes', () => {
  const table = EXIT_CODES as Record<string, number>;

  it("has one sample per code of the table, and the layers' codes never coincide", () => {
    const codes = samples.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(Object.keys(table).sort());
    expect(DAEMON_ERROR_CODES.every((code) => codes.includes(code))).toBe(true);
  });

  it.each(Object.keys(EXIT_CODES))('%s is documented in docs/errors.md with its exit code', (code) => {
    const row = documented.get(code);
    expect(row, `no row for ${code}`).toBeDefined();
    expect(row!.exit).toBe(code === 'exit' ? 'own' : String(table[code]));
  });

  it('documents no code the table lacks, each under its class', () => {
    expect([...documented.keys()].sort()).toEqual(Object.keys(table).sort());
    for (const error of samples) expect(documented.get(error.code)?.className, error.code).toBe(error.name);
  });

  it.each(samples.map((e) => [e.code, e] as const))(
    '%s reaches the user as one line and its exit code, not as an internal error',
    (code, error) => {
      const { exit, printed } = report(error);
      if (code === 'internal' || code === 'head-moved') {
        expect(error.expected).toBe(false);
        expect(printed).toContain('internal error (a bug');
        return;
      }
      expect(error.expected).toBe(true);
      expect(printed).not.toContain('internal error');
      expect(printed.split('\n')[0]).toBe(`docsync: ${error.message}`);
      const wanted = code === 'exit' ? EXIT.partial : code === 'api-error' ? EXIT.conflict : table[code];
      expect(exit).toBe(wanted);
    },
  );

  it('prints the details of a SyncError under its message', () => {
    expect(
      report(new SyncError('unreadable-tree', 'main: the page tree cannot be read', ['SUMMARY.md:3: bad', 'x.md: gone'])).printed,
    ).toBe('docsync: main: the page tree cannot be read\n  SUMMARY.md:3: bad\n  x.md: gone');
  });

  it('reports a plain Error, and a BaseError not expected, as a bug with its stack', () => {
    const plain = report(new TypeError('x is undefined'));
    expect(plain.exit).toBe(EXIT.error);
    expect(plain.printed).toMatch(/^docsync: internal error \(a bug; please report it\): TypeError: x is undefined\n\s+at /);
    expect(report(new BaseError('not-a-repo', 'odd', { expected: false })).printed).toContain('internal error');
  });
});

describe('a documented git failure through the CLI', () => {
  let s: TestServer;
  let home: string;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    s = await startServer('sqlite');
    home = await mkdtemp(join(tmpdir(), 'docsync-cli-errors-'));
    env = { XDG_CONFIG_HOME: join(home, 'config'), DOCSYNC_API_URL: s.url, DOCSYNC_TOKEN: s.token };
  });
  afterAll(async () => {
    await s?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('pull with a branch locked by another git process says so and exits 1, not "internal error"', async () => {
    const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: 'Locked', empty: true } })).body;
    const dir = join(home, 'locked');
    expect((await runCli(['clone', space.id, dir], env)).code).toBe(0);
    const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'edit' } })).body;
    const written = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
      body: { changes: [{ operation: 'insert_page', title: 'New', document: { markdown: '# New\n\ntext\n' } }] },
    });
    expect(written.status).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`)).status).toBe(200);
    // What git leaves while it updates the branch, or after a crash.
    await writeFile(join(dir, '.git', 'refs', 'heads', 'main.lock'), '');

    const pulled = await runCli(['pull', '--dir', dir], env);
    expect(pulled.stderr).not.toContain('internal error');
    expect(pulled.stderr).toMatch(/^docsync: .*lock/);
    expect(pulled.code).toBe(EXIT.error);
  });
});
