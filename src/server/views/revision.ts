import type { ChangeRequest, ContentTree, Revision, RevisionFile, RevisionGitFile, RevisionPage, RevisionType } from '../../model/index.js';
import type { RevisionRow } from '../store/revisions.js';

export interface RevisionViewParts {
  pages: RevisionPage[];
  files: RevisionFile[];
  /** The revision's location in the app. */
  appURL: string;
  /** For a `merge` revision: the change request merged (the published spec requires it). */
  mergedFrom?: ChangeRequest | undefined;
  /** The folder files with their texts (extension `git-files`), when the tree has any. */
  gitFiles?: RevisionGitFile[] | undefined;
}

/**
 * A stored revision as the published Revision. `tags` is always empty (docsync has no tags);
 * `git` (commit metadata) is never set: revisions are not git commits on the server.
 */
export function revisionView(row: RevisionRow, tree: ContentTree, parts: RevisionViewParts): Revision {
  return {
    object: 'revision',
    id: row.id,
    type: row.type as RevisionType,
    parents: JSON.parse(row.parents) as string[],
    pages: parts.pages,
    files: parts.files,
    reusableContents: tree.reusableContents.map((r) => ({
      id: r.id,
      title: r.title,
      ...(r.document !== undefined ? { document: r.document } : {}),
    })),
    tags: [],
    variables: { ...tree.variables },
    createdAt: row.created_at,
    urls: { app: parts.appURL },
    ...(parts.mergedFrom ? { mergedFrom: parts.mergedFrom } : {}),
    ...(parts.gitFiles ? { gitFiles: parts.gitFiles } : {}),
  };
}

/**
 * The wire text of a revision view. Every object in the view is built with the published
 * schema's fields only (pageView, fileView, renderChangeRequest), so `JSON.stringify` writes what
 * the route's schema serializer would, three to four times faster on a revision of thousands of
 * pages: that serializer tries each page against the page-type union one by one
 * (test/server/content-read-revision.test.ts compares both).
 */
export function revisionJson(view: Revision): string {
  return JSON.stringify(view);
}
