import type { PageMeta, VariableValue } from '../model/index.js';

/**
 * A folder as bytes or text by path (`/`-separated, relative to the folder). Markdown and YAML
 * files may be given as text; anything may be given as bytes (UTF-8 for text files).
 */
export type FileMap = Map<string, Uint8Array | string>;

/** Fields every page type has. */
interface PageBase {
  id: string;
  title: string;
}

/**
 * A document page: its metadata as the API gives it and its markdown. `markdown` is the page
 * body as the API stores it: without the title heading, possibly opened by a front matter
 * block of keys the API has no field for (`tags`, `metaLinks`, keys docsync does not know).
 */
export interface WorkspaceDocument extends PageBase, Omit<PageMeta, 'href' | 'gitPath'> {
  type: 'document';
  /** GitBook's page link title: the sidebar label, `"..."` after the path in SUMMARY.md. */
  linkTitle?: string;
  markdown: string;
  /**
   * The page's file when it is not the one the Git Sync path rules give (a person put it
   * elsewhere, e.g. a parent as `parent.md` beside its children's folder). Kept so hand-placed
   * files stay where they are; relative links in `markdown` are relative to this file.
   */
  path?: string;
  pages: WorkspacePage[];
}

/** A top-level group (`## Heading` in SUMMARY.md). Its slug is the folder of its pages. */
export interface WorkspaceGroup extends PageBase {
  type: 'group';
  slug: string;
  pages: WorkspacePage[];
}

/** A link page: a SUMMARY.md item pointing at a URL. */
export interface WorkspaceLink extends PageBase {
  type: 'link';
  href: string;
}

export type WorkspacePage = WorkspaceDocument | WorkspaceGroup | WorkspaceLink;

/** A file of the space, stored as `.gitbook/assets/<name>`. */
export interface WorkspaceFile {
  id: string;
  name: string;
  contentType: string;
  /** The bytes; absent when they still have to be fetched (`downloadURL`). */
  bytes?: Uint8Array;
  downloadURL?: string;
}

/** Reusable content, stored as `.gitbook/includes/<name>.md` with front matter `title`. */
export interface WorkspaceInclude {
  id: string;
  title: string;
  markdown: string;
  /** File name when it is not `slugify(title)` (made unique) + `.md`. */
  path?: string;
}

/** `.gitbook.yaml` and the SUMMARY.md title: how the folder is laid out, not space content. */
export interface FolderSettings {
  /** `root` as written (`./`, `./docs/`); undefined when `.gitbook.yaml` has none. */
  root?: string;
  /** `structure.readme` and `structure.summary` as written, when given. */
  structure?: { readme?: string; summary?: string };
  /** `redirects`: old path → file, in file order. */
  redirects?: Record<string, string>;
  /** Other keys of `.gitbook.yaml`, kept as they are. */
  extra?: Record<string, unknown>;
  /** The `# heading` of SUMMARY.md; undefined when it has none. */
  summaryTitle?: string;
}

/** Everything a space holds that the folder carries, as the API gives it. */
export interface WorkspaceContent {
  pages: WorkspacePage[];
  files: WorkspaceFile[];
  variables: Record<string, VariableValue>;
  reusableContents: WorkspaceInclude[];
  settings: FolderSettings;
}

/** Ids of what the folder holds, by where it is: what the sync layer keeps to re-attach ids. */
export interface WorkspaceIndex {
  /** Page key (see `pageKey`) → page id. */
  pages: Map<string, string>;
  /** Asset name → file id. */
  files: Map<string, string>;
  /** Include path → reusable content id. */
  includes: Map<string, string>;
}

export const DEFAULT_SUMMARY_TITLE = 'Table of contents';

/** Settings of a folder docsync creates: GitBook's own defaults, as its Git Sync writes them. */
export const NEW_FOLDER_SETTINGS: FolderSettings = { root: './', summaryTitle: DEFAULT_SUMMARY_TITLE };
