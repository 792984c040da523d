import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { createSpace } from './spaces.js';

export interface PageInput {
  title: string;
  markdown: string;
}

/**
 * A space whose pages were written as a client writes them: a change request, one batch of
 * `insert_page`, merged. Returns the space (as the API answers it) and the ids of its pages.
 */
export async function spaceWithPages(s: TestServer, pages: PageInput[], body: Record<string, unknown> = {}, token?: string) {
  const auth = token ? { token } : {};
  const space = await createSpace(s, { title: 'Handbook', ...body }, token ? { token } : {});
  const cr = await s.request('POST', `/v1/spaces/${space.id}/change-requests`, { body: { subject: 'First pages' }, ...auth });
  const changes = pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } }));
  const write = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, { body: { changes }, ...auth });
  expect(write.status, JSON.stringify(write.body)).toBe(200);
  const merge = await s.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`, auth);
  expect(merge.status, JSON.stringify(merge.body)).toBe(200);
  const listed = await s.request('GET', `/v1/spaces/${space.id}/content/pages`, auth);
  const ids = new Map<string, string>((listed.body.pages as { id: string; title: string }[]).map((p) => [p.title, p.id]));
  return { space, ids };
}
