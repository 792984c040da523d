import { Type, type Static } from '@sinclair/typebox';
import { Id, Uri } from './common.js';
import { DefaultLevel } from './roles.js';

export const CollectionTitle = Type.String({ maxLength: 50 });
export const CollectionDescription = Type.String({ maxLength: 100 });

export const CollectionPermissions = Type.Object({
  view: Type.Boolean(),
  admin: Type.Boolean(),
  viewInviteLinks: Type.Boolean(),
  create: Type.Boolean(),
});
export type CollectionPermissions = Static<typeof CollectionPermissions>;

export const Collection = Type.Object({
  object: Type.Literal('collection'),
  id: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  organization: Type.String(),
  parent: Type.Optional(Type.String()),
  defaultLevel: DefaultLevel,
  urls: Type.Object({ location: Uri, app: Uri }),
  permissions: CollectionPermissions,
});
export type Collection = Static<typeof Collection>;

export const CreateCollection = Type.Object(
  { title: Type.Optional(CollectionTitle), parent: Type.Optional(Id) },
  { additionalProperties: false },
);
export type CreateCollection = Static<typeof CreateCollection>;

export const UpdateCollection = Type.Object(
  {
    title: Type.Optional(CollectionTitle),
    description: Type.Optional(CollectionDescription),
    defaultLevel: Type.Optional(DefaultLevel),
  },
  { additionalProperties: false },
);
export type UpdateCollection = Static<typeof UpdateCollection>;
