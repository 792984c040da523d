import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Client } from '../../src/client/index.js';
import { clone } from '../../src/sync/clone.js';
import type { TestServer } from '../helpers/server.js';

// A committer identity of its own: CI machines have no git config.
export const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Writer', '-c', 'user.email=writer@example.test', ...args], { cwd: dir, encoding: 'utf8' });

/** A change request opened on the platform with `changes` written through the batch endpoint. */
export async function changeRequestWith(s: TestServer, spaceId: string, subject: string, changes: unknown[]) {
  const cr = (await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, { body: { subject } })).body;
  const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, { body: { changes } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const ids = new Map<string, string>(res.body.changes.filter((c: any) => c.ref).map((c: any) => [c.ref, c.page.id]));
  return { id: cr.id as string, number: cr.number as number, ids };
}

/** Applies changes to main through a change request merged right away. */
export async function editMain(s: TestServer, spaceId: string, changes: unknown[]): Promise<Map<string, string>> {
  const cr = await changeRequestWith(s, spaceId, 'server edit', changes);
  expect((await s.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`)).status).toBe(200);
  return cr.ids;
}

/** The markdown of one page's body as the platform has it (main, or a change request): no title heading. */
export async function remoteMarkdown(s: TestServer, spaceId: string, pageId: string, changeRequestId?: string): Promise<string> {
  const scope = changeRequestId ? `change-requests/${changeRequestId}/content` : 'content';
  const res = await s.request('GET', `/v1/spaces/${spaceId}/${scope}/page/${pageId}?format=markdown`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.markdown as string;
}

/**
 * A space with two pages on main (Alpha is the first page, README.md; Beta is beta.md), cloned
 * into `work/<name>`.
 */
export async function clonedSpace(s: TestServer, client: Client, work: string, name: string) {
  const space = (await s.request('POST', `/v1/orgs/${s.orgId}/spaces`, { body: { title: name, empty: true } })).body;
  const ids = await editMain(s, space.id, [
    { operation: 'insert_page', ref: 'a', title: 'Alpha', document: { markdown: '# Alpha\n\none\ntwo\nthree\n' } },
    { operation: 'insert_page', ref: 'b', title: 'Beta', document: { markdown: '# Beta\n\nbeta text\n' } },
  ]);
  const dir = join(work, name);
  await clone({ client, apiUrl: s.url, spaceId: space.id, dir });
  return { spaceId: space.id as string, dir, alpha: ids.get('a')!, beta: ids.get('b')! };
}
