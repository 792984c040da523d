import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';
import { readTree } from '../helpers/content.js';

const LINES = Array.from({ length: 12 }, (_, i) => `Paragraph ${i}.`);

// Issue 25, item 1: a document a merge writes (a line merge of both sides) has its facts derived
// then, off the event loop, as any written document has: reads find them.
describe.each(testDialects())('facts of merged documents (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('stores the facts of a line-merged document with the merge', async () => {
    const space = await createSpace(s, { title: 'Merging' });
    const open = async () =>
      (await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'x' } })).body.id as string;
    const write = (cr: string, changes: unknown[]) =>
      s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr}/content`, { body: { changes } });
    const first = await open();
    expect((await write(first, [{ operation: 'insert_page', title: 'Doc', document: { markdown: LINES.join('\n\n') } }])).status).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${first}/merge`)).status).toBe(200);
    const page = (await readTree(s, { spaceId: space.id })).pages.find((p) => p.title === 'Doc')!;
    const [ours, theirs] = [await open(), await open()];
    const edited = (i: number) => LINES.map((l, j) => (j === i ? `## Heading from side ${i}` : l)).join('\n\n');
    expect((await write(ours, [{ operation: 'update_page', page: page.id, document: { markdown: edited(1) } }])).status).toBe(200);
    expect((await write(theirs, [{ operation: 'update_page', page: page.id, document: { markdown: edited(10) } }])).status).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${theirs}/merge`)).status).toBe(200);
    expect((await s.request('POST', `/v1/spaces/${space.id}/change-requests/${ours}/merge`)).status).toBe(200);
    const merged = (await readTree(s, { spaceId: space.id })).pages.find((p) => p.id === page.id)!;
    const row = await s.server.db.kysely
      .selectFrom('document_facts')
      .select('facts')
      .where('sha256', '=', merged.document!)
      .executeTakeFirst();
    expect(row?.facts).toContain('Heading from side 1');
    expect(row?.facts).toContain('Heading from side 10');
  });
});
