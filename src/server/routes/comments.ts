import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  Comment,
  CommentListQuery,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  FormatQuery,
  Id,
  ListOf,
  PostComment,
  UpdateComment,
  forbidden,
  roleAtLeast,
} from '../../model/index.js';
import {
  deleteComment,
  findComment,
  insertComment,
  listComments,
  updateComment,
  type CommentChanges,
  type CommentRow,
} from '../store/comments.js';
import { applyReactions } from '../store/comment-reactions.js';
import { loadPlace, type CommentPlace } from '../comments/place.js';
import { resolvePostedTarget } from '../comments/target.js';
import { renderComment, renderComments } from '../comments/render.js';
import { bodyMarkdown, reactionEmoji } from '../comments/input.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { newId } from '../util/ids.js';
import { baseUrl } from '../urls.js';

/** Both places comments live: a space's main content, and a change request (by id or number). */
export const COMMENT_PREFIXES = ['/spaces/:spaceId/comments', '/spaces/:spaceId/change-requests/:changeRequestId/comments'] as const;
const PlaceParams = Type.Object({ spaceId: Id, changeRequestId: Type.Optional(Id) });
const CommentParams = Type.Object({ ...PlaceParams.properties, commentId: Id });

/** The comment of this place; 404 names it when it is not there (or was deleted). */
export async function loadComment(db: Parameters<typeof findComment>[0], place: CommentPlace, commentId: string): Promise<CommentRow> {
  const row = await findComment(db, place.scope, commentId);
  if (!row) throw new DocsyncError('not_found', `comment ${commentId} not found`);
  return row;
}

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();

  for (const prefix of COMMENT_PREFIXES) {
    app.get(
      prefix,
      { schema: { params: PlaceParams, querystring: CommentListQuery, response: { 200: ListOf(Comment) } } },
      async (request) => {
        const place = await loadPlace(db, request.caller, request.params, 'space.view');
        const { status = 'all', order = 'desc', targetPage, authors, format } = request.query;
        const page = await collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => listComments(db, place.scope, { status, order, pageId: targetPage, authors }, after, n),
          key: (row) => [row.posted_at, row.id],
          accept: (row) => row,
        });
        return { ...page, items: await renderComments(db, place, page.items, { base: baseUrl(request), caller: request.caller, format }) };
      },
    );

    app.post(prefix, { schema: { params: PlaceParams, body: PostComment, response: { 200: Comment } } }, async (request) => {
      const place = await loadPlace(db, request.caller, request.params, 'space.comment');
      const body = bodyMarkdown(request.body.body);
      const target = await resolvePostedTarget(db, place, request.body);
      const row = await insertComment(db, {
        id: newId(),
        space_id: place.scope.spaceId,
        change_request_id: place.scope.changeRequestId,
        revision_id: place.head,
        ...target,
        body,
        posted_by: request.caller.id,
        posted_at: now(),
        edited_at: null,
        status: 'open',
        resolved_at: null,
        resolved_by: null,
      });
      return renderComment(db, place, row, { base: baseUrl(request), caller: request.caller, format: undefined });
    });

    app.get(
      `${prefix}/:commentId`,
      { schema: { params: CommentParams, querystring: FormatQuery, response: { 200: Comment } } },
      async (request) => {
        const place = await loadPlace(db, request.caller, request.params, 'space.view');
        const row = await loadComment(db, place, request.params.commentId);
        return renderComment(db, place, row, { base: baseUrl(request), caller: request.caller, format: request.query.format });
      },
    );

    app.put(
      `${prefix}/:commentId`,
      { schema: { params: CommentParams, body: UpdateComment, response: { 200: Comment } } },
      async (request) => {
        const place = await loadPlace(db, request.caller, request.params, 'space.comment');
        const row = await loadComment(db, place, request.params.commentId);
        const { body, resolved, addedReactions = [], removedReactions = [] } = request.body;
        const at = now();
        const changes: CommentChanges = {};
        if (body !== undefined) {
          if (row.posted_by !== request.caller.id) throw forbidden(`only its author can edit comment ${row.id}`);
          const markdown = bodyMarkdown(body);
          if (markdown !== row.body) Object.assign(changes, { body: markdown, edited_at: at });
        }
        if (resolved === true && row.status !== 'resolved')
          Object.assign(changes, { status: 'resolved', resolved_at: at, resolved_by: request.caller.id });
        if (resolved === false && row.status !== 'open') Object.assign(changes, { status: 'open', resolved_at: null, resolved_by: null });
        const added = addedReactions.map((e, i) => reactionEmoji(e, `body.addedReactions.${i}`));
        const removed = removedReactions.map((e, i) => reactionEmoji(e, `body.removedReactions.${i}`));
        const updated = await updateComment(db, row, changes);
        if (!updated) throw new DocsyncError('not_found', `comment ${row.id} not found`);
        if (added.length + removed.length > 0)
          await applyReactions(db, { subjectId: row.id, userId: request.caller.id, added, removed }, at);
        return renderComment(db, place, updated, { base: baseUrl(request), caller: request.caller, format: undefined });
      },
    );

    app.delete(`${prefix}/:commentId`, { schema: { params: CommentParams } }, async (request, reply) => {
      const place = await loadPlace(db, request.caller, request.params, 'space.comment');
      const row = await loadComment(db, place, request.params.commentId);
      const mayDelete = (row.posted_by === request.caller.id && roleAtLeast(place.role, 'comment')) || roleAtLeast(place.role, 'admin');
      if (!mayDelete) throw forbidden(`only its author or an admin can delete comment ${row.id}`);
      if (!(await deleteComment(db, row))) throw new DocsyncError('not_found', `comment ${row.id} not found`);
      return reply.status(205).send();
    });
  }
};
