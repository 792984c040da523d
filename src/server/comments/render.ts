import type { Kysely } from 'kysely';
import type { JsonDocument } from '../../content/index.js';
import { loadTextFacts } from '../revisions/facts.js';
import type { Comment, CommentReply, PageFormat } from '../../model/index.js';
import type { Database } from '../store/schema.js';
import type { CommentRow } from '../store/comments.js';
import { replyStats, type ReplyRow } from '../store/comment-replies.js';
import { reactionsOf, type ReactionRow } from '../store/comment-reactions.js';
import type { UserRow } from '../store/users.js';
import { commentView, replyView, type CommentViewContext } from '../views/comment.js';
import type { CommentPlace } from './place.js';
import { targetRenderer } from './target.js';

interface RenderOptions {
  base: string;
  caller: UserRow;
  format: PageFormat | undefined;
}

/** Reads every user and reaction the rows refer to once, for the view context. */
async function viewContext(
  db: Kysely<Database>,
  place: CommentPlace,
  subjectIds: readonly string[],
  userIds: Iterable<string>,
  bodies: readonly string[],
  options: RenderOptions,
): Promise<CommentViewContext> {
  const reactionRows = await reactionsOf(db, subjectIds);
  const reactions = new Map<string, ReactionRow[]>();
  for (const r of reactionRows) reactions.set(r.subject_id, [...(reactions.get(r.subject_id) ?? []), r]);
  const ids = new Set([...userIds, ...reactionRows.map((r) => r.user_id)]);
  const users = new Map<string, UserRow>();
  if (ids.size > 0)
    for (const u of await db
      .selectFrom('users')
      .selectAll()
      .where('id', 'in', [...ids])
      .execute())
      users.set(u.id, u);
  // A comment's markdown is parsed as a page's is: on a worker, once, its facts kept by sha.
  const documents = new Map<string, JsonDocument>();
  if (options.format === 'document') for (const [text, facts] of await loadTextFacts(db, bodies)) documents.set(text, facts.document);
  return { base: options.base, callerId: options.caller.id, role: place.role, format: options.format, users, reactions, documents };
}

export async function renderComments(
  db: Kysely<Database>,
  place: CommentPlace,
  rows: readonly CommentRow[],
  options: RenderOptions,
): Promise<Comment[]> {
  if (rows.length === 0) return [];
  const stats = await replyStats(
    db,
    rows.map((r) => r.id),
  );
  const userIds = rows.flatMap((r) => [
    r.posted_by,
    ...(r.resolved_by !== null ? [r.resolved_by] : []),
    ...(stats.get(r.id)?.repliers.map((x) => x.userId) ?? []),
  ]);
  const ctx = await viewContext(
    db,
    place,
    rows.map((r) => r.id),
    userIds,
    rows.map((r) => r.body),
    options,
  );
  const target = targetRenderer(db, place);
  const out: Comment[] = [];
  for (const row of rows) {
    const s = stats.get(row.id);
    out.push(commentView(row, { target: await target(row), replies: s?.count ?? 0, repliers: s?.repliers ?? [] }, ctx));
  }
  return out;
}

export async function renderComment(db: Kysely<Database>, place: CommentPlace, row: CommentRow, options: RenderOptions): Promise<Comment> {
  return (await renderComments(db, place, [row], options))[0]!;
}

export async function renderReplies(
  db: Kysely<Database>,
  place: CommentPlace,
  comment: CommentRow,
  rows: readonly ReplyRow[],
  options: RenderOptions,
): Promise<CommentReply[]> {
  if (rows.length === 0) return [];
  const ctx = await viewContext(
    db,
    place,
    rows.map((r) => r.id),
    rows.map((r) => r.posted_by),
    rows.map((r) => r.body),
    options,
  );
  return rows.map((row) => replyView(row, comment, ctx));
}

export async function renderReply(
  db: Kysely<Database>,
  place: CommentPlace,
  comment: CommentRow,
  row: ReplyRow,
  options: RenderOptions,
): Promise<CommentReply> {
  return (await renderReplies(db, place, comment, [row], options))[0]!;
}
