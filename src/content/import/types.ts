/**
 * A page found in an import source (a web page, a markdown file, a file of a Git Sync folder),
 * before it gets an id and a place in the tree.
 */
export interface ImportedPage {
  /** Where it came from (a URL or a path in the folder), for messages. */
  source: string;
  /**
   * Document pages of a folder (a Git Sync folder, a zip): the file's path in it (`guides/install.md`).
   * The page's relative links are resolved from there, among the folder's pages and assets.
   */
  path?: string;
  /**
   * Web pages (a website import): the page's URL. A link of another imported web page to it
   * (relative or absolute, the fragment aside) is a link to this page.
   */
  url?: string;
  kind: 'document' | 'group' | 'link';
  /** Title used when the markdown gives none (front matter `title`, leading `# heading`). */
  title: string;
  /** Wanted slug, slugified and made unique among its siblings; the final title's when absent. */
  slug?: string;
  /**
   * True when `slug` is a name GitBook wrote (a Git Sync file or folder name): it is kept as
   * given when it passes the slug rules (`detox-+-jest`), and only made unique.
   */
  keepSlug?: boolean;
  /** Document pages: GitBook's sidebar label (SUMMARY.md `[Title](page.md "Short")`). */
  linkTitle?: string;
  markdown?: string;
  /** Link pages: the target URL. */
  href?: string;
  pages: ImportedPage[];
}

export type ImportOutcome<T> = { ok: true; value: T } | { ok: false; message: string };

/** A reusable content found in an import source: a Git Sync folder's `.gitbook/includes/<name>`. */
export interface ImportedInclude {
  /** Path in the folder (`.gitbook/includes/<name>`), for messages; its relative links are resolved from there. */
  source: string;
  /** File name in `.gitbook/includes/`, which the folder's pages embed it by. */
  name: string;
  title: string;
  markdown: string;
}
