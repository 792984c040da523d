import { slugify } from '../content/index.js';
import { assetPath, isAssetName } from './assets.js';
import { GITBOOK_YAML, renderGitbookYaml, rootPrefix, structurePath } from './gitbook-yaml.js';
import { includePaths, renderInclude } from './includes.js';
import { renderPageFile, splitMarkdown } from './page-file.js';
import { renderPageMeta, writtenFrontMatter } from './page-meta.js';
import { relativePath, resolvePath } from './paths.js';
import { problem, type WorkspaceProblem } from './problems.js';
import { renderSummary, type SummaryItem, type Summary, type SummaryPart } from './summary.js';
import { canonicalPaths, groupSlugOf, pageKeys, slugOfPath } from './tree.js';
import { type FileMap, type WorkspaceContent, type WorkspaceDocument, type WorkspaceIndex, type WorkspacePage } from './types.js';
import { renderVars, VARS_FILE } from './vars.js';

export interface WrittenFolder {
  /** Every file of the folder, by path (`.gitbook.yaml` at the top, the rest under `root`). */
  files: FileMap;
  /** Page id → file (relative to the folder), for document pages. */
  paths: Map<string, string>;
  /** Ids by place, to keep in the path index and give back to `readFolder`. */
  index: WorkspaceIndex;
  /** What the folder cannot hold (nothing is dropped without one). */
  problems: WorkspaceProblem[];
}

/**
 * One document page's file, as `writeFolder` writes it at `path` (relative to the root):
 * front matter, title heading, markdown. `assetName` names the file a cover points at.
 */
export function renderDocument(page: WorkspaceDocument, path: string, assetName: (id: string) => string | undefined): string {
  const { extra, body } = splitMarkdown(page.markdown);
  const want = renderPageMeta(page, extra, path, assetName);
  return renderPageFile(
    page.frontMatter === undefined ? want : writtenFrontMatter(page.frontMatter, want, path),
    page.title,
    body,
    page.titleHeading !== false,
  );
}

/**
 * Renders content as a GitBook Git Sync folder. Pure and canonical: the same content always
 * gives the same bytes, so a round trip through the server produces no diff. Page files go to
 * their `path` when it names the page's slug, else where the Git Sync path rules put them.
 */
export function writeFolder(content: WorkspaceContent): WrittenFolder {
  const { settings } = content;
  const prefix = rootPrefix(settings.root);
  const summaryPath = structurePath(settings.structure?.summary, 'SUMMARY.md');
  const files: FileMap = new Map();
  const problems: WorkspaceProblem[] = [];
  const paths = new Map<string, string>();

  const names = new Map<string, string>();
  const fileIndex = new Map<string, string>();
  for (const file of content.files) {
    if (!isAssetName(file.name))
      problems.push(
        problem('unrepresentable', assetPath(file.name), undefined, `file ${file.id}: name \`${file.name}\` cannot be a file name`),
      );
    else if (fileIndex.has(file.name))
      problems.push(
        problem(
          'duplicate-path',
          prefix + assetPath(file.name),
          undefined,
          `files ${fileIndex.get(file.name)} and ${file.id} have one name; only the first is written`,
        ),
      );
    else if (file.bytes === undefined)
      problems.push(problem('unrepresentable', prefix + assetPath(file.name), undefined, `file ${file.id} has no bytes (fetch it first)`));
    else {
      files.set(prefix + assetPath(file.name), file.bytes);
      fileIndex.set(file.name, file.id);
      names.set(file.id, file.name);
    }
  }

  const canonical = canonicalPaths(content.pages, structurePath(settings.structure?.readme, 'README.md'));
  const used = new Set<string>();
  const owner = new Map<string, string>();
  const pathOf = (page: WorkspacePage & { type: 'document' }) => {
    const wanted = canonical.get(page.id)!;
    const kept = page.path;
    const usable =
      kept !== undefined &&
      kept !== wanted &&
      /\.md$/i.test(kept) &&
      !kept.startsWith('.gitbook/') &&
      kept !== summaryPath &&
      slugOfPath(kept) === page.slug &&
      !used.has(kept);
    return usable ? kept : wanted;
  };
  const items = (list: readonly WorkspacePage[]): SummaryItem[] =>
    list.flatMap((page): SummaryItem[] => {
      if (page.type === 'link') return [{ title: page.title, target: page.href, line: 0, items: [] }];
      if (page.type === 'computed') return [{ title: '', target: '', computed: page.source, line: 0, items: [] }];
      if (page.type === 'group') {
        problems.push(
          problem(
            'unrepresentable',
            summaryPath,
            undefined,
            `group \`${page.title}\` is not at the top level; its pages are listed in its place`,
          ),
        );
        return items(page.pages);
      }
      const path = pathOf(page);
      if (used.has(path)) {
        problems.push(
          problem(
            'duplicate-path',
            prefix + path,
            undefined,
            `pages ${owner.get(path)!} and ${page.id} have one file; the second is not written`,
          ),
        );
      } else {
        used.add(path);
        owner.set(path, page.id);
        paths.set(page.id, prefix + path);
        files.set(
          prefix + path,
          renderDocument(page, path, (id) => names.get(id)),
        );
      }
      const item: SummaryItem = { title: page.title, target: relativePath(summaryPath, path), line: 0, items: items(page.pages) };
      if (page.linkTitle !== undefined) item.linkTitle = page.linkTitle;
      return [item];
    });

  const summary: Summary = { parts: [] };
  if (settings.summaryTitle !== undefined) summary.title = settings.summaryTitle;
  for (const page of content.pages) {
    if (page.type === 'group') {
      const listed = items(page.pages);
      const group: SummaryPart = { type: 'group', title: page.title, line: 0, items: listed };
      // GitBook reads a group's slug from its title unless an anchor names it; docsync also from
      // its pages' folder. The anchor is written where either reading would give another slug.
      if (page.slug !== '' && (page.slug !== slugify(page.title) || page.slug !== groupSlug(page.title, listed, summaryPath)))
        group.anchor = page.slug;
      summary.parts.push(group);
    } else {
      const last = summary.parts.at(-1);
      if (last?.type === 'items') last.items.push(...items([page]));
      else summary.parts.push({ type: 'items', items: items([page]) });
    }
  }
  files.set(prefix + summaryPath, renderSummary(summary));

  const includeIndex = new Map<string, string>();
  includePaths(content.reusableContents).forEach((path, i) => {
    const include = content.reusableContents[i]!;
    files.set(prefix + path, renderInclude(include));
    includeIndex.set(path, include.id);
  });
  const vars = renderVars(content.variables);
  if (vars !== undefined) files.set(prefix + VARS_FILE, vars);
  const config = renderGitbookYaml(settings);
  if (config !== undefined) files.set(GITBOOK_YAML, config);
  // Files kept as written go where they were, unless content took the path (a page listed since).
  for (const file of content.gitFiles ?? []) {
    if (file.path === GITBOOK_YAML || !files.has(file.path)) files.set(file.path, file.text);
    else
      problems.push(
        problem('duplicate-path', file.path, undefined, `a page or the folder's own file is written there; the kept file is not written`),
      );
  }

  const keys = pageKeys(content.pages, (id) => paths.get(id)?.slice(prefix.length));
  const pageIndex = new Map([...keys].map(([id, key]) => [key, id]));
  return { files, paths, index: { pages: pageIndex, files: fileIndex, includes: includeIndex }, problems };
}

/** The slug a reader gives a group without an anchor, from the files its items name. */
function groupSlug(title: string, items: readonly SummaryItem[], summaryPath: string): string {
  const files = (list: readonly SummaryItem[]): (string | undefined)[] =>
    list.flatMap((item) => [
      item.computed === undefined && !/^[a-z][a-z0-9+.-]*:|#/i.test(item.target) ? resolvePath(summaryPath, item.target) : undefined,
      ...files(item.items),
    ]);
  return groupSlugOf(title, files(items));
}
