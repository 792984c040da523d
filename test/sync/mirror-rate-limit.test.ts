import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { mirror } from '../../src/sync/mirror.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { hashToken } from '../../src/server/auth/tokens.js';

const SPACES = 8;
const PAGES = 2;

/**
 * Issue 24: the sync tool against our own server's rate limit. A mirror of an organization under
 * a tight limit (10 requests a second) finishes with every page, and no request is refused: the
 * client keeps inside the budget the headers announce.
 */
describe('a mirror under the server rate limit', () => {
  let s: TestServer;
  let work: string;
  const lines: string[] = [];
  beforeAll(async () => {
    s = await startServer('sqlite', {
      rateLimit: { max: 10, windowMs: 1000 },
      log: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    work = await mkdtemp(join(tmpdir(), 'docsync-mirror-limit-'));
  });
  afterAll(async () => {
    await s?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('mirrors every space and page exactly, and has no request refused', async () => {
    // Each space is made by a user of its own: the setup's requests count against their tokens.
    for (let i = 0; i < SPACES; i += 1) {
      const maker = await s.user({ org: s.orgId, role: 'admin' });
      const as = { token: maker.token };
      const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: `Space ${i}`, empty: true }, ...as })).body;
      const cr = (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'pages' }, ...as })).body;
      const changes = Array.from({ length: PAGES }, (_, k) => ({
        operation: 'insert_page',
        title: `Page ${i}.${k}`,
        document: { markdown: `# Page ${i}.${k}\n\nText of page ${i}.${k}.\n` },
      }));
      expect(
        (await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { body: { changes }, ...as })).status,
      ).toBe(200);
      expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/merge`, as)).status).toBe(200);
    }
    const reader = await s.user({ org: s.orgId, role: 'read' });
    lines.length = 0;
    const client = createClient({ baseUrl: s.url, token: reader.token });
    try {
      const mirrored = await mirror({ client, apiUrl: s.url, orgId: s.orgId, dir: join(work, 'mirror') });
      expect(mirrored.map((m) => m.action)).toEqual(Array.from({ length: SPACES }, () => 'cloned'));
      for (const m of mirrored) {
        const i = Number(m.title.split(' ')[1]);
        const folder = join(work, 'mirror', m.folder);
        const texts = await Promise.all(
          (await readdir(folder))
            .filter((name) => name.endsWith('.md') && name !== 'SUMMARY.md')
            .map((name) => readFile(join(folder, name), 'utf8')),
        );
        expect(texts.sort()).toEqual(Array.from({ length: PAGES }, (_, k) => `# Page ${i}.${k}\n\nText of page ${i}.${k}.\n`).sort());
      }
    } finally {
      await client.close();
    }

    const answers = lines.map((line) => JSON.parse(line) as { msg: string; status: number }).filter((r) => r.msg === 'request');
    // The limit was met: the mirror needed more than two windows' worth of requests ...
    expect(answers.length).toBeGreaterThan(2 * 10);
    // ... and kept inside the budget each answer announced, so none was refused (and so none
    // twice in a row).
    expect(answers.filter((answer) => answer.status === 429)).toEqual([]);
    // The limiter counted them: the reader's window is in the table.
    const keys = await s.server.db.kysely.selectFrom('rate_limit_windows').select('key').execute();
    expect(keys.map((row) => row.key)).toContain(`token:${hashToken(reader.token)}`);
  }, 120_000);
});
