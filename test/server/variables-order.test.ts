import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testDialects, type TestServer } from '../helpers/server.js';
import { createSpace } from '../helpers/spaces.js';

// Issue 14: space variables keep the order `.gitbook/vars.yaml` wrote them in (set_variables, stored tree, merges).
describe.each(testDialects())('space variables keep their order (%s)', (dialect) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(dialect);
  });
  afterAll(async () => {
    await s?.close();
  });

  const open = async (spaceId: string) =>
    (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject: 'Vars' } })).body.id as string;
  const setVars = async (spaceId: string, crId: string, variables: Record<string, unknown>) =>
    expect(
      (
        await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, {
          body: { changes: [{ operation: 'set_variables', variables }] },
        })
      ).status,
    ).toBe(200);
  const names = async (path: string) => Object.keys((await s.request('GET', path)).body.variables);
  const merge = async (spaceId: string, crId: string) =>
    expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${crId}/merge`)).status).toBe(200);

  it("reads back the order set, through a merge; a reorder is a change; merges keep each side's order and additions", async () => {
    const space = await createSpace(s, { title: 'Docs' });
    const first = await open(space.id);
    await setVars(space.id, first, { ZULU: 'z', ALPHA: 1, MIKE: true });
    expect(await names(`/v1/spaces/${space.id}/change-requests/${first}/content`)).toEqual(['ZULU', 'ALPHA', 'MIKE']);
    await merge(space.id, first);
    expect(await names(`/v1/spaces/${space.id}/content`)).toEqual(['ZULU', 'ALPHA', 'MIKE']);

    // One side reorders, the other adds a variable after ALPHA: both kept.
    const a = await open(space.id);
    const b = await open(space.id);
    await setVars(space.id, a, { ALPHA: 1, MIKE: true, ZULU: 'z' });
    await setVars(space.id, b, { ZULU: 'z', ALPHA: 1, BRAVO: 2, MIKE: true });
    await merge(space.id, a);
    await merge(space.id, b);
    expect(await names(`/v1/spaces/${space.id}/content`)).toEqual(['ALPHA', 'BRAVO', 'MIKE', 'ZULU']);
  });
});
