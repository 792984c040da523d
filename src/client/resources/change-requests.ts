import type { ChangeRequest, ChangeRequestStatus, CreateChangeRequest, UpdateChangeRequest } from '../../model/index.js';
import { ApiError } from '../errors.js';
import { paginate, type ListPage } from '../paginate.js';
import { describe, type Request } from '../request.js';
import type { ApiRequest } from '../transport.js';
import { seg } from './paths.js';

/** A merge or update that went through: the new head revision. */
export interface MergeOutcome<R extends 'merge' | 'update'> {
  revision: string;
  result: R;
}

/**
 * Merge and update answer `{revision, result}`. Our server refuses a conflicting one with 409;
 * the hosted API answers 200 with `result: "conflicts"`. Both surface the same way: an
 * {@link ApiError} with status 409 (the hosted one also carries `conflictRevision`), never success.
 */
async function mergeLike<R extends 'merge' | 'update'>(request: Request, req: ApiRequest, expected: R): Promise<MergeOutcome<R>> {
  const answer = await request<{ revision: string; result: string }>(req);
  if (answer.result === expected) return { revision: answer.revision, result: expected };
  const what = expected === 'merge' ? 'merging' : 'updating';
  throw new ApiError(409, `${what} the change request met conflicts (the server answered result "${answer.result}")`, {
    request: describe(req),
    conflictRevision: answer.revision,
  });
}

/** Change requests of a space: `/v1/spaces/{id}/change-requests`. */
export function changeRequestsResource(request: Request) {
  const base = (spaceId: string) => `/v1/spaces/${seg(spaceId)}/change-requests`;
  const one = (spaceId: string, cr: string | number) => `${base(spaceId)}/${seg(cr)}`;
  return {
    /** Change requests of a space with one status (the API's default: `open`), paged at 1000. */
    list: (spaceId: string, options: { status?: ChangeRequestStatus } = {}) =>
      paginate((query) =>
        request<ListPage<ChangeRequest>>({ method: 'GET', path: base(spaceId), query: { ...query, status: options.status } }),
      ),
    /** Opens one. Not retried after a reset: it would open a second. */
    create: (spaceId: string, body: CreateChangeRequest = {}) => request<ChangeRequest>({ method: 'POST', path: base(spaceId), body }),
    /** By id or by number. */
    get: (spaceId: string, cr: string | number) => request<ChangeRequest>({ method: 'GET', path: one(spaceId, cr) }),
    /** Subject and status (`draft`, `open`, `archived`); setting the same values twice is harmless, so it is retried. */
    patch: (spaceId: string, cr: string | number, body: UpdateChangeRequest) =>
      request<ChangeRequest>({ method: 'PATCH', path: one(spaceId, cr), body, idempotent: true }),
    merge: (spaceId: string, cr: string | number) => mergeLike(request, { method: 'POST', path: `${one(spaceId, cr)}/merge` }, 'merge'),
    /** Brings main's changes into the change request. */
    update: (spaceId: string, cr: string | number) => mergeLike(request, { method: 'POST', path: `${one(spaceId, cr)}/update` }, 'update'),
  };
}
