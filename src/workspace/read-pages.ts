import { readPageMeta } from './page-meta.js';
import { isMapping, loadYaml } from '../content/index.js';
import { joinMarkdown, parsePageFile } from './page-file.js';
import { decodePath, isUrl, resolvePath } from './paths.js';
import { problem, type WorkspaceProblem } from './problems.js';
import type { Summary, SummaryItem } from './summary.js';
import { slugOfPath } from './tree.js';
import type { WorkspaceDocument, WorkspacePage } from './types.js';

export interface PageSource {
  /** File of a document page, relative to the root. */
  path?: string;
  /** Line of its SUMMARY.md item or group heading. */
  line: number;
  /** Line in its file where the markdown starts (1-based), for asset problems. */
  bodyLine?: number;
}

export interface PagesRead {
  pages: WorkspacePage[];
  /** Where each page came from, by page object. */
  sources: Map<WorkspacePage, PageSource>;
  listed: Set<string>;
}

interface Context {
  text(path: string): string | undefined;
  /** True for a file that exists but was not given (a partial read): its page reads as empty. */
  unloaded?: (path: string) => boolean;
  fileIdOf(name: string): string | undefined;
  summaryPath: string;
  problems: WorkspaceProblem[];
}

/**
 * The pages SUMMARY.md lists, built from their files. Ids are placeholders and the first
 * page's and groups' slugs are left '' (the caller settles them with the whole tree).
 */
export function readPages(summary: Summary, ctx: Context): PagesRead {
  const sources = new Map<WorkspacePage, PageSource>();
  const listed = new Set<string>();
  let counter = 0;
  const id = () => `tmp-${(counter += 1)}`;
  const add = (problemCode: Parameters<typeof problem>[0], line: number, message: string) =>
    ctx.problems.push(problem(problemCode, ctx.summaryPath, line, message));

  const build = (items: readonly SummaryItem[]): WorkspacePage[] =>
    items.flatMap((item): WorkspacePage[] => {
      if (item.computed !== undefined) {
        const read = loadYaml(item.computed);
        if (!read.ok || !isMapping(read.value) || typeof read.value.type !== 'string' || read.value.type === '') {
          add(
            'summary-syntax',
            item.line,
            `a computed page's block must be a YAML mapping with a \`type\` (\`type: builtin:openapi\`)${read.ok ? '' : `: ${read.reason}`}`,
          );
          return [];
        }
        if (item.items.length > 0)
          add('summary-syntax', item.line, 'a computed page (an OpenAPI reference block) cannot have pages under it; they are not read');
        const computed: WorkspacePage = {
          id: id(),
          type: 'computed',
          title: computedTitle(item.computed),
          source: item.computed,
          slug: '',
          pages: [],
        };
        sources.set(computed, { line: item.line });
        return [computed];
      }
      // A URL, or another page's anchor (`page.md#section`): a link page, not a listing of the file.
      if (isUrl(item.target) || /^[^#]+\.md#/i.test(item.target)) {
        if (item.items.length > 0) add('summary-syntax', item.line, `link \`${item.title}\` cannot have pages under it; they are not read`);
        const link: WorkspacePage = { id: id(), type: 'link', title: item.title, href: item.target };
        sources.set(link, { line: item.line });
        return [link];
      }
      const path = resolvePath(ctx.summaryPath, decodePath(item.target.split('#')[0]!));
      if (path === undefined || !/\.md$/i.test(path)) {
        add(
          'summary-syntax',
          item.line,
          `\`${item.target}\` is neither a .md file in the folder nor a URL; its pages are listed in its place`,
        );
        return build(item.items);
      }
      if (listed.has(path)) {
        add('listed-twice', item.line, `${path} is listed twice; a file is one page (its pages are listed in its place)`);
        return build(item.items);
      }
      listed.add(path);
      const page = readDocument(path, item, ctx, id());
      sources.set(page.page, { path, line: item.line, bodyLine: page.bodyLine });
      page.page.pages = build(item.items);
      return [page.page];
    });

  const pages: WorkspacePage[] = [];
  for (const part of summary.parts) {
    if (part.type === 'items') {
      pages.push(...build(part.items));
      continue;
    }
    const page: WorkspacePage = { id: id(), type: 'group', title: part.title, slug: part.anchor ?? '', pages: build(part.items) };
    sources.set(page, { line: part.line });
    pages.push(page);
  }
  return { pages, sources, listed };
}

/**
 * A computed page's title: the platform's API needs one, the folder has none. The OpenAPI spec's
 * slug the block names (`dependencies.spec.ref.spec`), else its type.
 */
function computedTitle(source: string): string {
  const spec = /^[ \t]+spec:[ \t]*['"]?([^'"\s#]+)/m.exec(source.split(/^[ \t]*ref:/m)[1] ?? '');
  const type = /^type:[ \t]*['"]?([^'"\s#]+)/m.exec(source);
  return spec?.[1] ?? type?.[1] ?? 'computed';
}

function readDocument(path: string, item: SummaryItem, ctx: Context, id: string): { page: WorkspaceDocument; bodyLine: number } {
  const page: WorkspaceDocument = { id, type: 'document', title: item.title, slug: slugOfPath(path) ?? '', markdown: '', path, pages: [] };
  if (item.linkTitle !== undefined) page.linkTitle = item.linkTitle;
  const text = ctx.text(path);
  if (text === undefined) {
    if (ctx.unloaded?.(path)) return { page, bodyLine: 1 };
    ctx.problems.push(problem('missing-file', ctx.summaryPath, item.line, `${path} is listed but the folder has no such file`));
    return { page, bodyLine: 1 };
  }
  const parsed = parsePageFile(text, item.title);
  if (!parsed.ok) {
    ctx.problems.push(problem('front-matter', path, parsed.line, parsed.message));
    page.markdown = text;
    return { page, bodyLine: 1 };
  }
  const read = readPageMeta(parsed.frontMatter, path, ctx.fileIdOf);
  for (const [key, message] of read.errors) ctx.problems.push(problem('front-matter', path, parsed.lines.get(key), message));
  for (const [key, target] of read.missing)
    ctx.problems.push(problem('missing-asset', path, parsed.lines.get(key), `\`${key}\` names ${target}, which is not in the folder`));
  Object.assign(page, read.meta);
  if (parsed.yaml !== undefined && parsed.yaml !== '') page.frontMatter = parsed.yaml;
  if (!parsed.titleHeading) page.titleHeading = false;
  page.markdown = joinMarkdown(read.extra, parsed.markdown);
  const bodyLine = text.split('\n').length - parsed.markdown.split('\n').length + 1;
  return { page, bodyLine };
}
