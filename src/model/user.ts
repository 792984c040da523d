import { Type, type Static } from '@sinclair/typebox';
import { Uri } from './common.js';

export const User = Type.Object({
  object: Type.Literal('user'),
  id: Type.String(),
  displayName: Type.String(),
  email: Type.String(),
  photoURL: Type.Optional(Type.String()),
  urls: Type.Object({ location: Uri }),
});
export type User = Static<typeof User>;
