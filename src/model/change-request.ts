import { Type, type Static } from '@sinclair/typebox';
import { Id, MAX_LIST_LIMIT, Timestamp, Uri } from './common.js';
import { User } from './user.js';

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];
export const ChangeRequestStatus = Type.Union(CHANGE_REQUEST_STATUSES.map((s) => Type.Literal(s)));

/** `merged` is reached only through POST merge, never set by PATCH. */
export const SETTABLE_STATUSES = ['draft', 'open', 'archived'] as const;
export const SettableStatus = Type.Union(SETTABLE_STATUSES.map((s) => Type.Literal(s)));

export const MAX_SUBJECT = 100;
export const ChangeRequestSubject = Type.String({ maxLength: MAX_SUBJECT });

export const ChangeRequest = Type.Object({
  object: Type.Literal('change-request'),
  id: Type.String(),
  number: Type.Number(),
  status: ChangeRequestStatus,
  subject: ChangeRequestSubject,
  createdBy: User,
  createdAt: Timestamp,
  updatedAt: Timestamp,
  mergedBy: Type.Optional(User),
  mergedAt: Type.Optional(Timestamp),
  space: Type.String(),
  revision: Type.String(),
  revisionInitial: Type.String(),
  revisionMergedAncestor: Type.Optional(Type.String()),
  revisionMerged: Type.Optional(Type.String()),
  comments: Type.Number(),
  outdated: Type.Boolean(),
  urls: Type.Object({ app: Uri, location: Uri }),
});
export type ChangeRequest = Static<typeof ChangeRequest>;

export const CreateChangeRequest = Type.Object(
  {
    subject: Type.Optional(ChangeRequestSubject),
    /** Seed: the id of an agent task to implement; stored, not acted on. */
    agentTaskId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type CreateChangeRequest = Static<typeof CreateChangeRequest>;

export const UpdateChangeRequest = Type.Object(
  { subject: Type.Optional(ChangeRequestSubject), status: Type.Optional(SettableStatus) },
  { additionalProperties: false },
);
export type UpdateChangeRequest = Static<typeof UpdateChangeRequest>;

export const ChangeRequestListQuery = Type.Object(
  {
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT })),
    status: Type.Optional(ChangeRequestStatus),
    contributor: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type ChangeRequestListQuery = Static<typeof ChangeRequestListQuery>;

export const MergeResult = Type.Object({ revision: Type.String(), result: Type.Literal('merge') });
export const UpdateResult = Type.Object({ revision: Type.String(), result: Type.Literal('update') });
