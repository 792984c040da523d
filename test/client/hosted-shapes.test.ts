import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, createClient } from '../../src/client/index.js';
import { httpFixture, json } from './http-fixture.js';

/** Answers the hosted API gives and our server does not: the client reads both forms. */
describe('client against the published answer shapes', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  async function serve(handler: Parameters<typeof httpFixture>[0]) {
    const server = await httpFixture(handler);
    const client = createClient({ baseUrl: `${server.url}/v1/`, token: 'tok' });
    open.push(server, client);
    return { server, client };
  }

  it.each(['merge', 'update'] as const)('treats a 200 %s with result "conflicts" as a 409 conflict, never success', async (kind) => {
    const { server, client } = await serve((_req, res) => json(res, 200, { revision: 'rev9', result: 'conflicts' }));
    const error = (await client.changeRequests[kind]('sp', 'cr').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.conflictRevision).toBe('rev9');
    expect(error.request).toBe(`POST /v1/spaces/sp/change-requests/cr/${kind}`);
    expect(server.seen).toHaveLength(1);
  });

  it('accepts the compat answer (the ChangeRequest alone) from a server that ignores compat=false', async () => {
    const cr = { object: 'change-request', id: 'cr1', number: 1 };
    const { server, client } = await serve((_req, res) => json(res, 200, cr));
    const result = await client.content.write('sp', 'cr1', [{ operation: 'delete_page', page: 'p' }]);
    expect(result).toEqual({ changeRequest: cr, changes: undefined, insertedFiles: [] });
    expect(server.seen[0]!.url).toBe('/v1/spaces/sp/change-requests/cr1/content?compat=false');
    expect(JSON.parse(server.seen[0]!.body)).toEqual({ changes: [{ operation: 'delete_page', page: 'p' }] });
  });

  it('keeps a base path of the API root and escapes path segments', async () => {
    const { server, client } = await serve((_req, res) => json(res, 200, {}));
    await client.changeRequests.get('sp', 'a/b');
    expect(server.seen[0]!.url).toBe('/v1/spaces/sp/change-requests/a%2Fb');
  });
});
