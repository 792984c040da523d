import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { upsertMember } from '../../src/server/store/organizations.js';

describe.each(testDialects())('racing writers on a unique value (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('two organizations claiming one hostname at once: one wins, the other gets 409, never 500', async () => {
    const orgs = [s.orgId];
    for (let i = 0; i < 5; i += 1) {
      const other = await s.organization(`Org ${i}`);
      await upsertMember(
        s.server.db.kysely,
        { orgId: other.id, userId: (await s.request('GET', '/v1/user')).body.id, role: 'admin' },
        new Date().toISOString(),
      );
      orgs.push(other.id);
    }
    for (let round = 0; round < 5; round += 1) {
      const hostname = `race-${dialect}-${round}`;
      const answers = await Promise.all(orgs.map((id) => s.request('PATCH', `/v1/orgs/${id}`, { body: { hostname } })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((x) => x === 200)).toHaveLength(1);
      expect(statuses.filter((x) => x === 409)).toHaveLength(orgs.length - 1);
      for (const a of answers) if (a.status === 409) expect(a.body).toEqual({ error: { code: 409, message: expect.any(String) } });
    }
  });

  it('names query parameters as query.<name> in messages', async () => {
    const res = await s.request('GET', '/v1/orgs?limit=0');
    expect(res.body.error.message).toBe('query.limit must be at least 1');
  });
});
