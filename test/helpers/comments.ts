import { expect } from 'vitest';
import type { TestServer } from './server.js';
import { expectSpec } from './expect-spec.js';
import { createSpace } from './spaces.js';
import { docPage, storeMarkdown, writeTree } from './content.js';

/** Spec paths of the comment operations (without `/v1`). */
export const SPACE_COMMENTS = '/spaces/{spaceId}/comments';
export const SPACE_COMMENT = '/spaces/{spaceId}/comments/{commentId}';
export const CR_COMMENTS = '/spaces/{spaceId}/change-requests/{changeRequestId}/comments';
export const CR_COMMENT = '/spaces/{spaceId}/change-requests/{changeRequestId}/comments/{commentId}';

export const GUIDE = '# Guide\n\nFirst paragraph.\n\n## Setup\n\nRun the installer.\n\n- one item\n- two item\n';

/** A space with two document pages (`p-guide` with GUIDE, `p-other`), and its API prefix. */
export async function commentedSpace(s: TestServer, token?: string) {
  const space = await createSpace(s, { title: 'Commented' }, token ? { token } : {});
  await writeTree(
    s,
    { spaceId: space.id },
    {
      pages: [
        docPage('p-guide', 'Guide', { document: await storeMarkdown(s, GUIDE), emoji: '1f4d8' }),
        docPage('p-other', 'Other', { document: await storeMarkdown(s, 'Other text.\n') }),
      ],
      files: [],
      variables: {},
      reusableContents: [],
    },
  );
  return { id: space.id as string, prefix: `/v1/spaces/${space.id}` };
}

/** Opens a change request through the API and returns it. */
export async function openChangeRequest(s: TestServer, spaceId: string, token?: string) {
  const res = await s.request('POST', `/v1/spaces/${spaceId}/change-requests`, {
    body: { subject: 'Review me' },
    ...(token ? { token } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; number: number };
}

/** Posts a comment (on `base`: a space or change request API path) and checks it against the spec. */
export async function postComment(s: TestServer, base: string, body: Record<string, unknown>, token?: string) {
  const res = await s.request('POST', `${base}/comments`, { body, ...(token ? { token } : {}) });
  expectSpec(res, 'POST', base.includes('/change-requests/') ? CR_COMMENTS : SPACE_COMMENTS, 200);
  return res.body;
}

export async function counts(s: TestServer, spaceId: string, crId?: string): Promise<{ space: number; cr?: number }> {
  const space = await s.request('GET', `/v1/spaces/${spaceId}`);
  if (crId === undefined) return { space: space.body.comments };
  const cr = await s.request('GET', `/v1/spaces/${spaceId}/change-requests/${crId}`);
  return { space: space.body.comments, cr: cr.body.comments };
}
