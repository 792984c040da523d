import { Type, type Static } from '@sinclair/typebox';
import { Id, MAX_LIST_LIMIT, Timestamp, Uri } from './common.js';
import { User } from './user.js';
import { MemberRoleOrGuest } from './roles.js';
import { PageFormat } from './page.js';

/** Longest comment or reply body, in characters of markdown (docs/api.md, "Comments"). */
export const MAX_COMMENT_MARKDOWN = 20_000;
/** Most reactions one update may add or remove. */
export const MAX_REACTIONS_PER_UPDATE = 20;

export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

export const Reaction = Type.Object({
  emoji: Type.String(),
  count: Type.Number(),
  users: Type.Array(Type.Object({ user: User, reactedAt: Timestamp })),
});
export type Reaction = Static<typeof Reaction>;

/** A body as answered: markdown, or the JSON document of it with `format=document`. */
export const CommentBody = Type.Object({
  markdown: Type.Optional(Type.String()),
  document: Type.Optional(Type.Unknown()),
});

export const CommentPermissions = Type.Object({
  view: Type.Boolean(),
  edit: Type.Boolean(),
  reply: Type.Boolean(),
  delete: Type.Boolean(),
});
export type CommentPermissions = Static<typeof CommentPermissions>;

export const CommentTargetPage = Type.Object({
  id: Type.String(),
  title: Type.String(),
  emoji: Type.Optional(Type.String()),
  icon: Type.Optional(Type.String()),
  createdAt: Type.Optional(Timestamp),
  updatedAt: Type.Optional(Timestamp),
  path: Type.String(),
  /** True once the page's content changed after the comment was posted (or the page is gone). */
  outdated: Type.Boolean(),
});

export const CommentTarget = Type.Object({
  space: Type.String(),
  revision: Type.String(),
  changeRequest: Type.Optional(Type.String()),
  page: Type.Optional(CommentTargetPage),
  node: Type.Optional(Type.Object({ id: Type.String(), preview: Type.String() })),
});
export type CommentTarget = Static<typeof CommentTarget>;

export const Comment = Type.Object({
  object: Type.Literal('comment'),
  id: Type.String(),
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(Reaction),
  replies: Type.Number(),
  repliers: Type.Array(Type.Object({ user: User, count: Type.Integer(), updatedAt: Timestamp })),
  body: CommentBody,
  target: CommentTarget,
  urls: Type.Object({ location: Uri }),
  permissions: CommentPermissions,
  status: Type.Union(COMMENT_STATUSES.map((s) => Type.Literal(s))),
  resolvedAt: Type.Optional(Timestamp),
  resolvedBy: Type.Optional(User),
});
export type Comment = Static<typeof Comment>;

export const CommentReply = Type.Object({
  object: Type.Literal('comment-reply'),
  id: Type.String(),
  postedBy: User,
  postedAt: Timestamp,
  editedAt: Type.Optional(Timestamp),
  reactions: Type.Array(Reaction),
  body: CommentBody,
  urls: Type.Object({ location: Uri }),
  permissions: CommentPermissions,
});
export type CommentReply = Static<typeof CommentReply>;

/**
 * A body as posted: `{markdown}`, or `{document}` (a JSON document, stored as its markdown).
 * The published spec's third shape, `{}`, is accepted by the schema and refused by the route
 * with a 400 saying a comment needs text.
 */
export const CommentBodyInput = Type.Object(
  {
    markdown: Type.Optional(Type.String({ maxLength: MAX_COMMENT_MARKDOWN })),
    document: Type.Optional(
      Type.Object({ object: Type.Literal('document'), nodes: Type.Array(Type.Unknown()) }, { additionalProperties: true }),
    ),
  },
  { additionalProperties: false },
);
export type CommentBodyInput = Static<typeof CommentBodyInput>;

export const PostComment = Type.Object(
  {
    body: CommentBodyInput,
    page: Type.Optional(Id),
    node: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);
export type PostComment = Static<typeof PostComment>;

export const PostCommentReply = Type.Object({ body: CommentBodyInput }, { additionalProperties: false });
export type PostCommentReply = Static<typeof PostCommentReply>;

/** An emoji given as the character(s) or as hex code points (`1f44d`); never empty. */
const ReactionEmoji = Type.String({ minLength: 1, maxLength: 50, format: 'emoji' });
const Reactions = Type.Array(ReactionEmoji, { maxItems: MAX_REACTIONS_PER_UPDATE });

export const UpdateComment = Type.Object(
  {
    resolved: Type.Optional(Type.Boolean()),
    body: Type.Optional(CommentBodyInput),
    addedReactions: Type.Optional(Reactions),
    removedReactions: Type.Optional(Reactions),
  },
  { additionalProperties: false },
);
export type UpdateComment = Static<typeof UpdateComment>;

/** A reply has no status: the published spec reuses the comment's update schema, `resolved` is a 400. */
export const UpdateCommentReply = Type.Object(
  {
    body: Type.Optional(CommentBodyInput),
    addedReactions: Type.Optional(Reactions),
    removedReactions: Type.Optional(Reactions),
  },
  { additionalProperties: false },
);
export type UpdateCommentReply = Static<typeof UpdateCommentReply>;

export const CommentListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    status: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('open'), Type.Literal('resolved')])),
    format: Type.Optional(PageFormat),
    targetPage: Type.Optional(Id),
    authors: Type.Optional(Type.Array(Id, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
export type CommentListQuery = Static<typeof CommentListQuery>;

export const ReplyListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT })),
    format: Type.Optional(PageFormat),
  },
  { additionalProperties: false },
);

export const FormatQuery = Type.Object({ format: Type.Optional(PageFormat) }, { additionalProperties: false });

/** An organization member as the commenters listings answer it (published OrganizationMember). */
export const Commenter = Type.Object({
  object: Type.Literal('member'),
  id: Type.String(),
  role: MemberRoleOrGuest,
  user: User,
  disabled: Type.Boolean(),
  joinedAt: Timestamp,
  lastSeenAt: Type.Optional(Timestamp),
  sso: Type.Boolean(),
  spaces: Type.Number(),
  teams: Type.Number(),
  sites: Type.Number(),
});
export type Commenter = Static<typeof Commenter>;
