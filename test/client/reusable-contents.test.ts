import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';

describe.each(testDialects())('client: reusable contents against the real server (%s)', (dialect) => {
  let s: TestServer;
  let client: Client;
  beforeAll(async () => {
    s = await startServer(dialect);
    client = createClient({ baseUrl: `${s.url}/v1`, token: s.token });
  });
  afterAll(async () => {
    await client?.close();
    await s?.close();
  });

  it('writes them through the batch (insertedReusableContents in order) and reads one by scope, with markdown on request', async () => {
    const space = await client.spaces.create(s.orgId, { title: 'Docs', empty: true });
    const cr = await client.changeRequests.create(space.id, { subject: 'Includes' });
    const written = await client.content.write(space.id, cr.id, [
      { operation: 'insert_reusable_content', title: 'First', document: { markdown: 'One.\n' }, ref: 'a' },
      { operation: 'insert_reusable_content', title: 'Second', document: { markdown: 'Two.\n' }, ref: 'b' },
    ]);
    expect(written.insertedReusableContents?.map((c) => c.title)).toEqual(['First', 'Second']);
    const [first] = written.insertedReusableContents!;
    expect(client.capabilities.extensions.has('reusable-content-markdown')).toBe(true);

    const scope = { space: space.id, changeRequest: cr.id };
    expect(await client.content.reusableContent(scope, first!.id, { markdown: true })).toEqual({ ...first, markdown: 'One.\n' });
    expect(await client.content.reusableContent(scope, first!.id)).toEqual(first);
    const byRevision = await client.content.reusableContent({ space: space.id, revision: written.changeRequest.revision }, first!.id, {
      markdown: true,
    });
    expect(byRevision.markdown).toBe('One.\n');
    await client.changeRequests.merge(space.id, cr.id);
    expect((await client.content.reusableContent({ space: space.id }, first!.id, { markdown: true })).git?.path).toBe(
      '.gitbook/includes/first.md',
    );
  });
});
