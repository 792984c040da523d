import { Type, type Static } from '@sinclair/typebox';
import { Emoji, Id, Timestamp, Uri } from './common.js';
import { DefaultLevel } from './roles.js';

export const SpaceTitle = Type.String({ maxLength: 50 });

/** A deleted space can be restored for this long; then it is removed for good. */
export const SPACE_RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export function restoreDeadline(deletedAt: string): Date {
  return new Date(Date.parse(deletedAt) + SPACE_RESTORE_WINDOW_MS);
}
export const VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const ContentVisibility = Type.Union(VISIBILITIES.map((v) => Type.Literal(v)));
export const SpaceEditMode = Type.Union([Type.Literal('live'), Type.Literal('locked')]);
export type SpaceEditMode = Static<typeof SpaceEditMode>;

export const SpacePermissions = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  admin: Type.Boolean(),
  viewInviteLinks: Type.Boolean(),
  edit: Type.Boolean(),
  triggerGitSync: Type.Boolean(),
  comment: Type.Boolean(),
  merge: Type.Boolean(),
  review: Type.Boolean(),
  installIntegration: Type.Boolean(),
});
export type SpacePermissions = Static<typeof SpacePermissions>;

export const Space = Type.Object({
  object: Type.Literal('space'),
  id: Type.String(),
  title: Type.String(),
  emoji: Type.String(),
  visibility: ContentVisibility,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  deletedAt: Type.Optional(Timestamp),
  editMode: Type.Optional(SpaceEditMode),
  mergeRules: Type.Object({ type: Type.Literal('inherit') }),
  urls: Type.Object({
    location: Uri,
    app: Uri,
    published: Type.Optional(Uri),
    public: Type.Optional(Uri),
    icon: Type.Optional(Uri),
  }),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  revision: Type.String(),
  defaultLevel: DefaultLevel,
  comments: Type.Number(),
  changeRequests: Type.Number(),
  changeRequestsOpen: Type.Number(),
  changeRequestsDraft: Type.Number(),
  permissions: SpacePermissions,
});
export type Space = Static<typeof Space>;

export const CreateSpace = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Emoji),
    parent: Type.Optional(Id),
    visibility: Type.Optional(ContentVisibility),
    editMode: Type.Optional(SpaceEditMode),
    /** Published spec: a space with no page at all. */
    empty: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateSpace = Static<typeof CreateSpace>;

export const UpdateSpace = Type.Object(
  {
    editMode: Type.Optional(SpaceEditMode),
    title: Type.Optional(SpaceTitle),
    defaultLevel: Type.Optional(DefaultLevel),
    /** The published spec clears the emoji with null; the empty string does the same. */
    emoji: Type.Optional(Type.Union([Emoji, Type.Null()])),
    visibility: Type.Optional(ContentVisibility),
  },
  { additionalProperties: false },
);
export type UpdateSpace = Static<typeof UpdateSpace>;

/** `position.before` / `position.after` of a move: a sibling space or collection. */
export const ContentPointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Id }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('collection'), collection: Id }, { additionalProperties: false }),
]);
export type ContentPointer = Static<typeof ContentPointer>;
export const ContentPosition = Type.Object(
  { before: Type.Optional(ContentPointer), after: Type.Optional(ContentPointer) },
  { additionalProperties: false },
);
export type ContentPosition = Static<typeof ContentPosition>;

export const MoveContent = Type.Object(
  {
    parent: Type.Optional(Type.Union([Id, Type.Null()])),
    position: Type.Optional(ContentPosition),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MoveContent = Static<typeof MoveContent>;

export const TransferContent = Type.Object({ organization: Id, collection: Type.Optional(Id) }, { additionalProperties: false });
export type TransferContent = Static<typeof TransferContent>;
