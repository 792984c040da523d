import { Type, type Static } from '@sinclair/typebox';

/** Where a blob sits in a Git Sync tree and its git object id (sha1 of `blob <len>\0<bytes>`). */
export const GitBlob = Type.Object({ oid: Type.String(), path: Type.String() });
export type GitBlob = Static<typeof GitBlob>;

/** A file of a revision (images, attachments), as the API renders it. */
export const RevisionFile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  downloadURL: Type.String(),
  size: Type.Number(),
  dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
  git: Type.Optional(GitBlob),
});
export type RevisionFile = Static<typeof RevisionFile>;

/** Folder of files in the Git Sync layout. */
export const ASSETS_DIR = '.gitbook/assets';
