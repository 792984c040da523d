import type { ContentTree, TreeFile, TreePage } from '../../model/index.js';
import { pagePaths } from '../tree/paths.js';
import { walkPages } from '../tree/page-tree.js';

/** Lookups a link target needs, built once per revision. */
export interface RevisionIndex {
  pageById: ReadonlyMap<string, TreePage>;
  /** Document pages by Git Sync file path (`guides/install.md`). */
  pageByGitPath: ReadonlyMap<string, TreePage>;
  /** Document and group pages by API path (`guides/install`). */
  pageByPath: ReadonlyMap<string, TreePage>;
  gitPathOf: ReadonlyMap<string, string>;
  fileById: ReadonlyMap<string, TreeFile>;
  fileByName: ReadonlyMap<string, TreeFile>;
}

export function indexRevision(tree: ContentTree): RevisionIndex {
  const paths = pagePaths(tree.pages);
  const pageById = new Map<string, TreePage>();
  const pageByGitPath = new Map<string, TreePage>();
  const pageByPath = new Map<string, TreePage>();
  const gitPathOf = new Map<string, string>();
  for (const page of walkPages(tree.pages)) {
    pageById.set(page.id, page);
    const p = paths.get(page.id);
    if (!p) continue;
    if (p.gitPath !== undefined) {
      gitPathOf.set(page.id, p.gitPath);
      if (!pageByGitPath.has(p.gitPath)) pageByGitPath.set(p.gitPath, page);
    }
    if (page.type !== 'link' && page.type !== 'computed' && !pageByPath.has(p.path)) pageByPath.set(p.path, page);
  }
  const fileById = new Map(tree.files.map((f) => [f.id, f]));
  const fileByName = new Map<string, TreeFile>();
  for (const file of tree.files) if (!fileByName.has(file.name)) fileByName.set(file.name, file);
  return { pageById, pageByGitPath, pageByPath, gitPathOf, fileById, fileByName };
}
