import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { preparedQuery } from '../../src/server/store/prepared-query.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';

// The same rows as the query built anew each time, for every parameter, on both databases: a
// parameter used twice, a literal the builder parameterised itself, a value that looks like SQL.
describe.each(testDialects())('a prepared query (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('answers as the query built for each call would', async () => {
    const db = s.server.db.kysely;
    const created: string[] = [];
    for (const title of ['Alpha', "Bob's; drop table users --", 'Ünïcode']) {
      const res = await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title } });
      expect(res.status).toBe(201);
      created.push(res.body.id as string);
    }
    const built = (db2: typeof db, id: string, title: string) =>
      db2
        .selectFrom('spaces')
        .select(['id', 'title'])
        .where((eb) => eb.or([eb('id', '=', id), eb('title', '=', title)]))
        .where('org_id', '=', s.orgId)
        .where(sql<boolean>`1 = ${1}`)
        .orderBy('id');
    const prepared = preparedQuery((db2, id: string, title: string) => built(db2, id, title));
    const cases: [string, string][] = [
      [created[0]!, 'none'],
      ['none', "Bob's; drop table users --"],
      [created[2]!, 'Alpha'],
      ['none', 'none'],
      ['docsync-prepared-0', 'Ünïcode'],
    ];
    for (const [id, title] of cases) {
      const expected = await built(db, id, title).execute();
      expect(await prepared(db, id, title), `${id} / ${title}`).toEqual(expected);
    }
    // Not a constant answer: the cases above found different spaces.
    const found = await Promise.all(cases.map(([id, title]) => prepared(db, id, title)));
    expect(found.map((rows) => rows.length)).toEqual([1, 1, 2, 0, 1]);
  });
});
