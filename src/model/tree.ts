/**
 * The content of a revision as the content engine stores and merges it. Pages are matched by
 * id; documents and file bytes are referenced by the sha256 of their bytes (blobs stored once).
 * The API shapes (Revision, RevisionPage, RevisionFile) are rendered from this.
 */
export type PageType = 'document' | 'group' | 'link' | 'computed';

export interface PageLayout {
  width?: 'default' | 'wide';
  cover?: boolean;
  coverSize?: 'hero' | 'full' | 'background';
  coverMask?: 'none' | 'radial';
  title?: boolean;
  description?: boolean;
  tableOfContents?: boolean;
  outline?: boolean;
  pagination?: boolean;
  metadata?: boolean;
  tags?: boolean;
  actions?: boolean;
  anchors?: boolean;
}

export interface PageCover {
  ref?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  refDark?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  yPos?: number;
  height?: number;
}

export type VariableValue = string | number | boolean;

/** Page fields other than identity, position and content; merged field by field. */
export interface PageMeta {
  title: string;
  slug: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: PageLayout;
  cover?: PageCover;
  variables?: Record<string, VariableValue>;
  condition?: string;
  /** Document pages: GitBook's sidebar label (SUMMARY.md `[Title](page.md "Short")`); never empty. */
  linkTitle?: string;
  /** Link pages: where they point. */
  href?: string;
  /**
   * Computed pages: their source (`{type: "builtin:openapi", props, dependencies}`) as JSON text,
   * in the key order it was written (a Git Sync folder holds it as YAML, written back as it was).
   */
  computed?: string;
  /**
   * Document pages: the page's file in a Git Sync folder (`misc/note.md`, `guides.md` beside
   * `guides/`) when the folder it was pushed from did not follow the path rules (`pagePaths`).
   * Absent: the rule's path. Honoured while no other page holds that file.
   */
  gitPath?: string;
  /**
   * Document pages: the front matter of the page's Git Sync file as written (the YAML between
   * the `---` lines), so a file whose values did not change is written back byte for byte; a
   * field changed on the platform is rewritten in it, in place (`patchPageFrontMatter`).
   */
  frontMatter?: string;
  /**
   * Document pages: `false` when the page's Git Sync file as written has no title heading
   * (`# <title>`), so a clone writes it without one; absent otherwise (GitBook's form).
   */
  titleHeading?: false;
}

export interface TreePage extends PageMeta {
  id: string;
  type: PageType;
  /** sha256 of the page's markdown; absent for an empty page and for groups and links. */
  document?: string;
  createdAt?: string;
  updatedAt?: string;
  pages: TreePage[];
}

export interface TreeFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  /** sha256 of the bytes. */
  blob: string;
  dimensions?: { width: number; height: number };
}

export interface TreeReusableContent {
  id: string;
  title: string;
  /** sha256 of the markdown; absent for an empty reusable content. */
  document?: string;
  /**
   * Its file in `.gitbook/includes/` (`warning.md`). Pages embed it by that path and their
   * markdown is stored as written, so the name is kept once given, whatever the title becomes.
   * Absent on contents stored before names were kept: derived from the title (`includeNames`).
   */
  name?: string;
}

/**
 * A text file of the Git Sync folder the space was pushed from that is neither a page, an asset,
 * an include nor the variables: `.gitbook.yaml` as written, a `.md` file SUMMARY.md does not list
 * (the `git-files` extension). Kept so that a clone writes it back byte for byte; not content.
 */
export interface TreeGitFile {
  /** Its path from the top of the folder (`.gitbook.yaml`, `notes/draft.md`). */
  path: string;
  /** sha256 of its text (stored as documents are). */
  document: string;
}

export interface ContentTree {
  pages: TreePage[];
  files: TreeFile[];
  variables: Record<string, VariableValue>;
  reusableContents: TreeReusableContent[];
  /** Absent when there are none (trees stored before the extension have none), else sorted by path. */
  gitFiles?: TreeGitFile[];
}

export const PAGE_META_KEYS = [
  'title',
  'slug',
  'emoji',
  'icon',
  'description',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'layout',
  'cover',
  'variables',
  'condition',
  'linkTitle',
  'href',
  'gitPath',
  'computed',
  'frontMatter',
  'titleHeading',
] as const satisfies readonly (keyof PageMeta)[];
