import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CommentReply,
  DEFAULT_LIST_LIMIT,
  DocsyncError,
  FormatQuery,
  Id,
  ListOf,
  PostCommentReply,
  ReplyListQuery,
  UpdateCommentReply,
  forbidden,
  roleAtLeast,
  type PageFormat,
} from '../../model/index.js';
import { deleteReply, findReply, insertReply, listReplies, updateReply, type ReplyRow } from '../store/comment-replies.js';
import { applyReactions } from '../store/comment-reactions.js';
import { loadPlace } from '../comments/place.js';
import { renderReplies, renderReply } from '../comments/render.js';
import { bodyMarkdown, reactionEmoji } from '../comments/input.js';
import { collectPage, pageRequest } from '../util/cursor.js';
import { newId } from '../util/ids.js';
import { baseUrl } from '../urls.js';
import { COMMENT_PREFIXES, loadComment } from './comments.js';

const CommentParams = Type.Object({ spaceId: Id, changeRequestId: Type.Optional(Id), commentId: Id });
const ReplyParams = Type.Object({ ...CommentParams.properties, commentReplyId: Id });

async function loadReply(db: Parameters<typeof findReply>[0], commentId: string, replyId: string): Promise<ReplyRow> {
  const row = await findReply(db, commentId, replyId);
  if (!row) throw new DocsyncError('not_found', `reply ${replyId} not found on comment ${commentId}`);
  return row;
}

/** Replies to comments, under both comment prefixes (the published spec has them for both). */
export const commentReplyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, clock } = app.ctx;
  const now = () => clock.now().toISOString();
  const options = (request: FastifyRequest, format?: PageFormat) => ({
    base: baseUrl(request),
    caller: request.caller,
    format,
  });

  for (const base of COMMENT_PREFIXES) {
    const prefix = `${base}/:commentId/replies`;

    app.get(
      prefix,
      { schema: { params: CommentParams, querystring: ReplyListQuery, response: { 200: ListOf(CommentReply) } } },
      async (request) => {
        const place = await loadPlace(db, request.caller, request.params, 'space.view');
        const comment = await loadComment(db, place, request.params.commentId);
        const page = await collectPage({
          request: pageRequest(request.query, DEFAULT_LIST_LIMIT),
          fetch: (after, n) => listReplies(db, comment.id, after, n),
          key: (row) => [row.posted_at, row.id],
          accept: (row) => row,
        });
        return { ...page, items: await renderReplies(db, place, comment, page.items, options(request, request.query.format)) };
      },
    );

    app.post(
      prefix,
      { schema: { params: CommentParams, querystring: FormatQuery, body: PostCommentReply, response: { 200: CommentReply } } },
      async (request) => {
        const place = await loadPlace(db, request.caller, request.params, 'space.comment');
        const comment = await loadComment(db, place, request.params.commentId);
        const row = {
          id: newId(),
          comment_id: comment.id,
          body: bodyMarkdown(request.body.body),
          posted_by: request.caller.id,
          posted_at: now(),
        };
        // The comment may have been deleted since it was read: then the reply is refused, not orphaned.
        if (!(await insertReply(db, row))) throw new DocsyncError('not_found', `comment ${comment.id} not found`);
        return renderReply(db, place, comment, { ...row, edited_at: null }, options(request, request.query.format));
      },
    );

    app.get(
      `${prefix}/:commentReplyId`,
      { schema: { params: ReplyParams, querystring: FormatQuery, response: { 200: CommentReply } } },
      async (request) => {
        const place = await loadPlace(db, request.caller, request.params, 'space.view');
        const comment = await loadComment(db, place, request.params.commentId);
        const row = await loadReply(db, comment.id, request.params.commentReplyId);
        return renderReply(db, place, comment, row, options(request, request.query.format));
      },
    );

    app.put(
      `${prefix}/:commentReplyId`,
      { schema: { params: ReplyParams, body: UpdateCommentReply, response: { 200: CommentReply } } },
      async (request) => {
        const place = await loadPlace(db, request.caller, request.params, 'space.comment');
        const comment = await loadComment(db, place, request.params.commentId);
        let row = await loadReply(db, comment.id, request.params.commentReplyId);
        const { body, addedReactions = [], removedReactions = [] } = request.body;
        const at = now();
        const added = addedReactions.map((e, i) => reactionEmoji(e, `body.addedReactions.${i}`));
        const removed = removedReactions.map((e, i) => reactionEmoji(e, `body.removedReactions.${i}`));
        if (body !== undefined) {
          if (row.posted_by !== request.caller.id) throw forbidden(`only its author can edit reply ${row.id}`);
          const markdown = bodyMarkdown(body);
          if (markdown !== row.body) row = await updateReply(db, row, { body: markdown, edited_at: at });
        }
        if (added.length + removed.length > 0)
          await applyReactions(db, { subjectId: row.id, userId: request.caller.id, added, removed }, at);
        return renderReply(db, place, comment, row, options(request));
      },
    );

    app.delete(`${prefix}/:commentReplyId`, { schema: { params: ReplyParams } }, async (request, reply) => {
      const place = await loadPlace(db, request.caller, request.params, 'space.comment');
      const comment = await loadComment(db, place, request.params.commentId);
      const row = await loadReply(db, comment.id, request.params.commentReplyId);
      const mayDelete = (row.posted_by === request.caller.id && roleAtLeast(place.role, 'comment')) || roleAtLeast(place.role, 'admin');
      if (!mayDelete) throw forbidden(`only its author or an admin can delete reply ${row.id}`);
      await deleteReply(db, row);
      return reply.status(205).send();
    });
  }
};
