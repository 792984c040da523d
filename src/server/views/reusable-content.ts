import { type RevisionReusableContent, type TreeReusableContent } from '../../model/index.js';
import { INCLUDES_DIR } from '../../content/index.js';

export interface ReusableContentViewContext {
  /** False omits `git` (the published `metadata=false`). */
  metadata: boolean;
  /** The content's file in `.gitbook/includes/` (content's `includeNames`). */
  name: (content: TreeReusableContent) => string;
  /** Git blob id of the stored markdown (the empty blob for an empty content). */
  gitOid: (content: TreeReusableContent) => string;
  /** The body, for `format=markdown` (docsync's extension); absent otherwise. */
  markdown?: (content: TreeReusableContent) => string;
}

/** A stored reusable content as the published RevisionReusableContent; `document` is its body's id. */
export function reusableContentView(content: TreeReusableContent, ctx: ReusableContentViewContext): RevisionReusableContent {
  return {
    id: content.id,
    title: content.title,
    ...(content.document !== undefined ? { document: content.document } : {}),
    ...(ctx.metadata ? { git: { oid: ctx.gitOid(content), path: `${INCLUDES_DIR}/${ctx.name(content)}` } } : {}),
    ...(ctx.markdown ? { markdown: ctx.markdown(content) } : {}),
  };
}
