import type { ContentTree, TreeFile, TreePage, TreeReusableContent } from '../../model/index.js';
import { replacePages } from '../tree/page-tree.js';
import { readSubmittedDocument } from '../changes/document.js';
import { includeBody, withKeptNames } from '../changes/reusable-contents.js';
import { ChangeFailure } from '../changes/types.js';
import { includeNameProblem, includeNames, newIncludeName } from '../tree/include-names.js';
import { slugProblem, slugify, uniqueSlug } from '../tree/slugs.js';
import { importLinks, importScope, type ImportedText, type WebPages } from './import-links.js';
import type { ImportOutcome, ImportedInclude, ImportedPage } from './types.js';

export interface ImportContext {
  newId(): string;
  now: string;
  hash(text: string): string;
}

export interface AppendedImport {
  tree: ContentTree;
  /** New page documents by sha256, to store before the tree. */
  documents: Map<string, string>;
  /** Pages added (groups and links included). */
  pages: number;
  /** Reusable contents added. */
  reusableContents: number;
}

/**
 * Adds imported pages after the tree's existing top-level pages, imported files after its
 * files, and imported includes after its reusable contents. Each document is read as the batch
 * endpoint reads a markdown document (front matter becomes page metadata, a leading `# heading`
 * the title), and its links to pages, headings and files become references as the batch makes
 * them (import-links.ts), so an imported page is stored exactly as if it had been written through
 * the API. Slugs are made unique among siblings. The input tree is not modified. A page whose front
 * matter is invalid fails the whole import, naming it.
 */
function readDocument(page: ImportedPage) {
  try {
    return readSubmittedDocument({ markdown: page.markdown ?? '' });
  } catch (error) {
    if (error instanceof ChangeFailure) throw new ChangeFailure(`${page.source}: ${error.message}`);
    throw error;
  }
}

/**
 * Imported includes after the tree's reusable contents, each under its file name (pages of the
 * folder embed it by that name) unless an existing content holds it: then `slugify(title).md`
 * made unique. A body nested too deeply fails the import, naming the file. Bodies are returned by
 * content id, their links still as written.
 */
function appendIncludes(
  tree: ContentTree,
  includes: readonly ImportedInclude[],
  ctx: ImportContext,
  bodies: Map<string, ImportedText>,
): TreeReusableContent[] {
  const contents = withKeptNames(tree.reusableContents);
  for (const include of includes) {
    let body: string;
    try {
      body = includeBody({ markdown: include.markdown });
    } catch (error) {
      if (error instanceof ChangeFailure) throw new ChangeFailure(`${include.source}: ${error.message}`);
      throw error;
    }
    const names = includeNames(contents);
    const name =
      includeNameProblem(include.name) === undefined && !names.includes(include.name) ? include.name : newIncludeName(include.title, names);
    const content: TreeReusableContent = { id: ctx.newId(), title: include.title, name };
    if (body !== '') bodies.set(content.id, { path: include.source, body });
    contents.push(content);
  }
  return contents;
}

/**
 * Each imported document stored with its links as references (import-links.ts), once the final
 * tree says where every page is: the tree with the documents' shas, and the documents by sha.
 */
function storeDocuments(
  tree: ContentTree,
  { folder, web }: { folder: ReadonlyMap<string, string>; web: WebPages },
  pages: ReadonlyMap<string, ImportedText>,
  includes: ReadonlyMap<string, ImportedText>,
  files: readonly TreeFile[],
  ctx: ImportContext,
): { tree: ContentTree; documents: Map<string, string> } {
  const links = importLinks(tree, importScope(tree, folder, files), web);
  const documents = new Map<string, string>();
  // A text left blank (a page of one link to a group, made text with an empty label) is no document, as in a batch.
  const store = (text: string): string | undefined => {
    if (text.trim() === '') return undefined;
    const sha = ctx.hash(text);
    documents.set(sha, text);
    return sha;
  };
  const shas = new Map<string, string | undefined>();
  for (const [id, text] of pages) shas.set(id, store(links.page(id, text)));
  const withDocuments = replacePages(tree.pages, new Set(shas.keys()), (page) => {
    const sha = shas.get(page.id);
    return sha === undefined ? page : { ...page, document: sha };
  });
  const reusableContents = tree.reusableContents.map((content) => {
    const text = includes.get(content.id);
    const sha = text === undefined ? undefined : store(links.include(text));
    return sha === undefined ? content : { ...content, document: sha };
  });
  return { tree: { ...tree, pages: withDocuments as TreePage[], reusableContents }, documents };
}

export function appendImported(
  tree: ContentTree,
  pages: readonly ImportedPage[],
  files: readonly TreeFile[],
  ctx: ImportContext,
  includes: readonly ImportedInclude[] = [],
): ImportOutcome<AppendedImport> {
  // Page ids by their file in the imported folder, and the documents to store once the tree is whole.
  const folder = new Map<string, string>();
  const web = new Map<string, string>();
  const bodies = new Map<string, ImportedText>();
  const includeBodies = new Map<string, ImportedText>();
  let count = 0;
  const build = (page: ImportedPage, taken: Set<string>): TreePage => {
    count += 1;
    const doc = page.kind === 'document' ? readDocument(page) : undefined;
    const title = doc?.title ?? page.title;
    const id = ctx.newId();
    const times = { createdAt: ctx.now, updatedAt: ctx.now };
    // Link pages have no path of their own, hence no slug (as the batch endpoint makes them).
    if (page.kind === 'link') return { id, slug: '', title, ...times, type: 'link', href: page.href ?? '', pages: [] };
    const given =
      page.keepSlug && page.slug !== undefined && page.slug !== '' && slugProblem(page.slug) === undefined ? page.slug : undefined;
    const slug = uniqueSlug(given ?? slugify(page.slug ?? title), taken);
    taken.add(slug);
    const base = { id, slug, title, ...times };
    const children = buildAll(page.pages);
    if (page.kind === 'group' || !doc) return { ...base, type: 'group', pages: children };
    const built: TreePage = { ...doc.meta, ...base, type: 'document', pages: children };
    if (page.linkTitle !== undefined && page.linkTitle !== '') built.linkTitle = page.linkTitle;
    if (page.path !== undefined && !folder.has(page.path)) folder.set(page.path, id);
    const url = page.url === undefined ? undefined : withoutFragment(page.url);
    if (url !== undefined && !web.has(url)) web.set(url, id);
    if (doc.body !== '')
      bodies.set(id, {
        body: doc.body,
        ...(page.path !== undefined ? { path: page.path } : {}),
        ...(page.url !== undefined ? { url: page.url } : {}),
      });
    return built;
  };
  const buildAll = (list: readonly ImportedPage[]): TreePage[] => {
    const taken = new Set<string>();
    return list.map((p) => build(p, taken));
  };
  try {
    const taken = new Set(tree.pages.map((p) => p.slug));
    const added = pages.map((p) => build(p, taken));
    const reusableContents = includes.length === 0 ? tree.reusableContents : appendIncludes(tree, includes, ctx, includeBodies);
    const appended = { ...tree, pages: [...tree.pages, ...added], files: [...tree.files, ...files], reusableContents };
    const stored = storeDocuments(appended, { folder, web }, bodies, includeBodies, files, ctx);
    return {
      ok: true,
      value: {
        tree: stored.tree,
        documents: stored.documents,
        pages: count,
        reusableContents: includes.length,
      },
    };
  } catch (error) {
    if (error instanceof ChangeFailure) return { ok: false, message: error.message };
    throw error;
  }
}

/** A URL without its fragment (as the crawler names pages); the text as it is when it is no URL. */
function withoutFragment(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href;
  } catch {
    return url;
  }
}
