import { Type, type Static } from '@sinclair/typebox';
import type { DocsyncExtension } from './content-change.js';

/**
 * `GET /v1/spaces/{spaceId}/revisions/{revisionId}/changed-pages?since={revisionId}` (docsync's
 * extension `changed-pages`, docs/api.md): what changed from revision `since` to the revision, so
 * that a reader holding `since` reads only the pages that changed.
 */
export const ChangedPagesResponse = Type.Object({
  since: Type.String(),
  revision: Type.String(),
  /** Document, group and link pages whose own fields changed (`document`: the markdown), in tree order; empty when `structure`. */
  pages: Type.Array(Type.Object({ id: Type.String(), fields: Type.Array(Type.String()) })),
  /**
   * More than pages' own fields changed: pages added, removed or moved, a title, a slug, a link's
   * target or a kept file, or the files, variables, reusable contents or the folder's kept files.
   * A reader then reads the whole revision.
   */
  structure: Type.Boolean(),
});
export type ChangedPagesResponse = Static<typeof ChangedPagesResponse>;

/** The extension name a server advertises in `x-docsync-extensions` when it answers changed-pages reads. */
export const CHANGED_PAGES_EXTENSION = 'changed-pages' satisfies DocsyncExtension;
