import type { JsonDocument } from '../../content/index.js';
import type { Comment, CommentReply, CommentTarget, PageFormat, Reaction, Role } from '../../model/index.js';
import type { CommentRow } from '../store/comments.js';
import type { ReplyRow } from '../store/comment-replies.js';
import type { ReactionRow } from '../store/comment-reactions.js';
import type { UserRow } from '../store/users.js';
import { commentPermissions } from '../auth/permissions.js';
import { apiUrl } from '../urls.js';
import { userView } from './user.js';

/** What rendering comments of one listing needs besides the rows. */
export interface CommentViewContext {
  base: string;
  callerId: string;
  role: Role;
  format: PageFormat | undefined;
  users: ReadonlyMap<string, UserRow>;
  reactions: ReadonlyMap<string, readonly ReactionRow[]>;
  /** With `format: document`, each body's JSON document by its markdown (derived off the event loop). */
  documents: ReadonlyMap<string, JsonDocument>;
}

/** The API path of a comment: under its change request when it has one. */
export function commentPath(row: Pick<CommentRow, 'id' | 'space_id' | 'change_request_id'>): string {
  const scope =
    row.change_request_id === null ? `/spaces/${row.space_id}` : `/spaces/${row.space_id}/change-requests/${row.change_request_id}`;
  return `${scope}/comments/${row.id}`;
}

const EMPTY_DOCUMENT: JsonDocument = { object: 'document', data: {}, nodes: [] };

export function bodyView(markdown: string, ctx: Pick<CommentViewContext, 'format' | 'documents'>): Comment['body'] {
  return ctx.format === 'document' ? { document: ctx.documents.get(markdown) ?? EMPTY_DOCUMENT } : { markdown };
}

function user(ctx: CommentViewContext, id: string, base: string) {
  const row = ctx.users.get(id);
  // Users are never deleted; a missing one is a broken store, not bad input.
  if (!row) throw new Error(`user ${id} is missing`);
  return userView(row, base);
}

/** Reactions grouped by emoji in the order each emoji was first used, users in reaction order. */
function reactionsView(ctx: CommentViewContext, subjectId: string): Reaction[] {
  const byEmoji = new Map<string, Reaction>();
  for (const r of ctx.reactions.get(subjectId) ?? []) {
    let entry = byEmoji.get(r.emoji);
    if (!entry) byEmoji.set(r.emoji, (entry = { emoji: r.emoji, count: 0, users: [] }));
    entry.count += 1;
    entry.users.push({ user: user(ctx, r.user_id, ctx.base), reactedAt: r.reacted_at });
  }
  return [...byEmoji.values()];
}

export interface CommentExtras {
  target: CommentTarget;
  replies: number;
  repliers: { userId: string; count: number; updatedAt: string }[];
}

export function commentView(row: CommentRow, extras: CommentExtras, ctx: CommentViewContext): Comment {
  const status = row.status === 'resolved' ? 'resolved' : 'open';
  return {
    object: 'comment',
    id: row.id,
    postedBy: user(ctx, row.posted_by, ctx.base),
    postedAt: row.posted_at,
    ...(row.edited_at !== null ? { editedAt: row.edited_at } : {}),
    reactions: reactionsView(ctx, row.id),
    replies: extras.replies,
    repliers: extras.repliers.map((r) => ({ user: user(ctx, r.userId, ctx.base), count: r.count, updatedAt: r.updatedAt })),
    body: bodyView(row.body, ctx),
    target: extras.target,
    urls: { location: apiUrl(ctx.base, commentPath(row)) },
    permissions: commentPermissions(ctx.role, row.posted_by === ctx.callerId),
    status,
    ...(status === 'resolved' && row.resolved_at !== null && row.resolved_by !== null
      ? { resolvedAt: row.resolved_at, resolvedBy: user(ctx, row.resolved_by, ctx.base) }
      : {}),
  };
}

export function replyView(row: ReplyRow, comment: CommentRow, ctx: CommentViewContext): CommentReply {
  return {
    object: 'comment-reply',
    id: row.id,
    postedBy: user(ctx, row.posted_by, ctx.base),
    postedAt: row.posted_at,
    ...(row.edited_at !== null ? { editedAt: row.edited_at } : {}),
    reactions: reactionsView(ctx, row.id),
    body: bodyView(row.body, ctx),
    urls: { location: apiUrl(ctx.base, `${commentPath(comment)}/replies/${row.id}`) },
    permissions: commentPermissions(ctx.role, row.posted_by === ctx.callerId),
  };
}
