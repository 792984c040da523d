import type { ChangedPagesResponse, Revision } from '../../model/index.js';
import type { Request } from '../request.js';
import { scopePath, seg, type ContentScope } from './paths.js';

/** Revisions: the content at a scope as one object (pages, files, variables). */
export function revisionsResource(request: Request) {
  return {
    /** The revision at a scope: a space's live content, a change request's head, or a revision by id. */
    get: (scope: ContentScope) => request<Revision>({ method: 'GET', path: scopePath(scope) }),
    /**
     * The pages whose own fields changed from revision `since` to `revision` of a space, or
     * `structure: true` when more changed: docsync's extension `changed-pages` (check
     * `capabilities.extensions` first; the hosted API has no such read).
     */
    changedPages: (space: string, revision: string, since: string) =>
      request<ChangedPagesResponse>({
        method: 'GET',
        path: `/v1/spaces/${seg(space)}/revisions/${seg(revision)}/changed-pages`,
        query: { since },
      }),
  };
}
