import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderDocument, renderPage, type SitePage } from '../render/index.js';
import { formatProblem, type FileMap } from '../workspace/index.js';
import { PREVIEW_CLIENT_URL, IDIOMORPH_URL, KATEX_CSS_URL } from './assets.js';
import { STRUCTURE, loadPreviewFolder } from './folder.js';
import { overlayHtml, problemLine, type PreviewProblem } from './overlay.js';
import { PreviewSearch } from './search.js';
import { previewSite, type PreviewSite } from './site.js';
import { pageSpecs, type SpecResolver } from './openapi.js';

/** What changed for the open pages: these URLs, or all of them (the navigation changed). */
export type PreviewChange = { all: true; urls: [] } | { all: false; urls: string[] };

const FRONT_MATTER = /^---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * The folder as the preview serves it: the files in memory, the site read from them, the
 * search index, and each page's problems once it has been rendered. It starts from the structure
 * alone (`loadStructure`: the file list, SUMMARY.md, .gitbook.yaml, variables, includes; a page's
 * text is read when the page is asked for), then `loadAll` reads every page and the site again
 * (front matter: hidden pages, descriptions) and the folder's problems are known. A save of a
 * page replaces that page's text only (its front matter changed: the folder is read again); a
 * change of the structure or of the file list re-reads it. `signal` (the preview closing) stops
 * the reading and indexing between files: they reject with its reason.
 */
export class PreviewState {
  readonly dir: string;
  readonly search = new PreviewSearch();
  #files: FileMap = new Map();
  #site!: PreviewSite;
  #title: string;
  #pageProblems = new Map<string, PreviewProblem[]>();
  /** Pages whose text is not read yet (empty in `#files`). */
  #unread = new Set<string>();
  /** Whether every file is read: until then the folder's problems are not reported. */
  #complete = false;
  #loaded: Promise<void> | undefined;
  #signal: AbortSignal | undefined;

  #specs: SpecResolver | undefined;

  constructor(dir: string, title: string, signal?: AbortSignal, specs?: SpecResolver) {
    this.#specs = specs;
    this.dir = dir;
    this.#title = title;
    this.#signal = signal;
  }

  /** The site from the structure alone: the navigation of SUMMARY.md, no page read yet. */
  async loadStructure(): Promise<void> {
    const { files, unread } = await loadPreviewFolder(this.dir, (path) => STRUCTURE.test(path), this.#signal);
    this.#files = files;
    this.#unread = unread;
    this.#reread();
  }

  /** Reads every page and the site again; file events wait for it. */
  loadAll(): Promise<void> {
    this.#loaded ??= (async () => {
      const { files } = await loadPreviewFolder(this.dir, undefined, this.#signal);
      this.#files = files;
      this.#unread.clear();
      this.#reread();
      this.#complete = true;
    })();
    return this.#loaded;
  }

  get site(): PreviewSite {
    return this.#site;
  }

  #reread(): void {
    this.#site = previewSite(this.#files, this.#title);
    this.#pageProblems.clear();
  }

  /** Indexes every page for search, a slice at a time so requests are served meanwhile. */
  async indexAll(): Promise<void> {
    const pages = [...this.#site.byFile];
    for (let i = 0; i < pages.length; i += 200) {
      this.#signal?.throwIfAborted();
      for (const [file, page] of pages.slice(i, i + 200)) this.search.set(page.url, page.title, this.#text(file));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #text(file: string): string {
    const value = this.#files.get(file);
    return typeof value === 'string' ? value : '';
  }

  /** Takes a file event (path relative to the folder) into account; what the open pages must refetch. */
  async fileChanged(path: string, kind: 'add' | 'change' | 'unlink'): Promise<PreviewChange | undefined> {
    await this.loadAll();
    if (!/\.(md|ya?ml)$/i.test(path)) {
      if (kind === 'change') return undefined;
      if (kind === 'add') this.#files.set(path, new Uint8Array());
      else this.#files.delete(path);
      this.#reread();
      return { all: true, urls: [] };
    }
    const before = this.#files.get(path);
    if (kind === 'unlink') this.#files.delete(path);
    else {
      const text = await readFile(join(this.dir, ...path.split('/')), 'utf8').catch(() => undefined);
      if (text === undefined || text === before) return undefined;
      this.#files.set(path, text);
    }
    const page = this.#site.byFile.get(path);
    const sameFrontMatter = typeof before === 'string' && FRONT_MATTER.exec(before)?.[0] === FRONT_MATTER.exec(this.#text(path))?.[0];
    if (kind === 'change' && page !== undefined && sameFrontMatter && !STRUCTURE.test(path)) {
      this.#pageProblems.delete(path);
      this.search.set(page.url, page.title, this.#text(path));
      return { all: false, urls: [page.url] };
    }
    this.#reread();
    const changed = this.#site.byFile.get(path);
    if (changed) this.search.set(changed.url, changed.title, this.#text(path));
    return { all: true, urls: [] };
  }

  /** The page served at `url` as a whole HTML document, or undefined when no page is there. */
  async pageHtml(url: string): Promise<string | undefined> {
    const found = this.#site.byUrl.get(url);
    if (found === undefined) return undefined;
    const file = this.#site.prefix + found.path!;
    if (this.#unread.has(file)) {
      const text = await readFile(join(this.dir, ...file.split('/')), 'utf8').catch(() => '');
      // The folder may have been read meanwhile (then it holds the text already).
      if (this.#unread.delete(file)) this.#files.set(file, text);
    }
    const page = this.#site.byUrl.get(url);
    if (page === undefined || this.#site.prefix + page.path! !== file) return this.pageHtml(url);
    const markdown = this.#text(file);
    const openapi = await pageSpecs(this.dir, file, markdown, this.#specs);
    const rendered = renderPage(openapi ? { ...this.#site.site, openapi } : this.#site.site, page, markdown, { mode: 'preview' });
    this.#pageProblems.set(
      file,
      rendered.problems.map((p) => ({ ...p, file: this.#site.prefix + p.file })),
    );
    const problems = [...(this.#pageProblems.get(file) ?? []), ...this.folderProblems()];
    return renderDocument(this.#site.site, page, rendered, {
      search: true,
      katexStylesheet: KATEX_CSS_URL,
      scripts: [IDIOMORPH_URL, PREVIEW_CLIENT_URL],
      bodyEnd: overlayHtml(problems),
    });
  }

  /** Problems of the folder as the workspace reader found them. */
  folderProblems(): PreviewProblem[] {
    if (!this.#complete) return [];
    return this.#site.read.problems.map((p) => ({ file: p.file, ...(p.line !== undefined ? { line: p.line } : {}), message: p.message }));
  }

  /** Every problem known now, as `file:line: message` lines. */
  problemLines(): string[] {
    return [
      ...(this.#complete ? this.#site.read.problems.map(formatProblem) : []),
      ...[...this.#pageProblems.values()].flat().map(problemLine),
    ];
  }

  pageAt(url: string): SitePage | undefined {
    return this.#site.byUrl.get(url);
  }
}
