import { Type, type Static } from '@sinclair/typebox';
import { ChangeRequest } from './change-request.js';
import { GitBlob, RevisionFile } from './file.js';
import { RevisionPage, VariablesView } from './page.js';

export const REVISION_TYPES = ['edits', 'merge', 'rollback', 'update'] as const;
export type RevisionType = (typeof REVISION_TYPES)[number];

/**
 * A reusable content as the published spec gives it (`document` is the id of its body). `markdown`
 * is docsync's extension (docs/api.md): the body itself, on a read asked with `format=markdown`.
 */
export const RevisionReusableContent = Type.Object({
  id: Type.String(),
  title: Type.String(),
  document: Type.Optional(Type.String()),
  git: Type.Optional(GitBlob),
  markdown: Type.Optional(Type.String()),
});
export type RevisionReusableContent = Static<typeof RevisionReusableContent>;

/**
 * Extension (`git-files`, docs/api.md): a text file of the Git Sync folder the content was pushed
 * from that is neither a page, an asset, an include nor the variables, with its text.
 */
export const RevisionGitFile = Type.Object({ path: Type.String(), text: Type.String() });
export type RevisionGitFile = Static<typeof RevisionGitFile>;

/**
 * A revision: the content of a space or change request at one point. `mergedFrom` (the change
 * request merged) is present on `merge` revisions, as the published spec requires.
 */
export const Revision = Type.Object({
  object: Type.Literal('revision'),
  id: Type.String(),
  type: Type.Union(REVISION_TYPES.map((t) => Type.Literal(t))),
  parents: Type.Array(Type.String()),
  pages: Type.Array(RevisionPage),
  files: Type.Array(RevisionFile),
  reusableContents: Type.Array(RevisionReusableContent),
  tags: Type.Array(Type.Unknown()),
  variables: VariablesView,
  createdAt: Type.String(),
  urls: Type.Object({ app: Type.String(), published: Type.Optional(Type.String()), public: Type.Optional(Type.String()) }),
  mergedFrom: Type.Optional(ChangeRequest),
  gitFiles: Type.Optional(Type.Array(RevisionGitFile)),
});
export type Revision = Static<typeof Revision>;
