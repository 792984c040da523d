import { slugify, uniqueSlug } from '../content/index.js';
import { assetReferences } from './asset-refs.js';
import { contentTypeOf } from './assets.js';
import { GITBOOK_YAML, parseGitbookYaml, renderGitbookYaml, rootPrefix, structurePath } from './gitbook-yaml.js';
import { includePaths, parseInclude } from './includes.js';
import { splitMarkdown } from './page-file.js';
import { ASSETS, INCLUDES } from './paths.js';
import { problem, type WorkspaceProblem } from './problems.js';
import { readPages, type PageSource } from './read-pages.js';
import { parseSummary } from './summary.js';
import { canonicalPaths, groupSlugOf, pageKeys, walkPages } from './tree.js';
import {
  holdsPages,
  type FileMap,
  type FolderSettings,
  type WorkspaceContent,
  type WorkspaceDocument,
  type WorkspaceFile,
  type WorkspaceGitFile,
  type WorkspaceInclude,
  type WorkspaceIndex,
  type WorkspacePage,
} from './types.js';
import { parseVars, VARS_FILE } from './vars.js';

export interface ReadOptions {
  /** Ids from the last sync (what `writeFolder` returned); new things get `new-…` ids. */
  index?: WorkspaceIndex;
  /**
   * A partial read: true for a file (relative to the folder) that exists but is not in `files`.
   * Its page has no markdown and no metadata and no problem is reported for it, so two partial
   * reads given the same unloaded files compare equal on those pages (how push reads only the
   * files a commit changed).
   */
  unloaded?: (path: string) => boolean;
}

export interface ReadResult {
  content: WorkspaceContent;
  /** Every problem found; the content is only trustworthy when there are none. */
  problems: WorkspaceProblem[];
  /** Document pages by file (relative to the folder), to re-attach ids. */
  pages: Map<string, WorkspaceDocument>;
  /** Ids of the content read, by place. */
  index: WorkspaceIndex;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const textOf = (value: Uint8Array | string | undefined) =>
  typeof value === 'string' || value === undefined ? value : decoder.decode(value);
const strict = new TextDecoder('utf-8', { fatal: true });
/** The text of a file that is valid UTF-8 (kept as written only then); undefined otherwise. */
function exactText(value: Uint8Array | string): string | undefined {
  if (typeof value === 'string') return value;
  try {
    return strict.decode(value);
  } catch {
    return undefined;
  }
}

/**
 * Reads a GitBook Git Sync folder that GitBook or a person wrote. SUMMARY.md decides the pages;
 * every problem (bad YAML, unlisted pages, entries with no file, duplicate slugs, missing
 * assets) is reported with file and line, and nothing is guessed or silently dropped.
 */
export function readFolder(files: FileMap, options: ReadOptions = {}): ReadResult {
  const problems: WorkspaceProblem[] = [];
  const config = textOf(files.get(GITBOOK_YAML));
  const settings: FolderSettings = {};
  if (config !== undefined) {
    const parsed = parseGitbookYaml(config);
    Object.assign(settings, parsed.settings);
    for (const [line, message] of parsed.errors) problems.push(problem('gitbook-yaml', GITBOOK_YAML, line, message));
  }
  const prefix = rootPrefix(settings.root);
  const rooted = new Map<string, Uint8Array | string>();
  for (const [path, value] of files) if (path !== GITBOOK_YAML && path.startsWith(prefix)) rooted.set(path.slice(prefix.length), value);
  const text = (path: string) => textOf(rooted.get(path));
  const at = (path: string) => prefix + path;
  const ids = options.index;

  const assets: WorkspaceFile[] = [...rooted.keys()]
    .filter((p) => p.startsWith(ASSETS) && !p.slice(ASSETS.length).includes('/'))
    .sort()
    .map((path) => {
      const name = path.slice(ASSETS.length);
      const value = rooted.get(path)!;
      return {
        id: ids?.files.get(name) ?? `new-file-${name}`,
        name,
        contentType: contentTypeOf(name),
        bytes: typeof value === 'string' ? encoder.encode(value) : value,
      };
    });
  const fileIds = new Map(assets.map((f) => [f.name, f.id]));

  const variables = text(VARS_FILE) === undefined ? {} : parseVars(text(VARS_FILE)!).variables;
  if (text(VARS_FILE) !== undefined)
    for (const [line, message] of parseVars(text(VARS_FILE)!).errors) problems.push(problem('vars', at(VARS_FILE), line, message));

  const reusableContents = readIncludes(rooted, ids, problems, at);

  const summaryPath = structurePath(settings.structure?.summary, 'SUMMARY.md');
  const summaryText = text(summaryPath);
  let pages: WorkspacePage[] = [];
  let sources = new Map<WorkspacePage, PageSource>();
  let listed = new Set<string>();
  if (summaryText === undefined)
    problems.push(
      problem(
        'summary-missing',
        at(summaryPath),
        undefined,
        'the folder has no SUMMARY.md, so it has no pages (docsync does not guess the tree)',
      ),
    );
  else {
    const parsed = parseSummary(summaryText);
    if (parsed.summary.title !== undefined) settings.summaryTitle = parsed.summary.title;
    for (const [line, message] of parsed.errors) problems.push(problem('summary-syntax', at(summaryPath), line, message));
    const found: WorkspaceProblem[] = [];
    ({ pages, sources, listed } = readPages(parsed.summary, {
      text,
      unloaded: options.unloaded && ((path) => options.unloaded!(at(path))),
      fileIdOf: (name) => fileIds.get(name),
      summaryPath,
      problems: found,
    }));
    problems.push(...found.map((p) => ({ ...p, file: at(p.file) })));
  }

  settleSlugs(pages, sources, problems, at(summaryPath));
  const canonical = canonicalPaths(pages, structurePath(settings.structure?.readme, 'README.md'));
  for (const [page] of walkPages(pages)) if (page.type === 'document' && page.path === canonical.get(page.id)) delete page.path;

  // Kept as written: `.gitbook.yaml` where settings would not give its text, and unlisted `.md` files.
  const gitFiles: WorkspaceGitFile[] = [];
  if (config !== undefined && config !== renderGitbookYaml(settings)) gitFiles.push({ path: GITBOOK_YAML, text: config });
  for (const path of [...rooted.keys()].sort()) {
    if (/\.md$/i.test(path) && !path.startsWith('.gitbook/') && path !== summaryPath && !listed.has(path)) {
      const written = exactText(rooted.get(path)!);
      if (written !== undefined) gitFiles.push({ path: at(path), text: written });
      problems.push(
        problem(
          'not-in-summary',
          at(path),
          undefined,
          'not listed in SUMMARY.md, so it is not a page (list it, or it stays out of the space)',
        ),
      );
    }
  }
  const pagesByPath = new Map<string, WorkspaceDocument>();
  for (const [page] of walkPages(pages)) {
    if (page.type !== 'document') continue;
    const source = sources.get(page)!;
    pagesByPath.set(at(source.path!), page);
    for (const ref of assetReferences(splitMarkdown(page.markdown).body)) {
      if (!fileIds.has(ref.name))
        problems.push(
          problem(
            'missing-asset',
            at(source.path!),
            (source.bodyLine ?? 1) + ref.line - 1,
            `${ASSETS}${ref.name} is referenced but not in the folder`,
          ),
        );
    }
  }

  const pathById = new Map([...sources].map(([page, source]) => [page.id, source.path]));
  const keys = pageKeys(pages, (id) => pathById.get(id));
  const pageIndex = new Map<string, string>();
  for (const [page] of walkPages(pages)) {
    const key = keys.get(page.id)!;
    page.id = ids?.pages.get(key) ?? `new-${key}`;
    pageIndex.set(key, page.id);
  }
  const includeFiles = includePaths(reusableContents);
  const index: WorkspaceIndex = {
    pages: pageIndex,
    files: fileIds,
    includes: new Map(reusableContents.map((inc, i) => [includeFiles[i]!, inc.id])),
  };
  gitFiles.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    content: { pages, files: assets, variables, reusableContents, settings, ...(gitFiles.length > 0 ? { gitFiles } : {}) },
    problems,
    pages: pagesByPath,
    index,
  };
}

/** Slugs the files do not give: the first page's (its title's) and each group's (its folder). */
function settleSlugs(pages: WorkspacePage[], sources: Map<WorkspacePage, PageSource>, problems: WorkspaceProblem[], summaryFile: string) {
  for (const group of pages) {
    if (group.type !== 'group' || group.slug !== '') continue;
    group.slug = groupSlugOf(
      group.title,
      [...walkPages(group.pages)].map(([p]) => sources.get(p)?.path),
    );
  }
  const visit = (list: WorkspacePage[]) => {
    const taken = new Set<string>();
    for (const page of list) {
      if (!holdsPages(page)) continue;
      if (page.slug === '') page.slug = uniqueSlug(slugify(page.title), new Set(list.flatMap((p) => (holdsPages(p) ? [p.slug] : []))));
      if (taken.has(page.slug))
        problems.push(
          problem(
            'duplicate-slug',
            summaryFile,
            sources.get(page)?.line,
            `two pages under one parent have the slug \`${page.slug}\` (${sources.get(page)?.path ?? page.title})`,
          ),
        );
      taken.add(page.slug);
      visit(page.pages);
    }
  };
  visit(pages);
}

function readIncludes(
  rooted: Map<string, Uint8Array | string>,
  ids: WorkspaceIndex | undefined,
  problems: WorkspaceProblem[],
  at: (p: string) => string,
): WorkspaceInclude[] {
  const found: { include: WorkspaceInclude; name: string }[] = [];
  for (const path of [...rooted.keys()].filter((p) => p.startsWith(INCLUDES) && /\.md$/i.test(p)).sort()) {
    const parsed = parseInclude(textOf(rooted.get(path))!);
    if (!parsed.ok) problems.push(problem('include', at(path), parsed.line, parsed.message));
    const include: WorkspaceInclude = parsed.ok
      ? { id: ids?.includes.get(path) ?? `new-include-${path}`, title: parsed.title, markdown: parsed.markdown }
      : {
          id: ids?.includes.get(path) ?? `new-include-${path}`,
          title: path.slice(INCLUDES.length, -3),
          markdown: textOf(rooted.get(path))!,
        };
    found.push({ include, name: path.slice(INCLUDES.length) });
  }
  const list = found.map((f) => f.include);
  // A file whose name is not the canonical one keeps it; settle until every name matches.
  for (let changed = true; changed;) {
    changed = false;
    includePaths(list).forEach((path, i) => {
      if (path !== INCLUDES + found[i]!.name) {
        list[i]!.path = found[i]!.name;
        changed = true;
      }
    });
  }
  return list;
}
