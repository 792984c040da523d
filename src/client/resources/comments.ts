import type { Comment, CommentReply } from '../../model/index.js';
import { paginate, type ListPage } from '../paginate.js';
import type { Request } from '../request.js';
import { seg } from './paths.js';

/** A space's own comments (`changeRequest` absent) or a change request's (by id or number). */
export interface CommentPlace {
  space: string;
  changeRequest?: string | number | undefined;
}

export interface CommentListOptions {
  status?: 'all' | 'open' | 'resolved';
  order?: 'asc' | 'desc';
  targetPage?: string;
}

const placePath = (place: CommentPlace) =>
  `/v1/spaces/${seg(place.space)}${place.changeRequest !== undefined ? `/change-requests/${seg(place.changeRequest)}` : ''}/comments`;

/** Comments and their replies, on a space or on a change request (the same operations on both). */
export function commentsResource(request: Request) {
  const one = (place: CommentPlace, id: string) => `${placePath(place)}/${seg(id)}`;
  return {
    /** Every comment of the place, paged at 1000; `format=markdown` so bodies come as markdown. */
    list: (place: CommentPlace, options: CommentListOptions = {}) =>
      paginate((query) =>
        request<ListPage<Comment>>({ method: 'GET', path: placePath(place), query: { ...query, ...options, format: 'markdown' } }),
      ),
    /** Not retried after a reset: it would post twice. */
    post: (place: CommentPlace, body: { markdown: string; page?: string; node?: string }) =>
      request<Comment>({
        method: 'POST',
        path: placePath(place),
        body: {
          body: { markdown: body.markdown },
          ...(body.page !== undefined ? { page: body.page } : {}),
          ...(body.node !== undefined ? { node: body.node } : {}),
        },
      }),
    get: (place: CommentPlace, id: string) => request<Comment>({ method: 'GET', path: one(place, id), query: { format: 'markdown' } }),
    /** Resolving or reopening twice is harmless, so it is retried. */
    setResolved: (place: CommentPlace, id: string, resolved: boolean) =>
      request<Comment>({ method: 'PUT', path: one(place, id), body: { resolved }, idempotent: true }),
    replies: (place: CommentPlace, id: string) =>
      paginate((query) =>
        request<ListPage<CommentReply>>({ method: 'GET', path: `${one(place, id)}/replies`, query: { ...query, format: 'markdown' } }),
      ),
    reply: (place: CommentPlace, id: string, markdown: string) =>
      request<CommentReply>({ method: 'POST', path: `${one(place, id)}/replies`, body: { body: { markdown } } }),
  };
}
